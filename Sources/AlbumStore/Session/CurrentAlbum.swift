/// The saved current album: the index the user was looking at in the ordered list, and the
/// album's id so that reading it back finds the same album after inserts, deletes and moves.
public struct CurrentAlbum: Sendable, Hashable {
    /// The 0-based index when it was saved.
    public var index: Int
    /// The album's id (`nil` in a snapshot file of format version 1, which kept only the index).
    public var albumID: Album.ID?

    /// A current album at `index`, with its id when known.
    public init(index: Int, albumID: Album.ID?) {
        self.index = index
        self.albumID = albumID
    }

    /// Where a saved index lands in a list of `count` albums: past the end the last album, a
    /// negative index the first, an empty list none.
    ///
    /// - Parameters:
    ///   - index: The saved 0-based index.
    ///   - count: How many albums the list holds now.
    public static func clamped(_ index: Int, count: Int) -> Int? {
        guard count > 0 else { return nil }
        return min(max(index, 0), count - 1)
    }

    /// As the snapshot file and the table keep it: `{"index": N, "album_id": ID or null}`.
    var json: JSONValue {
        .object(["index": .integer(Int64(index)), "album_id": albumID.map { .integer($0) } ?? .null])
    }

    /// `json`'s text (`json.description`: compact, keys sorted), written directly into the
    /// string's bytes: the save of the current album writes it every time, and building it by
    /// interpolation cost a twentieth of the whole save.
    var jsonText: String {
        String(unsafeUninitializedCapacity: 64) { bytes in
            var count = 0
            func append(_ text: StaticString) {
                for byte in UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) {
                    bytes[count] = byte
                    count += 1
                }
            }
            func append(_ number: Int64) {
                // Last digit first, then the run turned around.
                let start = count
                var rest = number.magnitude
                repeat {
                    bytes[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    count += 1
                    rest /= 10
                } while rest > 0
                if number < 0 {
                    bytes[count] = UInt8(ascii: "-")
                    count += 1
                }
                bytes[start..<count].reverse()
            }
            append("{\"album_id\":")
            if let albumID { append(albumID) } else { append("null") }
            append(",\"index\":")
            append(Int64(index))
            append("}")
            return count
        }
    }
}
