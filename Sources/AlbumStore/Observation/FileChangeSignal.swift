import Dispatch
import FoundationEssentials
#if os(Linux)
import Glibc
#endif

/// Wakes a change feed when one of its library's files is written, so that an idle feed need
/// not poll: Linux's inotify, watching the folder that holds the database.
///
/// Why the folder and not the files: it also reports the write-ahead log being created and the
/// database being deleted or replaced by a rename, which a watch on a file misses once the file
/// is unlinked. Only events for the database's own files (its name, and that name followed by
/// `-wal`, `-journal`, `-shm`) count, so a busy folder does not keep the feed awake.
///
/// An event may come before the commit it belongs to is visible (the log's frames are written
/// before its index is updated): a woken feed looks a millisecond later, then every
/// `PollSchedule.active` for a second, so no commit waits for the next event. Elsewhere than
/// Linux, or when inotify cannot be set up (each feed takes one of the user's inotify instances,
/// 128 by default), `watching(databaseAt:)` gives `nil` and the feed polls.
///
/// Every write to a file of a watched folder costs the writing process, in the kernel, an event
/// queued or merged (about a microsecond a write here): nothing for a commit, but a bulk insert
/// writes its pages millions of times. So a feed can stop listening for writes while a long
/// write is under way (`listenForWrites(_:)`).
final class FileChangeSignal: Sendable {
    private let inotify: Int32
    /// The folder watched, as the path given to inotify.
    private let folder: String
    /// A pipe whose write end wakes a wait at once: how a cancelled task stops waiting.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let name: [UInt8]
    /// Where waits block: a serial queue of its own, which Dispatch backs with a thread that may
    /// block (an overcommitting one), so a feed idle for hours holds none of the threads of the
    /// global queues that the library's async reads run on.
    private let waiter = DispatchQueue(label: "AlbumStore.FileChangeSignal")

    private init(inotify: Int32, folder: String, wakeRead: Int32, wakeWrite: Int32, name: [UInt8]) {
        self.inotify = inotify
        self.folder = folder
        self.wakeRead = wakeRead
        self.wakeWrite = wakeWrite
        self.name = name
    }

    deinit {
        close(inotify)
        close(wakeRead)
        close(wakeWrite)
    }

    /// A signal for the database file at the absolute path `path`; `nil` when it cannot be had.
    static func watching(databaseAt path: String) -> FileChangeSignal? {
        #if os(Linux)
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        var pipeEnds: [Int32] = [0, 0]
        guard inotify_add_watch(inotify, folder, events(withWrites: true)) >= 0, pipe(&pipeEnds) == 0 else {
            close(inotify)
            return nil
        }
        // (pipe2 is not in Glibc's Swift module.) Non-blocking: a second wake-up never blocks.
        for end in pipeEnds {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        return FileChangeSignal(inotify: inotify, folder: folder, wakeRead: pipeEnds[0], wakeWrite: pipeEnds[1],
                                name: Array(url.lastPathComponent.utf8))
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// The events watched: the files being created, deleted or renamed, and the folder itself,
    /// with or without writes to the files and changes to their attributes. Without both, a write
    /// costs what it does in an unwatched folder: the kernel watches a folder's files for any
    /// event of theirs it is asked for (IN_ATTRIB alone still costs a third of what IN_MODIFY does).
    private static func events(withWrites: Bool) -> UInt32 {
        let names = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF
        return UInt32(withWrites ? names | IN_MODIFY | IN_ATTRIB : names)
    }
    #endif

    /// Starts or stops waking for writes to the library's files (it wakes for them at first).
    /// Deleting, replacing or creating one wakes a wait either way.
    func listenForWrites(_ listening: Bool) {
        #if os(Linux)
        // Watching the same folder again replaces the events watched. Should the folder be gone,
        // this fails, and the wait has been woken by its deletion already.
        _ = inotify_add_watch(inotify, folder, Self.events(withWrites: listening))
        #endif
    }

    /// Waits until a file of the database changes, `timeout` passes, or the task is cancelled.
    /// Returns whether it was woken before the timeout.
    ///
    /// The wait blocks a thread of its own queue, not one of Swift's few cooperative threads.
    func wait(upTo timeout: Duration) async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.async { continuation.resume(returning: self.blockingWait(upTo: timeout)) }
            }
        } onCancel: {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    private func blockingWait(upTo timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = deadline - .now
            guard left > .zero else { return false }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            // An error: the caller looks at the file now, and waits again after its interval.
            if ready < 0 { return true }
            if ready == 0 { return false }
            if fds[1].revents != 0 { return true }
            if readEvents() { return true }
        }
    }

    /// Reads the pending events; returns whether one concerns the database's files (or the
    /// folder itself, or events were lost).
    private func readEvents() -> Bool {
        #if os(Linux)
        var concerned = false
        // Room for many events; the kernel never splits one across reads.
        var buffer = [UInt8](repeating: 0, count: 8192)
        let header = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return concerned }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + header <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                    // No name: the folder itself (deleted, moved) or IN_Q_OVERFLOW (events lost).
                    if nameBytes.isEmpty || nameBytes.starts(with: name) { concerned = true }
                    offset += header + length
                }
            }
        }
        #else
        return true
        #endif
    }
}
