import AlbumStore
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct StateExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a snapshot to a file in the snapshot file format (- for stdout).",
        discussion: """
            The file is versioned JSON (format, format_version, albumstore_version, \
            exported_at, name, taken_at, state; see docs/cli.md). It is written atomically: a \
            temporary file beside it, renamed over it once complete, so a failure never leaves \
            a half-written snapshot.

            Examples:
              albumstore state export before-party party.json
              albumstore state export before-party - | ssh other albumstore state import -
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The snapshot's name.", completion: LibraryCompletion.snapshotName) var name: String
    @Argument(help: ArgumentHelp("The file to write, or - for stdout.", valueName: "file")) var file: String

    func run() throws {
        let data = try store.openLibrary(.readOnly).session.exportSnapshot(named: name)
        if file == "-" {
            let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
            try stdout.write([UInt8](data))
            return try stdout.flush()
        }
        try AtomicFile.write(to: file) { sink in
            try sink.write([UInt8](data))
            try sink.flush()
        }
        inform("Exported snapshot “\(name)” to \(file).")
    }
}

struct StateImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the snapshot a file holds (- for stdin); `state restore` then applies it.",
        discussion: """
            A file that is not JSON, truncated, not a snapshot, of wrong types, over 32 MiB or \
            written by a newer AlbumStore is refused with the file and the place in it, and \
            nothing changes. A file of an older format version is migrated.

            Examples:
              albumstore state import party.json
              albumstore state import party.json --as party-copy
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The snapshot file, or - for stdin.", valueName: "file")) var file: String
    @Option(name: .customLong("as"), help: ArgumentHelp("Name the snapshot this instead of its own name.", valueName: "name"))
    var name: String?

    func run() throws {
        let session = try store.openLibrary(.readWrite).session
        let snapshot = file == "-"
            ? try session.importSnapshot(reading: .standardInput, source: "stdin", as: name)
            : try session.importSnapshot(contentsOf: URL(fileURLWithPath: file), as: name)
        inform("Imported snapshot “\(snapshot.name)” (\(Counted(snapshot.state.items.count, "item"))).")
    }
}
