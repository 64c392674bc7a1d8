import AlbumStore
import ArgumentParser
import FoundationEssentials

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the library's path, schema version, SQLite version, album count and size.",
        discussion: """
            JSON keys: path, schema_version, sqlite_version, album_count, file_size, wal_size (one object).

            Examples: albumstore info    albumstore info --format json
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions
    /// The spelling before `--format json`, kept so that scripts using it go on working.
    @Flag(help: .hidden) var json = false

    func run() throws {
        let info = try store.openLibrary(.readOnly).info()
        var output = output
        if json {
            inform("--json is deprecated: use --format json.")
            output.format = .json
        }
        try InfoRecord.print(info, as: output)
    }
}
