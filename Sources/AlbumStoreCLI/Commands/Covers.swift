import ArgumentParser

struct Covers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "covers",
        abstract: "Manage album cover images, stored in the library file as blobs.",
        discussion: """
            Covers are content-addressed: identical images are stored once (SHA-256). PNG, JPEG, \
            GIF and WebP are accepted, up to 20 MB (--max-bytes). Setting and removing a cover \
            are undoable (`albumstore undo`); the history keeps the image's hash, and `covers gc` \
            keeps every image that undo or redo can bring back.

            Examples:
              albumstore covers set 42 cover.jpg
              albumstore covers get 42 -o cover.jpg
              albumstore covers fetch
              albumstore covers export --dir covers/
              albumstore covers stats
            """,
        subcommands: [CoversSet.self, CoversGet.self, CoversRemove.self, CoversFetch.self, CoversExport.self,
                      CoversGC.self, CoversStats.self]
    )
}

extension CoversSet: LibraryCommand {}
extension CoversGet: LibraryCommand {}
extension CoversRemove: LibraryCommand {}
extension CoversFetch: LibraryCommand {}
extension CoversExport: LibraryCommand {}
extension CoversGC: LibraryCommand {}
extension CoversStats: LibraryCommand {}
