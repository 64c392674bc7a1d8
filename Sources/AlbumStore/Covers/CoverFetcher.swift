import Dispatch
import FoundationEssentials

/// Downloads the missing covers of a set of albums, a bounded number at a time, retrying
/// timeouts and server errors with exponential backoff. A failing URL is reported and the
/// batch goes on.
struct CoverFetcher: Sendable {
    let covers: CoverRepository
    let options: CoverFetchOptions

    /// One album to fetch.
    struct Job: Sendable {
        let albumID: Int64
        let url: String
    }

    /// The outcome of one job.
    private enum Outcome: Sendable {
        case stored(CoverInfo)
        case failed(CoverFetchSummary.Failure)
    }

    func run(_ jobs: [Job], progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void) async -> CoverFetchSummary {
        var summary = CoverFetchSummary()
        var failures: [Int64: CoverFetchSummary.Failure] = [:]
        let downloads = HTTPDownloader(timeout: options.timeout, limit: options.sizeLimit)
        await withTaskGroup(of: Outcome.self) { group in
            var next = jobs.makeIterator()
            var running = 0
            while running < options.concurrency, let job = next.next() {
                group.addTask { await fetch(job, downloads: downloads) }
                running += 1
            }
            var done = 0
            while let outcome = await group.next() {
                done += 1
                progress(done, jobs.count)
                switch outcome {
                case let .stored(info): summary.stored.append(info)
                case let .failed(failure): failures[failure.albumID] = failure
                }
                if let job = next.next() { group.addTask { await fetch(job, downloads: downloads) } }
            }
        }
        summary.failures = jobs.compactMap { failures[$0.albumID] }
        return summary
    }

    private func fetch(_ job: Job, downloads: HTTPDownloader) async -> Outcome {
        do {
            let (source, spool) = try await download(job.url, downloads: downloads)
            defer { spool.remove() }
            return .stored(try await store(source, for: job))
        } catch let error as CoverError {
            // The source name is the URL, which the failure line shows already.
            let reason = "\(error)".replacing("\(job.url): ", with: "")
            return .failed(.init(albumID: job.albumID, url: job.url, reason: reason))
        } catch {
            return .failed(.init(albumID: job.albumID, url: job.url, reason: "\(error)"))
        }
    }

    /// Stores a downloaded cover on a thread of its own: the write may wait for the lock, and a
    /// waiting task must not hold one of Swift's few cooperative threads.
    private func store(_ source: CoverSource, for job: Job) async throws -> CoverInfo {
        let covers = covers, limit = options.sizeLimit
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result {
                    try covers.set(albumID: job.albumID, from: source, sizeLimit: limit)
                })
            }
        }
    }

    /// The spool the download of `string` was written to, after up to `options.attempts`
    /// attempts; the caller removes it. Only http and https: a cover URL comes from a catalog
    /// from anywhere, and a `file:` URL there may name any file of this machine (a FIFO that
    /// blocks, `/dev/zero`, a secret), so nothing else is ever opened.
    private func download(_ string: String, downloads: HTTPDownloader) async throws -> (CoverSource, CoverSpool) {
        guard let url = URL(string: string) else { throw DownloadError.badURL }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { throw DownloadError.notHTTP }
        var delay = options.backoff
        for attempt in 1... {
            let spool = try CoverSpool()
            do {
                try await downloads.fetch(url, into: spool)
                return (.file(spool.url, name: string), spool)
            } catch let error as DownloadError where error.isRetryable && attempt < options.attempts {
                spool.remove()
                try await Task.sleep(for: delay)
                delay *= 2
            } catch {
                spool.remove()
                throw error
            }
        }
        throw DownloadError.badURL   // not reached: the loop returns or throws
    }
}

extension CoverRepository {
    /// Downloads and stores the covers of the albums among `albumIDs` (every album when `nil`)
    /// that have none, from their cover URLs: http and https only; any other URL (`file:`,
    /// `ftp:`, `data:`, a bare path) is a failure, never opened. An album that has its cover
    /// is never fetched again. Each cover is stored as it arrives, in a transaction of its own,
    /// so observers get a change set per cover; a failure is listed in the summary and the
    /// batch goes on. `progress` is called after each album with the count done and the total.
    public func fetchMissing(
        among albumIDs: [Int64]? = nil, options: CoverFetchOptions = CoverFetchOptions(),
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> CoverFetchSummary {
        let missing = try albumsWithoutCover(among: albumIDs)
        let jobs = missing.compactMap { album in
            album.coverURL.flatMap { $0.isEmpty ? nil : CoverFetcher.Job(albumID: album.id, url: $0) }
        }
        var summary = await CoverFetcher(covers: self, options: options).run(jobs, progress: progress)
        summary.withoutURL = missing.filter { ($0.coverURL ?? "").isEmpty }.map(\.id)
        return summary
    }
}
