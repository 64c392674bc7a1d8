import FoundationEssentials
internal import AlbumSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Library {
    /// Imports the albums of a folder of tagged audio files, recursively, as one undoable command
    /// and one change set for observers; run again on the same folder, it is a rescan.
    ///
    /// Tracks are grouped into albums by `TrackGrouping`'s rules (docs/cli.md, "Music folders").
    /// Files are read by TagLib on `options.readers` threads before the write lock is taken; a
    /// rescan reads only files whose size, times or inode changed, and updates albums in place
    /// (same id, same place). A field the user edited since the last scan keeps the user's value;
    /// a cover the user set is never replaced. Broken files, unreadable folders and symbolic link
    /// loops are named in `FolderImportSummary.problems` and do not stop the scan.
    ///
    /// - Parameters:
    ///   - folder: The music folder's path.
    ///   - options: A dry run, pruning of albums whose files are gone, where new albums go, ...
    /// - Returns: What was done; for a dry run, what would have been (the library is unchanged).
    /// - Throws: `ImportError.unreadable` when `folder` is not a readable folder; `CancellationError`
    ///   when `options.isCancelled` said so; `StorageError`. Nothing changes then.
    public func importFolder(_ folder: String, options: FolderImportOptions = FolderImportOptions()) throws -> FolderImportSummary {
        try refuseIfReadOnly()
        try refuseInOpenTransaction("an import is a transaction of its own")
        let root = try Self.musicFolder(folder)
        let isCancelled: @Sendable () -> Bool = { options.isCancelled?() == true }
        let walk = try FolderWalk(root: root, isCancelled: isCancelled)
        let toRead = try read { connection in
            var toRead: [FolderWalk.AudioFile] = []
            var merge = PathMerge(walk.audioFiles)
            try FolderFileStore(connection: connection).forEachStamp(under: root) { stored in
                let (new, match) = merge.advance(to: stored.path)
                toRead += new
                if let match, match.stamp != stored.stamp { toRead.append(match) }
            }
            return toRead + merge.rest()
        }
        let started = ContinuousClock.now
        let filesFound = walk.audioFiles.count, filesToRead = toRead.count
        @Sendable func report(_ done: Int) {
            let elapsed = (ContinuousClock.now - started) / .milliseconds(1) / 1000
            options.progress?(FolderScanProgress(
                filesFound: filesFound, filesToRead: filesToRead, filesRead: done, elapsed: elapsed))
        }
        report(0)
        let found = options.albumFound.map { FoundAlbumReporter(files: toRead, images: walk.images, report: $0) }
        let outcomes = try ParallelTagReading.read(
            toRead, readers: options.readers, isCancelled: isCancelled, progress: { report($0) },
            fileRead: found?.read)
        let readings = TagReadings(files: toRead, outcomes: outcomes)

        var start = FolderImportSummary(folder: folder, dryRun: options.dryRun)
        start.filesFound = walk.audioFiles.count
        start.problems = walk.problems
        do {
            let summary = try perform { command in
                openTransaction.begin(command)
                defer { openTransaction.end() }
                var scan = FolderImport(
                    library: self, store: FolderFileStore(connection: command.connection), root: root,
                    options: options, summary: start)
                try scan.run(walk: walk, readings: readings)
                if options.dryRun { throw RollingBack(result: scan.summary) }
                return (scan.summary, scan.historyDescription)
            }
            try FolderImport.writeRejects(summary, to: options.rejectsPath)
            return summary
        } catch let rollback as RollingBack<FolderImportSummary> {
            try FolderImport.writeRejects(rollback.result, to: options.rejectsPath)
            return rollback.result
        }
    }

    /// The folder's real path (links and `..` resolved), so that a rescan finds its files under
    /// the same bytes however the folder is named.
    private static func musicFolder(_ folder: String) throws -> RawPath {
        guard !folder.isEmpty, let resolved = realpath(folder, nil) else {
            let reason = folder.isEmpty ? "no folder given" : errno == ENOENT ? "no such folder" : FileStatus.describe(errno)
            throw ImportError.unreadable(file: folder, line: 0, reason: reason)
        }
        defer { free(resolved) }
        let path = RawPath(Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved))))
        guard case .directory = FileStatus(path: folder) else {
            throw ImportError.unreadable(file: folder, line: 0, reason: "is not a folder")
        }
        return path
    }
}

