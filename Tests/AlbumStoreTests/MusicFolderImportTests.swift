import Foundation
import Synchronization
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// `Library.importFolder` on real audio files made by ffmpeg and tagged by mutagen
/// (`MusicTree`): grouping, covers, bad files, rescans, the user's edits, undo.
struct MusicFolderImportTests {
    let directory: TemporaryDirectory
    let tree: MusicTree
    let library: Library

    init() throws {
        directory = try TemporaryDirectory()
        tree = try MusicTree()
        library = try Library.open(at: directory.file("library.sqlite"))
    }

    private func albums() throws -> [Album] { try library.albums.page().map(\.album) }

    private func album(titled title: String, by artist: String? = nil) throws -> Album {
        let found = try albums().filter { $0.title == title && (artist == nil || $0.artist == artist) }
        try #require(found.count == 1, "\(found.count) albums titled \(title)")
        return found[0]
    }

    @Test func theCasesTreeGivesTheExpectedAlbums() throws {
        let summary = try library.importFolder(tree.root.path)
        for expected in tree.expected.albums {
            let album = try album(titled: expected.title, by: expected.artist)
            let scanned = try #require(summary.albums.first { $0.id == album.id })
            #expect(album.year == expected.year, "\(expected.title)")
            #expect(album.genre == expected.genre, "\(expected.title)")
            #expect(scanned.trackCount == expected.tracks, "\(expected.title)")
            #expect(scanned.discCount == expected.discs, "\(expected.title)")
            #expect(album.externalID == expected.musicbrainz_release_id, "\(expected.title)")
            #expect(try library.covers.info(albumID: album.id)?.sha256 == expected.cover_sha256, "\(expected.title)")
        }
        // The untagged folder is one more album, named after its folder.
        #expect(try albums().count == tree.expected.albums.count + 1)
        #expect(try album(titled: "Untagged Folder Album").artist == TrackGrouping.unknownArtist)
        #expect(summary.untaggedFiles == tree.expected.untagged.count)
        #expect(try library.historyEntries().count == 1)
    }

    @Test func everyBadFileIsNamedAndTheScanGoesOn() throws {
        let summary = try library.importFolder(tree.root.path)
        for rejected in tree.expected.rejected {
            let problem = summary.problems.first { $0.path == tree.path(rejected.path) }
            #expect(problem?.isSkipped == true, "\(rejected.path) (\(rejected.why)) is not named: \(summary.problems)")
        }
        for untagged in tree.expected.untagged {
            #expect(summary.problems.contains { $0.path == tree.path(untagged) && !$0.isSkipped })
        }
        #expect(summary.skipped == tree.expected.rejected.count)
    }

    @Test func aNameThatIsNotUTF8IsKeptAsItsBytesAndShownEscaped() throws {
        _ = try library.importFolder(tree.root.path)
        let name = try #require(tree.expected.non_utf8_paths.first)
        let bytes = Array(tree.root.path.utf8) + [UInt8(ascii: "/")] + stride(from: 0, to: name.hex.count, by: 2).map { offset in
            let start = name.hex.index(name.hex.startIndex, offsetBy: offset)
            return UInt8(name.hex[start..<name.hex.index(start, offsetBy: 2)], radix: 16)!
        }
        let connection = try Connection(path: directory.file("library.sqlite").path)
        #expect(try connection.scalar("SELECT count(*) FROM folder_files WHERE path = ?", bytes, as: Int.self) == 1)
        #expect(RawPath(bytes).display.contains("\\xFF\\xFE-latin1-\\xE9.mp3"))
        #expect(try album(titled: "Non UTF8 Names").artist == "Byte Namer")
    }

    @Test func aRescanOfAnUnchangedFolderReadsNoFileAndChangesNothing() throws {
        _ = try library.importFolder(tree.root.path)
        let before = try albums()
        let changes = library.changes
        let summary = try library.importFolder(tree.root.path)
        #expect(summary.filesRead == 0)
        #expect(summary.albumsAdded == 0 && summary.albumsUpdated == 0)
        #expect(try albums() == before)
        #expect(try library.historyEntries().count == 1)
        // A write after it is the first change set the stream sees.
        try library.albums.append(AlbumDraft(title: "Marker", artist: "Test"))
        var iterator = changes.makeAsyncIterator()
        let sets = iterator.drain()
        #expect(sets.count == 1)
    }

    @Test func aRetaggedAlbumIsUpdatedInPlace() throws {
        _ = try library.importFolder(tree.root.path)
        let before = try album(titled: "Mostly Rock")
        let index = try library.albums.index(of: before.id)
        let files = tree.expected.albums.first { $0.title == "Mostly Rock" }!.paths
        try tree.retag(files, ["genre": "Krautrock"])
        let summary = try library.importFolder(tree.root.path)
        #expect(summary.filesRead == files.count)
        #expect(summary.albumsUpdated == 1 && summary.albumsAdded == 0)
        let after = try album(titled: "Mostly Rock")
        #expect(after.id == before.id)
        #expect(try library.albums.index(of: after.id) == index)
        #expect(after.genre == "Krautrock")
    }

