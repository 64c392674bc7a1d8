import Testing
@testable import AlbumStore
import TestSupport

extension ChangeStream {
    /// Reads change sets on a task of its own until `enough` holds for those read or the stream
    /// ends, for at most `seconds`: `nil` (and a failed test) when they do not come. The bound only
    /// guards against a hang: the whole suite on two busy cores (ffmpeg making music folders
    /// beside it) once took over 2 s to poll another connection's commit.
    func collect(
        within seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
        until enough: @escaping @Sendable ([ChangeSet]) -> Bool
    ) async -> [ChangeSet]? {
        let reader = Task {
            var sets: [ChangeSet] = []
            for await set in self {
                sets.append(set)
                if enough(sets) { break }
            }
            return sets
        }
        return await value(of: reader, within: seconds, sourceLocation: sourceLocation)
    }
}

extension [ChangeSet] {
    /// The ids of the albums these sets inserted, in order.
    var insertedAlbums: [Int64] { flatMap { set in set.albums.inserted.map { $0 } } }
}
