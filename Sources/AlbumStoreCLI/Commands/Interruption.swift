import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C during `albumstore import` or `enrich`: the first asks the command to stop (an import
/// rolls its transaction back, so that the command can say nothing was imported and close the
/// library, which removes the write-ahead log the rows filled; an enrichment applies what it found
/// so far); a second one ends the process at once.
///
/// Killed by the signal's default action instead, the process would leave the log, megabytes of
/// uncommitted rows, beside the library until the next write.
enum Interruption {
    private static let requested = Atomic<Bool>(false)
    // Kept alive for the life of the process.
    nonisolated(unsafe) private static var source: DispatchSourceSignal?

    /// Catches SIGINT from now on, for the command `name`; `onRequest` runs at the first.
    static func start(_ name: String = "import", onRequest: (@Sendable () -> Void)? = nil) {
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler {
            guard Self.requested.exchange(true, ordering: .relaxed) else {
                onRequest?()
                return
            }
            writeToStandardError("albumstore: \(name) interrupted\n")
            exit(Self.exitStatus)
        }
        interrupt.resume()
        source = interrupt
    }

    /// Whether Ctrl-C was pressed since `start()`.
    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// The exit status of a process a Ctrl-C ended: 128 + SIGINT, as shells report it.
    static let exitStatus: Int32 = 130
}