    @Test func anEditByTheUserWinsOverAnUnchangedTag() throws {
        _ = try library.importFolder(tree.root.path)
        let album = try album(titled: "Mostly Rock")
        try library.albums.update(id: album.id) { $0.genre = "Shoegaze" }
        let files = tree.expected.albums.first { $0.title == "Mostly Rock" }!.paths
        try tree.retag(files, ["date": "1971"])
        _ = try library.importFolder(tree.root.path)
        let after = try #require(try library.albums.album(id: album.id))
        #expect(after.genre == "Shoegaze")
        #expect(after.year == 1971)
    }

    @Test func aCoverTheUserSetIsNeverReplaced() throws {
        _ = try library.importFolder(tree.root.path)
        let album = try album(titled: "Format FLAC")
        let png = try Data(contentsOf: URL(fileURLWithPath: tree.path("Covers/Folder PNG Cover/folder.png")))
        let mine = try library.covers.set(albumID: album.id, data: png)
        let files = tree.expected.albums.first { $0.title == "Format FLAC" }!.paths
        try tree.retag(files, ["genre": "Changed"])
        _ = try library.importFolder(tree.root.path)
        #expect(try library.covers.info(albumID: album.id)?.sha256 == mine.sha256)
    }

    @Test func addedAndDeletedFilesAreFoundAndGoneAlbumsArePrunedUndoably() throws {
        _ = try library.importFolder(tree.root.path)
        let greatest = tree.expected.albums.filter { $0.title == "Greatest Hits" }
        // One track of the first goes; all of the second.
        try FileManager.default.removeItem(atPath: tree.path(greatest[0].paths[0]))
        for path in greatest[1].paths { try FileManager.default.removeItem(atPath: tree.path(path)) }
        let first = try album(titled: "Greatest Hits", by: greatest[0].artist)
        let gone = try album(titled: "Greatest Hits", by: greatest[1].artist)

        let report = try library.importFolder(tree.root.path)
        #expect(report.filesGone == 1 + greatest[1].paths.count)
        #expect(report.albumsGone.map(\.id) == [gone.id])
        #expect(report.albums.first { $0.id == first.id }?.trackCount == greatest[0].tracks - 1)
        #expect(try library.albums.album(id: gone.id) != nil)

        let pruned = try library.importFolder(tree.root.path, options: FolderImportOptions(prune: true))
        #expect(pruned.albumsGone.map(\.id) == [gone.id])
        #expect(try library.albums.album(id: gone.id) == nil)
        try library.undo()
        #expect(try library.albums.album(id: gone.id) == gone)
    }

    @Test func undoOfAScanRemovesItsAlbumsAndARescanAfterItAddsThemAgain() throws {
        try library.albums.append(AlbumDraft(title: "Homogenic", artist: "Björk"))
        let before = try albums()
        _ = try library.importFolder(tree.root.path)
        try library.undo()
        #expect(try albums() == before)
        try library.redo()
        let redone = try albums()
        #expect(redone.count == before.count + tree.expected.albums.count + 1)
        // The undo forgot the files (they are a cache, not undone): the rescan reads them again
        // and finds the redone albums by their folders.
        let rescan = try library.importFolder(tree.root.path)
        #expect(rescan.albumsAdded == 0 && rescan.albumsUnchanged == tree.expected.albums.count + 1)
        #expect(try albums() == redone)
        #expect(try library.importFolder(tree.root.path).filesRead == 0)
        try library.undo()
        let again = try library.importFolder(tree.root.path)
        #expect(again.albumsAdded == tree.expected.albums.count + 1)
    }

    @Test func aDryRunChangesNothing() throws {
        let summary = try library.importFolder(tree.root.path, options: FolderImportOptions(dryRun: true))
        #expect(summary.albumsAdded == tree.expected.albums.count + 1)
        #expect(summary.albums.allSatisfy { $0.id == nil && !$0.grouping.isEmpty })
        #expect(try albums().isEmpty)
        #expect(try library.historyEntries().isEmpty)
    }

    @Test func aCancelledScanImportsNothing() throws {
        let options = FolderImportOptions(isCancelled: { true })
        #expect(throws: CancellationError.self) { try library.importFolder(tree.root.path, options: options) }
        #expect(try albums().isEmpty)
    }

    @Test func newAlbumsGoWhereTheIndexSays() throws {
        for title in ["First", "Last"] { try library.albums.append(AlbumDraft(title: title, artist: "Marker")) }
        _ = try library.importFolder(tree.root.path, options: FolderImportOptions(index: 1))
        let titles = try albums().map(\.title)
        #expect(titles.first == "First" && titles.last == "Last")
    }

