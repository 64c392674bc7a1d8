import FoundationEssentials
import Synchronization

/// Tells the albums of each album folder (a disc folder's is the one above it) as soon as its
/// files have all been read, grouped by `TrackGrouping`'s rules. Holds the readings of the
/// folders being read only.
final class FoundAlbumReporter: Sendable {
    private struct State {
        /// Of each album folder being read, its files' indexes and how many are still unread.
        var folders: [RawPath: (files: [Int], unread: Int)] = [:]
        var readings: [Int: ParallelTagReading.Outcome] = [:]
    }

    private let files: [FolderWalk.AudioFile]
    private let albumFolders: [RawPath]
    private let images: [RawPath: [RawPath]]
    private let report: @Sendable (FoundAlbum) -> Void
    private let state: Mutex<State>

    init(files: [FolderWalk.AudioFile], images: [RawPath: [RawPath]], report: @escaping @Sendable (FoundAlbum) -> Void) {
        self.files = files
        self.images = images
        self.report = report
        albumFolders = files.map { TrackGrouping.albumFolder(of: $0.path).folder }
        var state = State()
        for (index, folder) in albumFolders.enumerated() {
            state.folders[folder, default: ([], 0)].files.append(index)
            state.folders[folder]!.unread += 1
        }
        self.state = Mutex(state)
    }

    /// Notes that file `index` was read; tells its folder's albums when it was the last.
    func read(_ index: Int, _ outcome: ParallelTagReading.Outcome) {
        let folder = albumFolders[index]
        let complete = state.withLock { state -> [ScannedFile]? in
            state.readings[index] = outcome
            state.folders[folder]!.unread -= 1
            guard state.folders[folder]!.unread == 0 else { return nil }
            let members = state.folders.removeValue(forKey: folder)!.files
            return members.compactMap { index in
                guard case let .read(tags, picture, _)? = state.readings.removeValue(forKey: index) else { return nil }
                return ScannedFile(
                    path: files[index].path, stamp: files[index].stamp, tags: tags, pictureHash: picture, albumID: nil,
                    isFresh: true)
            }
        }
        guard let complete, !complete.isEmpty else { return }
        for group in TrackGrouping.group(complete, images: images) {
            report(FoundAlbum(
                title: group.title, artist: group.artist, year: group.year, trackCount: group.trackCount,
                folder: group.folder.display, cover: cover(group.cover, files: complete)))
        }
    }

    private func cover(_ cover: AlbumGroup.Cover?, files: [ScannedFile]) -> Data? {
        switch cover {
        case .embedded(_, let file)?:
            try? TrackTags.read(files[file].path, pictureLimit: CoverRepository.defaultSizeLimit).get().picture
        case .folderImage(let path)?:
            FolderImport.contents(of: path, limit: CoverRepository.defaultSizeLimit)
        case nil:
            nil
        }
    }
}