/// One folder import's work inside its write transaction: files reconciled with what the last
/// scan stored, tracks grouped, albums added or updated in place, covers and files recorded.
struct FolderImport {
    let library: Library
    let store: FolderFileStore
    let root: RawPath
    let options: FolderImportOptions
    var summary: FolderImportSummary
    /// The folder's audio files, as read now or stored by the last scan.
    private var files: [ScannedFile] = []

    init(library: Library, store: FolderFileStore, root: RawPath, options: FolderImportOptions, summary: FolderImportSummary) {
        self.library = library
        self.store = store
        self.root = root
        self.options = options
        self.summary = summary
    }

    var historyDescription: String {
        var parts = ["\(summary.albumsAdded) added"]
        if summary.albumsUpdated > 0 { parts.append("\(summary.albumsUpdated) updated") }
        if summary.pruned && !summary.albumsGone.isEmpty { parts.append("\(summary.albumsGone.count) pruned") }
        return "import folder \(root.displayName): " + parts.joined(separator: ", ")
    }

    mutating func run(walk: FolderWalk, readings: TagReadings) throws {
        var files: [ScannedFile] = []
        files.reserveCapacity(walk.audioFiles.count)
        var problems: [FolderProblem] = []
        var gone: [RawPath] = []
        var filesRead = 0
        func take(_ file: FolderWalk.AudioFile, stored: ScannedFile?) {
            // Read before the lock, or now if another scan changed what is stored meanwhile.
            let outcome = readings[file.path] ?? (stored?.stamp == file.stamp ? nil : ParallelTagReading.readOne(file.path))
            switch outcome {
            case nil:
                files.append(stored!)
            case .failed(let reason)?:
                problems.append(FolderProblem(path: file.path.display, reason: reason, isSkipped: true))
            case let .read(tags, picture, pictureProblem)?:
                if let pictureProblem {
                    problems.append(FolderProblem(path: file.path.display, reason: pictureProblem, isSkipped: false))
                }
                files.append(ScannedFile(
                    path: file.path, stamp: file.stamp, tags: tags, pictureHash: picture, albumID: stored?.albumID,
                    isFresh: true))
                filesRead += 1
            }
        }
        var merge = PathMerge(walk.audioFiles)
        try store.forEachFile(under: root) { stored in
            let (new, match) = merge.advance(to: stored.path)
            for file in new { take(file, stored: nil) }
            if let match { take(match, stored: stored) } else { gone.append(stored.path) }
        }
        for file in merge.rest() { take(file, stored: nil) }
        summary.filesRead = filesRead
        for file in files where file.tags.isUntagged {
            problems.append(FolderProblem(
                path: file.path.display, reason: "no tags: imported under its folder's name", isSkipped: false))
        }
        summary.untaggedFiles = files.filter(\.tags.isUntagged).count
        summary.problems = (summary.problems + problems).sorted { $0.path < $1.path }

        // Files known before and not found now are gone, unless their folder could not be read.
        for path in gone where !walk.unreadFolders.contains(where: { path.isInside($0) }) {
            try store.forget(path)
            summary.filesGone += 1
        }

        self.files = files
        let groups = TrackGrouping.group(files, images: walk.images)
        let existing = try existingAlbums(for: groups)
        var nextIndex = options.index
        for (group, album) in zip(groups, existing) {
            if options.isCancelled?() == true { throw CancellationError() }
            let albumID = try album?.id ?? addAlbum(group, at: &nextIndex)
            if let album { try updateAlbum(album, to: group) }
            for index in group.files where files[index].isFresh || files[index].albumID != albumID {
                try store.save(files[index], albumID: albumID)
            }
        }

        for albumID in try store.albumsWithoutFiles(under: root) {
            guard let album = try library.albums.album(id: albumID) else { continue }
            summary.albumsGone.append(.init(id: albumID, title: album.title, artist: album.artist))
            if options.prune { _ = try library.albums.delete(id: albumID) }
        }
        summary.pruned = options.prune
    }

