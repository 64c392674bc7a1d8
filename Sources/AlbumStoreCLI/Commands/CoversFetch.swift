import AlbumStore
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct CoversFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download the missing covers of the albums a query matches (all by default) from their cover URLs.",
        discussion: """
            Only albums without a cover are fetched: a cover once stored is never downloaded \
            again. Only http and https URLs are downloaded: any other (a file: URL from a \
            catalog may name any file here) is a failure, never opened. \
            Downloads run --concurrency at a time; a \
            timeout or a 5xx answer is retried (--attempts) with a doubling wait; a body over \
            --max-bytes is cut off as it arrives. A failure never stops the batch: the summary \
            lists each one with its reason, and the exit status is 1 when any failed. Progress \
            goes to stderr when it is a terminal.

            Examples:
              albumstore covers fetch
              albumstore covers fetch artist:bowie year:1970..1979
              albumstore covers fetch --concurrency 4 --timeout 10
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var query: QueryTerms
    @Option(parsing: .unconditional, help: "Downloads at once.") var concurrency = 8
    @Option(parsing: .unconditional, help: "Seconds an attempt may wait for data.") var timeout = 30.0
    @Option(parsing: .unconditional, help: "Attempts per URL on timeouts and 5xx answers.") var attempts = 3
    @Option(parsing: .unconditional, help: "The size cap in bytes (default 20 MB).") var maxBytes = CoverRepository.defaultSizeLimit

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1.") }
        guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1.") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive.") }
        guard maxBytes >= 1 else { throw ValidationError("--max-bytes must be at least 1.") }
    }

    func run() async throws {
        let library = try store.openLibrary(.readWrite)
        let ids = try query.albumIDs(in: library)
        let options = CoverFetchOptions(
            concurrency: concurrency, timeout: .milliseconds(Int(timeout * 1000)), attempts: attempts, sizeLimit: maxBytes)
        let showProgress = Terminal.isTerminal(STDERR_FILENO) && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let summary = try await library.covers.fetchMissing(among: ids, options: options) { done, total in
            if showProgress { writeToStandardError("\rFetching covers: \(done)/\(total)") }
        }
        if showProgress { writeToStandardError("\n") }
        inform("Fetched \(Counted(summary.stored.count, "cover")); \(summary.failures.count) failed; "
            + "\(Counted(summary.withoutURL.count, "album", verb: "has", "have")) no cover URL.")
        for failure in summary.failures { inform("  \(failure)") }
        if !summary.failures.isEmpty { throw ExitCode(1) }
    }
}
