/// Pairs a walk's audio files with what is stored of them, both in path order, without a
/// dictionary of either: a scan of 100,000 files holds one copy of their tags, not two. The
/// stored entries come in path order (SQLite orders the path blobs as `RawPath` does, byte by
/// byte); for each, `advance(to:)` gives the files before it (new ones) and the file at it, if
/// any (else the stored file is gone); `rest()` gives the new files after the last.
struct PathMerge {
    private let files: [FolderWalk.AudioFile]
    private var next: Int

    init(_ files: [FolderWalk.AudioFile]) {
        self.files = files
        next = files.startIndex
    }

    mutating func advance(to path: RawPath) -> (new: ArraySlice<FolderWalk.AudioFile>, match: FolderWalk.AudioFile?) {
        let start = next
        while next < files.endIndex, files[next].path < path { next += 1 }
        let new = files[start..<next]
        guard next < files.endIndex, files[next].path == path else { return (new, nil) }
        next += 1
        return (new, files[next - 1])
    }

    mutating func rest() -> ArraySlice<FolderWalk.AudioFile> {
        defer { next = files.endIndex }
        return files[next...]
    }
}
