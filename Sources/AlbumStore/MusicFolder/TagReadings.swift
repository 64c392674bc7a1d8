/// The outcomes of the files a scan read before its write, found by path. An index into the
/// outcomes rather than a dictionary of them: a second copy of 100,000 files' tags would double
/// what a scan holds.
struct TagReadings: Sendable {
    private let outcomes: [ParallelTagReading.Outcome]
    private let index: [RawPath: Int]

    init(files: [FolderWalk.AudioFile], outcomes: [ParallelTagReading.Outcome]) {
        self.outcomes = outcomes
        var index: [RawPath: Int] = [:]
        index.reserveCapacity(files.count)
        for (position, file) in files.enumerated() { index[file.path] = position }
        self.index = index
    }

    subscript(path: RawPath) -> ParallelTagReading.Outcome? { index[path].map { outcomes[$0] } }
}
