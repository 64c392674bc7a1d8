import AlbumStore
import ArgumentParser
import FoundationEssentials

struct CoversSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Store an album's cover from a file or stdin (undoable).",
        discussion: """
            The image must be a PNG, JPEG, GIF or WebP; anything else is refused and nothing \
            changes. An identical image already stored is not stored again.

            Examples:
              albumstore covers set 42 cover.jpg
              curl -s https://example.org/cover.png | albumstore covers set 42 -
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.", completion: LibraryCompletion.albumID) var id: Int64
    @Argument(help: ArgumentHelp("The image file, or - for stdin.", valueName: "file")) var file: String
    @Option(parsing: .unconditional, help: "The size cap in bytes (default 20 MB).") var maxBytes = CoverRepository.defaultSizeLimit

    func validate() throws {
        guard maxBytes >= 1 else { throw ValidationError("--max-bytes must be at least 1.") }
    }

    func run() throws {
        let library = try store.openLibrary(.readWrite)
        let info: CoverInfo
        if file == "-" {
            // stdin cannot be read twice (hash first, then copy): it is spooled to a private
            // temporary file, capped as it is read.
            let spool = try CoverSpool.standardInput(limit: maxBytes)
            defer { spool.remove() }
            info = try library.covers.set(albumID: id, from: .file(spool.url, name: "stdin"), sizeLimit: maxBytes)
        } else {
            info = try library.covers.set(albumID: id, from: .file(URL(fileURLWithPath: file)), sizeLimit: maxBytes)
        }
        inform("Set the cover of album \(id): \(info.format.rawValue) \(info.width)×\(info.height), \(info.byteCount) bytes. "
            + "`albumstore undo` takes it back.")
    }
}
