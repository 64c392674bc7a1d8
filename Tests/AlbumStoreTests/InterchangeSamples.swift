import Foundation
@testable import AlbumStore

extension Album {
    /// An album with every field chosen, dates on whole milliseconds as stored ones are.
    static func sample(
        id: ID = 7, title: String = "Low", artist: String = "David Bowie", genre: String? = "Rock", year: Int? = 1977,
        coverURL: String? = "https://example.com/low.jpg", externalID: String? = nil,
        createdAt: Int64 = 1_795_312_290_123, updatedAt: Int64 = 1_795_312_320_000
    ) -> Album {
        Album(id: id, title: title, artist: artist, genre: genre, year: year, coverURL: coverURL, externalID: externalID,
              createdAt: Date(millisecondsSince1970: createdAt), updatedAt: Date(millisecondsSince1970: updatedAt))
    }
}

/// A sink that remembers each write: how many, how big, and what had arrived when.
final class RecordingSink: ByteSink {
    private(set) var writes: [Int] = []
    private(set) var flushes = 0
    private(set) var bytes: [UInt8] = []

    var text: String { String(decoding: bytes, as: UTF8.self) }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        writes.append(bytes.count)
        self.bytes.append(contentsOf: bytes)
    }

    func flush() throws { flushes += 1 }
}
