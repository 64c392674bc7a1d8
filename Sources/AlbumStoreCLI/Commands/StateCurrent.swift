import AlbumStore
import ArgumentParser

struct StateCurrent: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "current",
        abstract: "Show or save the current album (saved with its index and id; not undoable).",
        discussion: """
            Reading it back gives the same album when it still exists, wherever it moved; \
            otherwise the saved index clamped to the list (past the end: the last album, \
            negative: the first; an empty library: none). A negative --index counts from the \
            end when saving: -1 is the last album.

            JSON keys: index, album_id, title, artist, is_saved_album, saved_index (null when none).

            Examples:
              albumstore state current
              albumstore state current --index 0
              albumstore state current --album 42 --format json
              albumstore state current --clear
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOptions
    // .unconditional: `--index -1` is a value, not an option named `-1`.
    @Option(parsing: .unconditional, help: "Save the album at this 0-based index (-1: the last).") var index: Int?
    // --id too: ids are how albums are named everywhere else.
    @Option(
        name: [.customLong("album"), .customLong("id")], parsing: .unconditional, help: "Save the album with this id.",
        completion: LibraryCompletion.albumID)
    var album: Int64?
    @Flag(help: "Forget the current album.") var clear = false

    func validate() throws {
        if [index != nil, album != nil, clear].filter({ $0 }).count > 1 {
            throw ValidationError("Give one of --index, --album and --clear.")
        }
    }

    func run() throws {
        let writes = index != nil || album != nil || clear
        let session = try store.openLibrary(writes ? .readWrite : .readOnly).session
        if clear {
            try session.clearCurrentAlbum()
            return inform("Forgot the current album.")
        }
        if let index { try session.setCurrentAlbum(at: index) }
        if let album { try session.setCurrentAlbum(id: album) }
        guard let current = try session.currentAlbum() else {
            if output.format == .json || output.format == .ndjson { print("null") }
            return inform("No current album\(try session.state().currentAlbum == nil ? " is saved" : ": the library is empty").")
        }
        if writes {
            inform("Saved the current album: #\(current.index) \(current.album.quoted).")
            // The line says it all; a table would repeat it. Other formats are for programs.
            if output.format == .table { return }
        }
        try StateOutput.print(
            header: ["Index", "ID", "Album"], rows: [[String(current.index), String(current.album.id), StateOutput.line(current)]],
            json: current.json, as: output)
    }
}
