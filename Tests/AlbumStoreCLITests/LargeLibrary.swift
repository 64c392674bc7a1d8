import AlbumStore
import Foundation
import Synchronization

/// One library of 200,000 albums for the tests that need a long list: built on first use (a few
/// seconds), shared by those tests (they only read it), and removed when the test process exits.
enum LargeLibrary {
    static let albumCount = 200_000

    private static let built = Mutex<String?>(nil)
    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("albumstore-large-library-\(getpid())")

    /// The library file's path.
    static func path() throws -> String {
        try built.withLock { built in
            if let built { return built }
            let url = folder.appendingPathComponent("library.sqlite")
            try? FileManager.default.removeItem(at: folder)
            atexit { try? FileManager.default.removeItem(at: LargeLibrary.folder) }
            let library = try Library.open(at: url)
            for start in stride(from: 0, to: albumCount, by: 50_000) {
                try library.albums.append(contentsOf: (start..<min(start + 50_000, albumCount)).map { number in
                    AlbumDraft(title: "Album Title \(number)", artist: "Artist \(number % 5_000)", genre: "Rock",
                               year: 1950 + number % 75, coverURL: "https://covers.example.com/\(number).jpg")
                })
            }
            built = url.path
            return url.path
        }
    }
}