    /// The album each group already is: the one most of its tracks belonged to, else one with its
    /// MusicBrainz release id as external id, else one a scan made from the same folder with the
    /// same title and artist (a redone import, whose files the undo forgot); `nil` for a new
    /// album. No album serves two groups.
    private func existingAlbums(for groups: [AlbumGroup]) throws -> [Album?] {
        var claimed: Set<Int64> = []
        var madeHere: [ScannedAlbumKey: Int64]?
        var albums: [Album?] = []
        for group in groups {
            var album: Album?
            var candidates = group.files.compactMap { files[$0].albumID }.filter { !claimed.contains($0) }
            while album == nil, let best = TrackGrouping.mostCommon(candidates) {
                album = try library.albums.album(id: best)
                candidates.removeAll { $0 == best }
            }
            if album == nil, let release = group.musicBrainzReleaseID,
               let owner = try AlbumRepository.owner(ofExternalID: release, in: store.connection),
               !claimed.contains(owner) {
                album = try library.albums.album(id: owner)
            }
            if album == nil {
                if madeHere == nil { madeHere = try store.albumsMade(under: root) }
                let key = ScannedAlbumKey(folder: group.folder, title: group.title, artist: group.artist)
                if let made = madeHere?[key], !claimed.contains(made) { album = try library.albums.album(id: made) }
            }
            if let album { claimed.insert(album.id) }
            albums.append(album)
        }
        return albums
    }

    /// Adds a group as a new album (at `index`, which then moves past it) and returns its id.
    private mutating func addAlbum(_ group: AlbumGroup, at index: inout Int?) throws -> Int64 {
        let externalID = try isFreeExternalID(group.musicBrainzReleaseID) ? group.musicBrainzReleaseID : nil
        let draft = AlbumDraft(title: group.title, artist: group.artist, genre: group.genre, year: group.year, externalID: externalID)
        let album: Album
        if let position = index {
            album = try library.albums.insert(draft, at: min(position, try library.albums.count()))
            index = position + 1
        } else {
            album = try library.albums.append(draft)
        }
        let cover = try setCover(group.cover, albumID: album.id, replacing: nil)
        try store.save(record(of: group, externalID: externalID, cover: cover), albumID: album.id)
        summary.albumsAdded += 1
        summary.albums.append(scanned(group, id: album.id, change: .added))
        return album.id
    }

    /// Brings an album up to date with its group: each field that still holds what the last scan
    /// gave it takes the tags' value now; one the user edited keeps the edit. An album no scan
    /// made before (found by its release id) only has its empty fields filled.
    private mutating func updateAlbum(_ album: Album, to group: AlbumGroup) throws {
        let albumID = album.id
        let last = try store.album(albumID)
        let release = try isFreeExternalID(group.musicBrainzReleaseID, except: albumID) ? group.musicBrainzReleaseID : nil
        var draft = album.draft
        if let last {
            func merged<T: Equatable>(_ current: T, _ scanned: T, _ new: T) -> T { current == scanned ? new : current }
            draft.title = merged(album.title, last.title ?? album.title, group.title)
            draft.artist = merged(album.artist, last.artist ?? album.artist, group.artist)
            draft.genre = merged(album.genre, last.genre, group.genre)
            draft.year = merged(album.year, last.year, group.year)
            draft.externalID = merged(album.externalID, last.externalID, release ?? album.externalID)
        } else {
            draft.genre = album.genre ?? group.genre
            draft.year = album.year ?? group.year
            draft.externalID = album.externalID ?? release
        }
        let fieldsChanged = draft != album.draft
        if fieldsChanged { _ = try library.albums.update(id: albumID) { $0 = draft } }

        // The cover: replaced only while it is the one the last scan set (or there is none).
        let current = try CoverImageStore(connection: store.connection).hash(albumID: albumID)
        var cover = last?.cover
        if current == nil || current == last?.cover {
            cover = try setCover(group.cover, albumID: albumID, replacing: current)
        }
        let record = record(of: group, externalID: release, cover: cover)
        let changed = fieldsChanged || record != last
        if record != last { try store.save(record, albumID: albumID) }
        summary.albums.append(scanned(group, id: albumID, change: changed ? .updated : .unchanged))
        if changed { summary.albumsUpdated += 1 } else { summary.albumsUnchanged += 1 }
    }

