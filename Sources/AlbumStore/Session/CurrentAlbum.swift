/// The saved current album: the index the user was looking at in the ordered list, and the
/// album's id so that reading it back finds the same album after inserts, deletes and moves.
public struct CurrentAlbum: Sendable, Hashable {
    /// The 0-based index when it was saved.
    public var index: Int
    /// The album's id (`nil` in a snapshot file of format version 1, which kept only the index).
    public var albumID: Album.ID?

    public init(index: Int, albumID: Album.ID?) {
        self.index = index
        self.albumID = albumID
    }

    /// Where a saved index lands in a list of `count` albums: past the end the last album, a
    /// negative index the first, an empty list none.
    public static func clamped(_ index: Int, count: Int) -> Int? {
        guard count > 0 else { return nil }
        return min(max(index, 0), count - 1)
    }

    /// As the snapshot file and the table keep it: `{"index": N, "album_id": ID or null}`.
    var json: JSONValue {
        .object(["index": .integer(Int64(index)), "album_id": albumID.map { .integer($0) } ?? .null])
    }

    /// `json`'s text (`json.description`: compact, keys sorted), written directly: the save of
    /// the current album writes it every time, and it is two integers.
    var jsonText: String {
        var text = "{\"album_id\":"
        text.reserveCapacity(64)
        text += albumID.map { String($0) } ?? "null"
        text += ",\"index\":"
        text += String(index)
        text += "}"
        return text
    }
}
