import AlbumStore
import FoundationEssentials
import Hummingbird
import Synchronization

/// Enrichment from the page: the proposals for the albums of a search (a dry run, its progress on
/// `/api/events`), held for review; then the accepted ones applied as one undoable command.
struct EnrichRoutes {
    let library: Library
    let hub: EventHub
    let configuration: ServerConfiguration
    /// The proposals of the latest lookup, waiting for review: one review at a time.
    let pending = PendingReview()

    func add(to router: Router<some RequestContext>) {
        router.post("/api/enrich/proposals") { request, _ in
            let query = try await JSONBody.decodeIfPresent(LookupBody.self, from: request)?.q ?? ""
            return try await self.propose(matching: try AlbumQuery(parsing: query))
        }
        router.post("/api/enrich/apply") { request, _ in
            try await self.apply(try await JSONBody.decode(ApplyBody.self, from: request))
        }
    }

    private struct LookupBody: Decodable { var q: String? }

    private struct ApplyBody: Decodable {
        var review: String
        var accept: [String]
    }

    private func propose(matching query: AlbumQuery) async throws -> Response {
        let progress = ProgressReporter(hub: hub, job: .enrich)
        let options = EnrichOptions(
            musicBrainzURL: configuration.musicBrainzURL, coverArtURL: configuration.coverArtURL, dryRun: true,
            progress: { step in progress.report(done: step.albumsDone, total: step.albumsTotal, rows: nil) })
        let summary = try await library.enrich(matching: query.matchesEverything ? nil : query, options: options)
        let review = pending.hold(summary.proposals)
        return try JSONBody.response(EnrichReview(summary, review: review))
    }

    private func apply(_ body: ApplyBody) async throws -> Response {
        guard let proposals = pending.take(body.review) else {
            throw APIError(.conflict, "these proposals are no longer held (another lookup replaced them): look them up again")
        }
        let accepted = Set(body.accept)
        let chosen = proposals.filter { accepted.contains($0.id) }
        let library = library
        let applied = try await library.offCooperativeThreads { try library.applyEnrichment(chosen) }
        return try JSONBody.response(["applied": applied.map(\.id)])
    }
}

/// The proposals of one lookup, under a name the page sends back to apply them.
final class PendingReview: Sendable {
    private let held = Mutex<(name: String, proposals: [EnrichProposal])?>(nil)

    /// Holds `proposals` in place of any others; returns their name.
    func hold(_ proposals: [EnrichProposal]) -> String {
        let name = UUID().uuidString.lowercased()
        held.withLock { $0 = (name, proposals) }
        return name
    }

    /// The proposals named `name`, no longer held; `nil` when others replaced them.
    func take(_ name: String) -> [EnrichProposal]? {
        held.withLock { held in
            guard let current = held, current.name == name else { return nil }
            held = nil
            return current.proposals
        }
    }
}

/// A lookup's answer: `review` (the name to apply with), `proposals` (`id`, `album_id`, `title`,
/// `artist`, `field`, `current`, `proposed`, `score`, `source`), `not_found`, `ambiguous` and
/// `failures` (`album_id`, `title`, `artist`, and but for `not_found` a `reason`).
struct EnrichReview: Encodable {
    struct Proposal: Encodable {
        var id: String, albumID: Int64, title: String, artist: String, field: String
        var current: String?, proposed: String, score: Int, source: String
        enum CodingKeys: String, CodingKey {
            case id, albumID = "album_id", title, artist, field, current, proposed, score, source
        }
    }

    struct Skipped: Encodable {
        var albumID: Int64, title: String, artist: String, reason: String?
        enum CodingKeys: String, CodingKey { case albumID = "album_id", title, artist, reason }
    }

    var review: String
    var albumsLookedUp: Int
    var requests: Int
    var proposals: [Proposal]
    var notFound: [Skipped]
    var ambiguous: [Skipped]
    var failures: [Skipped]

    init(_ summary: EnrichSummary, review: String) {
        self.review = review
        albumsLookedUp = summary.albumsLookedUp
        requests = summary.musicBrainzRequests
        proposals = summary.proposals.map {
            Proposal(id: $0.id, albumID: $0.albumID, title: $0.albumTitle, artist: $0.albumArtist, field: $0.field.rawValue,
                     current: $0.current, proposed: $0.proposed, score: $0.score, source: $0.source)
        }
        let skipped = { (album: EnrichSummary.AlbumName, reason: String?) in
            Skipped(albumID: album.id, title: album.title, artist: album.artist, reason: reason)
        }
        notFound = summary.notFound.map { skipped($0, nil) }
        ambiguous = summary.ambiguous.map { skipped($0.album, $0.reason) }
        failures = summary.failures.map { skipped($0.album, $0.reason) }
    }

    enum CodingKeys: String, CodingKey {
        case review, requests, proposals, ambiguous, failures
        case albumsLookedUp = "albums_looked_up", notFound = "not_found"
    }
}