    /// Whether no album other than `albumID` has `externalID`.
    private func isFreeExternalID(_ externalID: String?, except albumID: Int64? = nil) throws -> Bool {
        guard let externalID else { return false }
        return try AlbumRepository.owner(ofExternalID: externalID, except: albumID, in: store.connection) == nil
    }

    /// Points the album at its group's cover (storing the image if new) and returns its hash;
    /// removes a cover the last scan set that the files no longer have. An embedded picture is
    /// read again from its file, which must still hash the same.
    private mutating func setCover(_ cover: AlbumGroup.Cover?, albumID: Int64, replacing current: ContentHash?) throws -> ContentHash? {
        let images = CoverImageStore(connection: store.connection)
        guard let cover else {
            if current != nil { try images.unlink(albumID: albumID) }
            return nil
        }
        let data: Data?
        switch cover {
        case .embedded(let hash, let file):
            if hash == current { return current }
            data = try? TrackTags.read(files[file].path, pictureLimit: CoverRepository.defaultSizeLimit).get().picture
        case .folderImage(let path):
            data = Self.contents(of: path, limit: CoverRepository.defaultSizeLimit)
        }
        guard let data, let scan = try? CoverScan(.data(data, name: "cover"), limit: CoverRepository.defaultSizeLimit) else {
            return current
        }
        if scan.hash == current { return current }
        try images.add(.data(data, name: "cover"), scan: scan)
        try images.link(albumID: albumID, to: scan.hash)
        summary.coversSet += 1
        return scan.hash
    }

    /// A small file's bytes, or `nil` when it cannot be read or is over `limit`.
    static func contents(of path: RawPath, limit: Int) -> Data? {
        guard let file = path.withCString({ fopen($0, "rb") }) else { return nil }
        defer { fclose(file) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
            if data.count > limit { return nil }
        }
        return ferror(file) == 0 ? data : nil
    }

    /// What this scan gives an album: its group's facts and values.
    private func record(of group: AlbumGroup, externalID: String?, cover: ContentHash?) -> ScannedAlbumRecord {
        ScannedAlbumRecord(
            folder: group.folder, trackCount: group.trackCount, discCount: group.discCount, durationMS: group.durationMS,
            musicBrainzReleaseID: group.musicBrainzReleaseID, musicBrainzReleaseGroupID: group.musicBrainzReleaseGroupID,
            grouping: group.grouping, title: group.title, artist: group.artist, genre: group.genre, year: group.year,
            externalID: externalID, cover: cover)
    }

    private func scanned(_ group: AlbumGroup, id: Int64, change: ScannedAlbum.Change) -> ScannedAlbum {
        let coverSource: String? = switch group.cover {
        case .embedded?: "embedded"
        case .folderImage(let path)?: "folder image \(path.displayName)"
        case nil: nil
        }
        return ScannedAlbum(
            id: options.dryRun && change == .added ? nil : id, title: group.title, artist: group.artist, year: group.year,
            genre: group.genre, trackCount: group.trackCount, discCount: group.discCount, durationMS: group.durationMS,
            musicBrainzReleaseID: group.musicBrainzReleaseID, musicBrainzReleaseGroupID: group.musicBrainzReleaseGroupID,
            folder: group.folder.display, grouping: group.grouping, coverSource: coverSource, change: change)
    }

    /// Writes every problem to a CSV file (`path`, `reason`, `skipped`), when one was asked for.
    static func writeRejects(_ summary: FolderImportSummary, to path: String?) throws {
        guard let path else { return }
        let file: OpenFile
        do { file = try OpenFile.writing(path) } catch {
            throw ImportError.unreadable(file: path, line: 0, reason: "cannot write the rejects file: \(error)")
        }
        defer { file.close() }
        let writer = CSVWriter(to: file.sink(), header: ["path", "reason", "skipped"])
        for problem in summary.problems {
            try writer.write(row: [problem.path, problem.reason, problem.isSkipped ? "true" : "false"])
        }
        try writer.finish()
    }
}
