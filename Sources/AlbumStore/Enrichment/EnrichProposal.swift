import FoundationEssentials

/// One value MusicBrainz gives for one field of one album: what `enrich` would set.
public struct EnrichProposal: Sendable, Hashable, Identifiable {
    /// Unique within one run's proposals: `ALBUM-FIELD`.
    public var id: String { "\(albumID)-\(field.rawValue)" }
    public let albumID: Int64
    public let albumTitle: String
    public let albumArtist: String
    public let field: EnrichField
    /// The field's value when proposed (`nil`: empty); a cover is named by its hash. The proposal
    /// is applied only while the field still holds it, so an edit made meanwhile is never lost.
    public let current: String?
    /// The new value; for a cover, a description ("JPEG 500x500, 61,212 bytes").
    public let proposed: String
    /// The match's search score (100 when found by the album's MusicBrainz id).
    public let score: Int
    /// Where the value comes from: the release's MusicBrainz page, or the cover's URL.
    public let source: String
    /// A cover's bytes, in a temporary file that goes with the last copy of the proposal.
    let image: SpooledImage?

    public static func == (left: Self, right: Self) -> Bool {
        left.albumID == right.albumID && left.field == right.field && left.current == right.current
            && left.proposed == right.proposed && left.score == right.score && left.source == right.source
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(albumID)
        hasher.combine(field)
        hasher.combine(proposed)
    }
}

/// A downloaded cover waiting to be applied: a spool file, removed when nothing refers to it.
final class SpooledImage: Sendable {
    let spool: CoverSpool
    let scan: CoverScan

    init(spool: CoverSpool, scan: CoverScan) {
        self.spool = spool
        self.scan = scan
    }

    deinit { spool.remove() }

    var source: CoverSource { .file(spool.url, name: "cover") }
}
