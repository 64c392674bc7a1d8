import AlbumStore
import FoundationEssentials
import Synchronization

/// The progress line `albumstore import` keeps up to date on stderr when stderr is a terminal:
/// rows read, rows a second, and the share of the file's bytes read when its size is known (for
/// a music folder: files read, files a second, and the time left).
final class ImportProgressLine: Sendable {
    private struct State {
        var lastShown: ContinuousClock.Instant?
        var shown = false
    }

    private let start = ContinuousClock.now
    private let state = Mutex(State())
    /// At most this often, so the terminal is not the import's bottleneck.
    private static let interval = Duration.milliseconds(200)

    func show(_ progress: ImportProgress) {
        draw { seconds in
            var text = "\(progress.rows) rows, \(Int(Double(progress.rows) / seconds)) rows/s"
            if let fraction = progress.fraction { text += ", \(Int(fraction * 100))%" }
            return text
        }
    }

    /// A folder scan's: files read of those to read, files a second, and the time left.
    func show(_ progress: FolderScanProgress) {
        draw { _ in
            var text = "\(progress.filesRead) of \(Counted(progress.filesToRead, "file")) read, \(Int(progress.filesPerSecond)) files/s"
            if let left = progress.secondsLeft, progress.filesRead > 0 {
                let seconds = Int(left.rounded(.up))
                text += ", about \(seconds / 60):\(seconds % 60 < 10 ? "0" : "")\(seconds % 60) left"
            }
            return text
        }
    }

    /// Draws the line `text` gives (seconds since the start), unless it was drawn very recently.
    private func draw(_ text: (Double) -> String) {
        let now = ContinuousClock.now
        let draw = state.withLock { state in
            if let last = state.lastShown, now - last < Self.interval { return false }
            state.lastShown = now
            state.shown = true
            return true
        }
        guard draw else { return }
        let seconds = max(0.001, Double((now - start).components.attoseconds) / 1e18 + Double((now - start).components.seconds))
        writeToStandardError("\r\u{1B}[K" + text(seconds))
    }

    /// Erases the line before the summary is printed.
    func clear() {
        guard state.withLock({ $0.shown }) else { return }
        writeToStandardError("\r\u{1B}[K")
    }
}
