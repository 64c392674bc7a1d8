import AlbumStore
import FoundationEssentials

/// What the page hears on `/api/events`: a committed change, a long job's progress, an album a
/// folder scan found (not yet imported), or a keep-alive comment.
enum ServerEvent: Sendable {
    case change(ChangeSet)
    case progress(JobProgress)
    case scanned(FoundAlbumEvent)
    case keepAlive

    /// The event in the `text/event-stream` format.
    var text: String {
        switch self {
        case .change(let set): "event: change\ndata: \(Self.json(set))\n\n"
        case .progress(let progress): "event: progress\ndata: \(Self.json(progress))\n\n"
        case .scanned(let album): "event: scanned\ndata: \(Self.json(album))\n\n"
        case .keepAlive: ": keep-alive\n\n"
        }
    }

    /// One line of JSON, keys sorted (as `watch --format ndjson` writes a change set).
    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

/// How far a long job (an import, a cover fetch, a folder scan, an enrichment's lookup) has come: `job`, `done`, `total`
/// (`null` when not known), and for an import `rows`.
struct JobProgress: Sendable, Encodable {
    enum Job: String, Sendable, Encodable { case `import`, fetch, scan, enrich }
    var job: Job
    var done: Int
    var total: Int?
    var rows: Int?
}
