import AlbumStore
import ArgumentParser
import Foundation

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the library's path, schema version, SQLite version, album count and size.",
        discussion: "Example: albumstore info --json")

    @OptionGroup var store: StoreOptions
    @Flag(help: "Print one JSON object instead of lines.") var json = false

    func run() throws {
        let info = try store.openLibrary(.readOnly).info()
        if json { return print(try RecordPrinter.json(info)) }
        print("""
            path:           \(info.path)
            schema version: \(info.schemaVersion)
            sqlite version: \(info.sqliteVersion)
            albums:         \(info.albumCount)
            file size:      \(info.fileSize) bytes (+ \(info.walSize) bytes write-ahead log)
            """)
    }
}
