import FoundationEssentials

/// An album as a scan finds it once the files of its folder are read: what a scan's progress
/// shows. The import groups the whole folder later, so an album spread over several folders is
/// found once per folder.
public struct FoundAlbum: Sendable, Hashable {
    public var title: String
    public var artist: String
    public var year: Int?
    public var trackCount: Int
    /// The album's folder (bytes that are not UTF-8 shown as `\xNN`).
    public var folder: String
    /// The cover's bytes, an embedded picture or the folder's image, when it has one.
    public var cover: Data?
}
