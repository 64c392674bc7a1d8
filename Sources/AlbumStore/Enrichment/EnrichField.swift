/// A field of an album that `Library.enrich(matching:options:)` can fill from MusicBrainz.
public enum EnrichField: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The year of the first release of the album (its release group's), else of the release.
    case year
    /// The genre MusicBrainz's voters give the release most often.
    case genre
    /// The MusicBrainz release id, kept as the album's external id.
    case musicBrainzID = "musicbrainz_id"
    /// The front cover, 500 pixels wide, from the Cover Art Archive.
    case cover

    public var description: String { rawValue }
}
