/// An audio file of a music folder as a scan knows it: where it is, its stamp, its tags, and the
/// album it belonged to after the previous scan.
struct ScannedFile: Sendable {
    let path: RawPath
    var stamp: FileStamp
    var tags: TrackTags
    /// The embedded front cover's hash, when it is an image the cover store takes.
    var pictureHash: ContentHash?
    /// The album the file belonged to (`folder_files.album_id`), `nil` for a file new to the library.
    var albumID: Int64?
    /// Whether this scan read the file (new or changed) rather than taking the stored tags.
    var isFresh: Bool
}
