import HTTPTypes
import Synchronization

/// One import at a time (a catalog upload or a music folder), and what it is: another is refused
/// at once, before its body is read, so that concurrent uploads cannot hold their catalogs in
/// memory together; other writes are refused meanwhile too (`ImportGuard`), and the page shows
/// the import's `label`.
final class ImportSlot: Sendable {
    /// What holds the slot.
    enum Job: Sendable, Equatable {
        /// A catalog sent as a request's body, under its file name when the page gave one.
        case catalog(name: String?)
        /// A music folder on the server's machine.
        case folder(path: String)

        /// A short label for the page: `Importing albums.csv`, `Scanning /home/me/Music`.
        var label: String {
            switch self {
            case .catalog(let name): "Importing \(name ?? "a catalog")"
            case .folder(let path): "Scanning \(path)"
            }
        }

        /// Why a write is refused meanwhile, in words.
        var refusal: APIError {
            let what = switch self {
            case .catalog(let name): "an import of \(name ?? "a catalog")"
            case .folder(let path): "a scan of \(path)"
            }
            return APIError(.conflict, "\(what) is running: wait for it to end", busy: label)
        }
    }

    private let job = Mutex<Job?>(nil)

    /// The import running now, if any.
    var current: Job? { job.withLock { $0 } }

    /// Runs `body` holding the slot for `job`, telling `hub` (a `job` event) when it starts and
    /// when it ends, however it ends.
    /// - Throws: `job.refusal` of the running one, 409, while another import holds it.
    func run<T: Sendable>(_ job: Job, announcingTo hub: EventHub? = nil, _ body: () async throws -> T) async throws -> T {
        let running: Job? = self.job.withLock { held in
            if let held { return held }
            held = job
            return nil
        }
        if let running { throw running.refusal }
        hub?.publish(.job(busy: job.label))
        defer {
            self.job.withLock { $0 = nil }
            hub?.publish(.job(busy: nil))
        }
        return try await body()
    }
}