    @Test func aFolderThatVanishesDuringTheScanIsNamedAndTheScanGoesOn() throws {
        let vanishing = tree.path("Formats/FLAC")
        let files = try FileManager.default.contentsOfDirectory(atPath: vanishing).filter { $0.hasSuffix(".flac") }
        // The files are found, then their folder goes before they are read.
        let options = FolderImportOptions(progress: { progress in
            if progress.filesRead == 0 { try? FileManager.default.removeItem(atPath: vanishing) }
        })
        let summary = try library.importFolder(tree.root.path, options: options)
        for file in files {
            #expect(summary.problems.contains { $0.path == "\(vanishing)/\(file)" && $0.isSkipped })
        }
        #expect(summary.albumsAdded == tree.expected.albums.count)
        #expect(try albums().contains { $0.title == "Format FLAC" } == false)
    }

    @Test func eachAlbumIsFoundWithItsCoverAsItsFolderIsReadBeforeTheImportCommits() throws {
        let found = Mutex<[(album: FoundAlbum, albumsThen: Int)]>([])
        let library = library
        let options = FolderImportOptions(albumFound: { album in
            let albumsThen = (try? library.albums.count()) ?? -1
            found.withLock { $0.append((album, albumsThen)) }
        })
        _ = try library.importFolder(tree.root.path, options: options)
        let reports = found.withLock { $0 }
        #expect(!reports.isEmpty && reports.allSatisfy { $0.albumsThen == 0 })
        for expected in tree.expected.albums {
            let folders = Set(expected.paths.map { TrackGrouping.albumFolder(of: RawPath(tree.path($0))).folder })
            guard folders.count == 1 else { continue }
            let match = reports.first { $0.album.title == expected.title && $0.album.artist == expected.artist }?.album
            #expect(match?.trackCount == expected.tracks, "\(expected.title)")
            #expect(match?.year == expected.year, "\(expected.title)")
            let coverHash = try match?.cover.map { try CoverScan(.data($0, name: "found"), limit: .max).hash.hex }
            #expect(coverHash == expected.cover_sha256, "\(expected.title)")
        }
    }

    @Test func aScanStoppedWhileWritingRollsBack() throws {
        try library.albums.append(AlbumDraft(title: "Homogenic", artist: "Björk"))
        let before = try albums()
        // Stopped once every file is read: no read asks again, the write asks first.
        let everyFileRead = Atomic(false)
        let options = FolderImportOptions(
            progress: { if $0.filesRead == $0.filesToRead { everyFileRead.store(true, ordering: .relaxed) } },
            isCancelled: { everyFileRead.load(ordering: .relaxed) })
        #expect(throws: CancellationError.self) { try library.importFolder(tree.root.path, options: options) }
        let wasRead = everyFileRead.load(ordering: .relaxed)
        #expect(wasRead)
        #expect(try albums() == before)
        #expect(try library.historyEntries().count == 1)
    }

    @Test func newFilesOfAnAlbumJoinItAndANewFolderIsANewAlbum() throws {
        _ = try library.importFolder(tree.root.path)
        let album = try album(titled: "Mostly Rock")
        let source = tree.expected.albums.first { $0.title == "Mostly Rock" }!.paths[0]
        let copy = (source as NSString).deletingLastPathComponent + "/99 Bonus.mp3"
        try FileManager.default.copyItem(atPath: tree.path(source), toPath: tree.path(copy))
        try FileManager.default.createDirectory(atPath: tree.path("New Arrival"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: tree.path(source), toPath: tree.path("New Arrival/01.mp3"))
        try tree.retag(["New Arrival/01.mp3"], ["album": "New Arrival", "albumartist": "Someone New"])
        let summary = try library.importFolder(tree.root.path)
        #expect(summary.filesRead == 2)
        #expect(summary.albumsAdded == 1)
        #expect(summary.albums.first { $0.id == album.id }?.trackCount == 5)
        #expect(try albums().last?.title == "New Arrival")
    }

    @Test func everyAlbumHasTheLengthOfItsTracks() throws {
        let summary = try library.importFolder(tree.root.path)
        for album in summary.albums {
            // About a second a track: each format's length is read.
            #expect(album.durationMS >= Int64(album.trackCount) * 900, "\(album.title): \(album.durationMS) ms")
            #expect(album.durationMS <= Int64(album.trackCount) * 1100, "\(album.title): \(album.durationMS) ms")
        }
        let flac = try album(titled: "Format FLAC")
        #expect(try library.albums.folder(of: flac.id)?.trackCount == 3)
    }

    @Test func aPathThatIsNotAFolderIsRefused() throws {
        #expect(throws: ImportError.self) { try library.importFolder(directory.file("missing").path) }
        #expect(throws: ImportError.self) { try library.importFolder("") }
    }
}
