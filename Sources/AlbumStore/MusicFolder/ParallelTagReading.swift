import Dispatch
import FoundationEssentials
import Synchronization

/// Reads the tags of many audio files on a bounded number of threads.
///
/// Each file's embedded picture is hashed and checked as it is read and then let go: memory
/// holds at most one picture per reader, however many files there are. The album's cover is read
/// again from one of its files when it is stored (`FolderImport`).
enum ParallelTagReading {
    /// What reading one file gave.
    enum Outcome: Sendable {
        case read(TrackTags, picture: ContentHash?, pictureProblem: String?)
        case failed(String)
    }

    /// Reads `files` with `readers` threads; results are in the order of `files`. `fileRead` hears
    /// each file's outcome as it comes, with the file's index.
    /// - Throws: `CancellationError` once `isCancelled` says so.
    static func read(
        _ files: [FolderWalk.AudioFile], readers: Int, isCancelled: @escaping @Sendable () -> Bool,
        progress: @escaping @Sendable (Int) -> Void, fileRead: (@Sendable (Int, Outcome) -> Void)? = nil
    ) throws -> [Outcome] {
        let state = State(count: files.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(readers, files.count))) { _ in
            while !state.stopped.load(ordering: .relaxed) {
                let index = state.next.add(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                if isCancelled() {
                    state.stopped.store(true, ordering: .relaxed)
                    return
                }
                let outcome = readOne(files[index].path)
                state.results.withLock { $0[index] = outcome }
                fileRead?(index, outcome)
                let done = state.done.add(1, ordering: .relaxed).newValue
                if done % 32 == 0 || done == files.count { progress(done) }
            }
        }
        if state.stopped.load(ordering: .relaxed) { throw CancellationError() }
        return state.results.withLock { $0.map { $0 ?? .failed("was not read") } }
    }

    /// Reads one file: its tags, and whether its embedded picture can be a cover.
    static func readOne(_ path: RawPath) -> Outcome {
        switch TrackTags.read(path, pictureLimit: CoverRepository.defaultSizeLimit) {
        case .failure(let error):
            return .failed(error.reason)
        case .success(let reading):
            if let size = reading.oversizedPicture {
                return .read(reading.tags, picture: nil, pictureProblem:
                    "its embedded picture (\(megabytes(size))) is over the \(megabytes(CoverRepository.defaultSizeLimit)) cover limit: not taken")
            }
            guard let picture = reading.picture else { return .read(reading.tags, picture: nil, pictureProblem: nil) }
            do {
                let scan = try CoverScan(.data(picture, name: "embedded picture"), limit: CoverRepository.defaultSizeLimit)
                return .read(reading.tags, picture: scan.hash, pictureProblem: nil)
            } catch {
                return .read(reading.tags, picture: nil, pictureProblem: "its embedded picture cannot be a cover: \(error)")
            }
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }

    private final class State: Sendable {
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        let results: Mutex<[Outcome?]>

        init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
    }
}
