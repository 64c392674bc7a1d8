/// The saved current album read back against the list as it is now.
public struct ResolvedCurrentAlbum: Sendable, Hashable {
    /// The album to show.
    public var album: Album
    /// Its 0-based index now.
    public var index: Int
    /// What was saved.
    public var saved: CurrentAlbum
    /// `true` when `album` is the saved album (found by id, wherever it moved); `false` when
    /// that album no longer exists (or its id was not saved) and the saved index was clamped.
    public var isSavedAlbum: Bool
}

extension ResolvedCurrentAlbum {
    /// Its JSON form: `index`, `album_id`, `title`, `artist`, `is_saved_album`, `saved_index`.
    package var json: JSONValue {
        .object([
            "index": .integer(Int64(index)), "album_id": .integer(album.id),
            "title": .string(album.title), "artist": .string(album.artist),
            "is_saved_album": .bool(isSavedAlbum), "saved_index": .integer(Int64(saved.index)),
        ])
    }
}
