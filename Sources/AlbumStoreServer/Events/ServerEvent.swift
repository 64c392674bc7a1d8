import AlbumStore
import FoundationEssentials

/// What the page hears on `/api/events`: a committed change, a long job's progress, an import's
/// start and end (`job`: the label of what holds the writes, or `null`), an album a folder scan
/// found (not yet imported), a keep-alive comment, or `resync` (events were dropped for a
/// listener that fell behind: everything may have changed).
enum ServerEvent: Sendable {
    case change(ChangeSet)
    case progress(JobProgress)
    case job(busy: String?)
    case scanned(FoundAlbumEvent)
    case keepAlive
    case resync

    /// A change set naming more row ids than this is sent as its counts (`ChangeSummary`): a
    /// 50,000-album import is a few hundred bytes to each listener, not 300 KB.
    static let largestChangeSent = 1000

    /// The event in the `text/event-stream` format.
    var text: String {
        switch self {
        case .change(let set) where set.tables.values.reduce(0, { $0 + $1.inserted.count + $1.updated.count + $1.deleted.count })
            > Self.largestChangeSent:
            "event: change\ndata: \(Self.json(ChangeSummary(set)))\n\n"
        case .change(let set): "event: change\ndata: \(Self.json(set))\n\n"
        case .resync: "event: change\ndata: {\"is_overflow\":true,\"is_resync\":true}\n\n"
        case .progress(let progress): "event: progress\ndata: \(Self.json(progress))\n\n"
        case .job(let busy): "event: job\ndata: \(Self.json(BusyState(busy)))\n\n"
        case .scanned(let album): "event: scanned\ndata: \(Self.json(album))\n\n"
        case .keepAlive: ": keep-alive\n\n"
        }
    }

    /// A large change set as counts: `cursor`, `transaction`, `date`, `tables` with
    /// `{"inserted_count", "updated_count", "deleted_count"}` each, and `"is_summary": true`. The
    /// ids are for `albumstore watch --since` to give.
    struct ChangeSummary: Encodable {
        struct Counts: Encodable {
            var insertedCount: Int, updatedCount: Int, deletedCount: Int
            enum CodingKeys: String, CodingKey {
                case insertedCount = "inserted_count", updatedCount = "updated_count", deletedCount = "deleted_count"
            }
        }

        var cursor: Int64, transaction: Int64, date: String, tables: [String: Counts], isOverflow: Bool, isSummary = true

        init(_ set: ChangeSet) {
            cursor = set.cursor
            transaction = set.transaction
            date = ISO8601Timestamp.string(from: set.date)
            tables = set.tables.mapValues {
                Counts(insertedCount: $0.inserted.count, updatedCount: $0.updated.count, deletedCount: $0.deleted.count)
            }
            isOverflow = set.isOverflow
        }

        enum CodingKeys: String, CodingKey {
            case cursor, transaction, date, tables, isOverflow = "is_overflow", isSummary = "is_summary"
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
