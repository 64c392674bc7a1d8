import AlbumStore
import FoundationEssentials

/// What the page hears on `/api/events`: a committed change, a long job's progress, or a
/// keep-alive comment.
enum ServerEvent: Sendable {
    case change(ChangeSet)
    case progress(JobProgress)
    case keepAlive

    /// The event in the `text/event-stream` format.
    var text: String {
        switch self {
        case .change(let set): "event: change\ndata: \(Self.json(set))\n\n"
        case .progress(let progress): "event: progress\ndata: \(Self.json(progress))\n\n"
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

/// How far a long job (an import, a cover fetch) has come: `job`, `done`, `total` (`null` when
/// not known), and for an import `rows`.
struct JobProgress: Sendable, Encodable {
    enum Job: String, Sendable, Encodable { case `import`, fetch }
    var job: Job
    var done: Int
    var total: Int?
    var rows: Int?
}
