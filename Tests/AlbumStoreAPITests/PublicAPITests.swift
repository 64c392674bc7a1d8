// A client of the library as an app would be: it imports AlbumStore only (not @testable, not the
// SQLite layer) and uses the whole public API. It compiling proves the public API exposes no
// type of the layer below; running it proves the calls do what their names say.
import AlbumStore
import Foundation
import Synchronization
import TestSupport
import Testing

struct PublicAPITests {
    let directory: TemporaryDirectory
    var folder: URL { directory.url }

    init() throws { directory = try TemporaryDirectory() }

    /// A library opened with every option an app may give.
    func library() throws -> Library {
        try Library.open(
            at: folder.appendingPathComponent("library.sqlite"),
            configuration: .init(historyLimit: 50, changeLogRetention: ChangeLogRetention(maxEntries: 1000, maxAge: .seconds(3600))))
    }

    /// What `edit` did to the list.
    struct Edits {
        var low: Album
        var ids: RowIDs
        var edited: Album
        var removed: Album
    }

    /// Seven commands that leave "Heroes" and "Lodger" by David Bowie, in that order.
    @discardableResult
    static func edit(_ library: Library) throws -> Edits {
        let albums = library.albums
        let low = try albums.append(AlbumDraft(title: "Low", artist: "David Bowie", genre: "Rock", year: 1977,
                                               coverURL: "https://example.com/low.jpg", externalID: "discogs:1"))
        let ids = try albums.append(contentsOf: AlbumDraft.classicsForAPI)
        let front = try albums.insert(AlbumDraft(title: "Front", artist: "A"), at: 0)
        try albums.move(id: front.id, to: 3)
        let edited = try albums.update(id: low.id) { $0.genre = "Art rock" }
        try albums.delete(id: front.id)
        let removed = try albums.delete(at: 0)
        return Edits(low: low, ids: ids, edited: edited, removed: removed)
    }

    @Test func aLibraryOpensWithItsOptions() throws {
        let library = try library()
        #expect(library.schemaVersion == Library.currentSchemaVersion)
        #expect(library.path.hasSuffix("library.sqlite"))
        #expect(!Library.version.isEmpty)
        // Too late here (other tests have started SQLite): it says so instead of half-working.
        #expect(Library.tuneSQLiteForThisProcess() == false)
    }

    @Test func commandsEditTheOrderedList() throws {
        let library = try library()
        let edits = try Self.edit(library)
        #expect(edits.ids.count == 2 && !edits.ids.isEmpty && edits.ids.contains(edits.low.id + 1) && Array(edits.ids).count == 2)
        #expect(edits.edited.genre == "Art rock" && edits.edited.draft.genre == "Art rock")
        #expect(edits.edited.quoted == "“Low” by David Bowie")
        #expect(edits.removed.id == edits.low.id)
        #expect(try library.albums.page().map(\.album.title) == ["Heroes", "Lodger"])
    }

    @Test func asyncReadsGiveTheAlbums() async throws {
        let library = try library()
        let albums = library.albums
        let ids = try Self.edit(library).ids
        let lodger = try await albums.album(at: 1)
        #expect(try await albums.count() == 2)
        #expect(try await albums.album(id: ids.first { _ in true } ?? 0)?.title == "Heroes")
        #expect(try await albums.album(at: 0).title == "Heroes")
        #expect(try await albums.album(at: -1).title == "Lodger")
        #expect(try await albums.page().map(\.album.title) == ["Heroes", "Lodger"])
        #expect(try await albums.index(of: lodger.id) == 1)
        #expect(try await library.historyEntries().last?.isUndone == false)
    }

    @Test func asyncStreamingReadsHandOutEachAlbum() async throws {
        let library = try library()
        let albums = library.albums
        try Self.edit(library)
        let streamed = Mutex<[String]>([])
        try await albums.forEach(offset: 1) { index, album in streamed.withLock { $0.append("\(index):\(album.title)") } }
        #expect(streamed.withLock { $0 } == ["1:Lodger"])
    }

    @Test func changeStreamsHandOutWhatWasCommitted() async throws {
        let library = try library()
        var changes = library.changes.makeAsyncIterator()
        let small = library.changes(bufferSize: 1)
        let low = try Self.edit(library).low

        let set = await changes.next()
        #expect(set?.albums.inserted.contains(low.id) == true)
        #expect(set.map { $0.touches("albums") && !$0.isOverflow && $0.cursor > 0 && $0.transaction > 0 } == true)
        #expect(set?.tables["albums"]?.isEmpty == false && set?.date != nil)
        var overflowed = small.makeAsyncIterator()
        #expect(await overflowed.next()?.isOverflow == true)
    }

    @Test func aChangeFeedReadsTheLogFromACursor() async throws {
        let library = try library()
        var feed = library.changeFeed(since: nil, pollInterval: .milliseconds(5)).makeAsyncIterator()
        let low = try Self.edit(library).low

        let fed = try await feed.next()
        #expect(fed?.albums.inserted.contains(low.id) == true)
        #expect(try feed.backlog().count >= 0 && feed.position >= fed?.cursor ?? 0)
        var newest = library.changeFeed(since: -1).makeAsyncIterator()
        #expect(try newest.backlog().count == 1)
        var ahead = library.changeFeed(since: 1_000_000).makeAsyncIterator()
        #expect(throws: ChangeFeedError.self) { try ahead.backlog() }
        try library.pruneChangeLog()
        _ = ChangeFeed(path: library.path, since: nil, pollInterval: .milliseconds(5), busyTimeout: .seconds(1))
    }

    @Test func anObservedQueryGivesItsValue() async throws {
        let library = try library()
        try Self.edit(library)
        var observed = library.observe([.albums]) { try await $0.albums.count() }.makeAsyncIterator()
        #expect(try await observed.next() == 2)
    }

    @Test func anAppBuildsChangeSetsAndRowIDs() {
        let built = ChangeSet(cursor: 1, transaction: 1, date: Date(), tables: ["albums": TableChanges(inserted: RowIDs([1, 2, 3]))])
        #expect(built.albums.inserted.ranges == [1...3] && built.albums.updated.isEmpty && built.albums.deleted.isEmpty)
        #expect(RowIDs() == RowIDs([Int64]()))
    }

    @Test func aStorageErrorKeepsSQLitesCodeAndMessage() {
        let storage = StorageError(code: 5, message: "database is locked", path: "x")
        #expect(storage.reason == .busy && storage.description.hasPrefix("another process is writing to x"))
        #expect(storage.code == 5 && storage.detail.contains("database is locked") && storage.sql == nil)
        #expect(storage.message == "database is locked" && storage.path == "x" && storage.parent == nil)
        #expect(storage.busyTimeout == nil)
    }

    @Test(arguments: [
        (ChangeFeedError.cursorExpired(cursor: 1, oldest: 5), "cursor expired: resync (changes after 1 were pruned; the log now starts after 5)"),
        (.cursorAhead(cursor: 9, newest: 5), "cursor 9 is ahead of the log, whose newest is 5"),
        (.fileDeleted(path: "a.sqlite"), "a.sqlite was deleted"),
        (.fileReplaced(path: "a.sqlite"), "a.sqlite was replaced by another file"),
    ])
    func aChangeFeedErrorSaysWhatHappened(_ error: ChangeFeedError, _ description: String) {
        #expect(error.description == description)
    }

    @Test func forgettingHistoryDropsTheNewestCommandThenAllOfIt() async throws {
        let library = try library()
        try Self.edit(library)
        let dropped = try library.dropNewestHistoryEntry()
        #expect(try await library.historyEntries().contains(dropped) == false)
        #expect(try library.dropHistory() > 0)
        #expect(throws: HistoryError.nothingToUndo) { try library.dropNewestHistoryEntry() }
    }
}

extension PublicAPITests {
    /// The player's settings, a value an app keeps under a key of its own.
    /// An app's own settings, kept under a session key.
    struct Player: Codable, Equatable {
        var volume: Double
        var shuffle: Bool
    }

    static let player = Player(volume: 0.8, shuffle: true)

    /// A session with a current album, a default tab order and the player's settings.
    static func session(of library: Library) throws -> Session {
        try edit(library)
        let session = library.session
        _ = try session.setCurrentAlbum(at: 0)
        _ = try session.setDefaultTabOrder(["albums", "covers"])
        _ = try session.setValue(player, forKey: "player")
        return session
    }

    /// Session state, as an app keeps it between launches.
    @Test func theCurrentAlbumTabOrderAndValuesAreKept() throws {
        let library = try library()
        try Self.edit(library)
        let session = library.session
        let saved: CurrentAlbum = try session.setCurrentAlbum(at: 0)
        let byID = try session.setCurrentAlbum(id: try library.albums.album(at: -1).id)
        #expect(saved.index == 0 && byID.albumID != nil)
        let current: ResolvedCurrentAlbum? = try session.currentAlbum()
        #expect(current?.isSavedAlbum == true && current?.saved == byID)
        #expect(CurrentAlbum.clamped(-1, count: 2) == 0)
        #expect(try session.setDefaultTabOrder(["albums", "covers"]))
        #expect(try session.setTabOrder(["covers", "albums"]))
        #expect(try !session.setTabOrder(["covers", "albums"]))
        try session.resetTabOrder()
        #expect(try session.tabOrder() == ["albums", "covers"])
        #expect(throws: SessionError.self) { try session.setTabOrder(["a", "a"]) }
        #expect(try session.setValue(Self.player, forKey: "player"))
        #expect(try !session.setValue(Self.player, forKey: "player"))
        #expect(try session.value(Player.self, forKey: "player") == Self.player)
        #expect(try session.setValue(["a", "b"], forKey: "recent"))
        #expect(try session.value([String].self, forKey: "recent") == ["a", "b"])
        #expect(throws: DecodingError.self) { try session.value(Int.self, forKey: "recent") }
        #expect(try session.value(Player.self, forKey: "nothing") == nil)
    }

    /// Snapshots: taken, compared with the state, restored in part.
    @Test func aSnapshotIsTakenComparedAndRestoredInPart() throws {
        let library = try library()
        let session = try Self.session(of: library)
        let snapshot: Snapshot = try session.takeSnapshot(named: "api", at: Date())
        #expect(try session.snapshots().map(\.name).contains("api"))
        #expect(try session.snapshot(named: "api") == snapshot)
        #expect(try session.removeValue(forKey: "player"))
        try session.clearCurrentAlbum()
        let differences: [SessionDifference] = try session.differences(from: "api", to: nil)
        #expect(differences.map(\.item) == [.currentAlbum, .key("player")])
        let restore: SessionRestore = try session.restoreSnapshot(named: "api", only: Set(SessionItem.parse("player")))
        #expect(restore.changed == [.key("player")] && SessionItem.currentAlbum.rowID == 1)
        let state: SessionState = try session.state()
        #expect(state.effectiveTabOrder == ["albums", "covers"] && state.items.count == 2)
        #expect(try state.value(Player.self, forKey: "player") == Self.player && state.keyNames == ["player"])
        let difference = SessionDifference.between(state, snapshot.state)
        #expect(difference.map(\.item) == [.currentAlbum] && difference[0].beforeJSON == nil)
        #expect(differences[1].beforeJSON == #"{"shuffle":true,"volume":0.8}"# && differences[1].afterJSON == nil)
    }

    /// Snapshot files, to keep or move a session elsewhere.
    @Test func aSnapshotGoesToAFileAndComesBack() throws {
        let library = try library()
        let session = try Self.session(of: library)
        let snapshot = try session.takeSnapshot(named: "api", at: Date())
        let file = folder.appendingPathComponent("api.json")
        try session.exportSnapshot(named: "api", exportedAt: Date()).write(to: file)
        #expect(try session.importSnapshot(contentsOf: file, as: "copy").state == snapshot.state)
        let data = try session.exportSnapshot(named: "api", exportedAt: Date())
        #expect(try session.importSnapshot(from: data, source: "data", as: "third").name == "third")
        #expect(throws: SessionError.self) { try session.importSnapshot(from: Data("{".utf8), source: "x") }
        try session.deleteSnapshot(named: "copy")
    }

}

extension PublicAPITests {
    /// Importing a catalog: sources, options, the summary, rejections and errors.
    @Test func importingACatalog() throws {
        let library = try library()
        try Self.edit(library)
        let csv = Data("Album,Band,Released,Shelf\nLow,David Bowie,1977-01-14,3\nNew One,Someone,,4\n,Nobody,,\n".utf8)
        let seen = ProgressLog()
        var options = ImportOptions(
            encoding: .utf8, mapping: ["Shelf": .genre], onConflict: .update, invalidRows: .skip,
            rejectsPath: folder.appendingPathComponent("rejects.csv").path, dryRun: true,
            progress: { seen.add($0) })
        options.dryRun = false
        let summary = try library.importAlbums(from: .data(csv, name: "albums.csv"), format: .csv, options: options)
        #expect(summary.file == "albums.csv" && summary.format == .csv && summary.encoding == .utf8 && !summary.encodingWasGuessed)
        #expect(summary.rows == 3 && summary.inserted + summary.updated == 2 && summary.rejected == 1)
        #expect(summary.skippedDuplicates == 0 && summary.duplicatesWithinFile == 0 && summary.skippedNotMusicTotal == 0)
        #expect(summary.skippedNotMusic.isEmpty && summary.ignoredColumns.isEmpty && !summary.dryRun)
        let rejection = try #require(summary.rejections.first)
        #expect(rejection == ImportRejection(file: "albums.csv", line: 4, field: "title", reason: "must not be empty"))
        #expect(rejection.description == "albums.csv:4: title: must not be empty")
        #expect(ImportSummary.rejectionsKept == 20)
        #expect(seen.last?.rows == 3 && seen.last?.fraction == 1)
        #expect(ImportProgress(rows: 1, bytesRead: 5, totalBytes: nil).fraction == nil)
        #expect(ImportSource.standardInput.displayName == "-" && ImportSource.file("a.csv").displayName == "a.csv")
        let fail = ImportOptions(onConflict: .fail, invalidRows: .skip)
        #expect {
            try library.importAlbums(from: .data(csv), format: .csv, options: fail)
        } throws: { error in
            guard case ImportError.conflict(let rejection, let existing) = error else { return false }
            return rejection.line == 2 && existing != nil
        }
        try library.undo()

        #expect {
            try library.importAlbums(from: .data(csv), options: ImportOptions())
        } throws: { error in
            guard case ImportError.invalidRows(let refused) = error else { return false }
            return refused.rejected == 1 && "\(error)".contains("import refused")
        }
        #expect(throws: ImportError.self) {
            try library.importAlbums(from: .file(folder.appendingPathComponent("missing.csv").path))
        }
        #expect(ImportOptions.ConflictPolicy.allCases.count == 3 && ImportOptions.InvalidRowPolicy.allCases.count == 2)
        #expect(CatalogFormat.allCases.contains(.libraryXML) && CatalogEncoding(name: "cp1252") == .windows1252)
        #expect(CatalogFormat.detect(fileName: "a.ndjson", head: [UInt8]()) == .ndjson)
    }
}

/// Progress reports, from the import's `@Sendable` callback.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [ImportProgress] = []

    func add(_ progress: ImportProgress) { lock.withLock { reports.append(progress) } }
    var last: ImportProgress? { lock.withLock { reports.last } }
}

extension PublicAPITests {
    /// The blocking reads, undo and redo, as code outside async contexts calls them.
    @Test func blockingReadsUndoAndRedo() throws {
        let library = try library()
        let gone = try Self.edit(library).low.id
        let albums = library.albums
        #expect(try albums.count() == 2)
        #expect(try albums.album(id: gone) == nil)
        #expect(try albums.page(offset: 1, limit: 5).map(\.index) == [1])
        let lodger = try albums.album(at: 1)
        #expect(lodger.title == "Lodger")

        // Streaming reads: each album as it is read, to a closure.
        var streamed: [String] = []
        try albums.forEach(offset: 0, limit: 5) { index, album in streamed.append("\(index):\(album.title)") }
        #expect(streamed == ["0:Heroes", "1:Lodger"])
        #expect(try albums.index(of: lodger.id) == 1)

        let undone = try library.undo()
        #expect(undone.isUndone == false && undone.description.hasPrefix("delete") && undone.date <= Date())
        let redone = try library.redo()
        #expect(redone.id == undone.id)
        #expect(try library.historyEntries().count == 7)

        let info = try library.info()
        #expect(info.albumCount == 2 && info.schemaVersion == library.schemaVersion && info.fileSize > 0)
        #expect(info.path == library.path && info.sqliteVersion.hasPrefix("3.") && info.walSize >= 0)
    }

    /// The errors an app may catch.
    @Test func errorsAnAppMayCatch() throws {
        let library = try library()
        try Self.edit(library)
        #expect(throws: AlbumError.indexOutOfRange(index: 9, valid: 0...1)) { try library.albums.album(at: 9) }
        #expect(throws: AlbumError.notFound(id: 999)) { try library.albums.delete(id: 999) }
        #expect(throws: HistoryError.nothingToRedo) { try library.redo() }
        let text = folder.appendingPathComponent("not-a-library.txt")
        try Data("hello".utf8).write(to: text)
        #expect(throws: SchemaError.self) { try Library.open(at: text) }
        let memory = try Library.inMemory(configuration: .init(historyLimit: 5))
        #expect(try memory.albums.count() == 0)
    }
}

extension PublicAPITests {
    /// Access modes, checking, backing up, and the errors of each.
    @Test func accessModesCheckingAndBackingUp() throws {
        let url = folder.appendingPathComponent("access/library.sqlite")
        #expect(throws: StorageError.self) { try Library.open(at: url, configuration: .init(access: .readOnly)) }
        #expect(throws: StorageError.self) { try Library.open(at: url, configuration: .init(access: .readWrite)) }
        let created = try Library.open(at: url, configuration: .init(access: .create, busyTimeout: .milliseconds(500), historyLimit: 3, changeLogRetention: ChangeLogRetention()))
        #expect(created.access == .create && created.busyTimeout == .milliseconds(500))
        for title in ["A", "B", "C", "D"] { try created.albums.append(AlbumDraft(title: title, artist: "X")) }
        for _ in 0..<3 { try created.undo() }
        #expect(throws: HistoryError.nothingOlderToUndo(limit: 3)) { try created.undo() }

        let reader = try Library.open(at: url, configuration: .init(access: .readOnly))
        #expect(reader.access == .readOnly)
        #expect(try reader.albums.count() == 1)
        do {
            try reader.albums.append(AlbumDraft(title: "E", artist: "X"))
            Issue.record("a read-only library wrote")
        } catch let error as StorageError {
            #expect(error.reason == .readOnly && error.code == nil)
        }
        #expect(try reader.check().isEmpty)
        #expect(try Library.check(at: url, busyTimeout: .seconds(1)).isEmpty)

        let copy = folder.appendingPathComponent("access/copy.sqlite")
        try reader.backup(to: copy)
        try reader.backup(to: copy, overwrite: true)
        #expect(throws: StorageError.self) { try reader.backup(to: copy, overwrite: false) }

        let problem = LibraryProblem(.triggers, "albums_log_insert is missing")
        #expect(problem.area == .triggers && problem.message.hasSuffix("missing"))
        #expect(problem.description == "triggers: albums_log_insert is missing")
        #expect(LibraryProblem.Area.allCases.count == 7)
        let reasons: [StorageError.Reason] = [
            .notFound, .emptyFile, .isADirectory, .notARegularFile, .parentIsAFile, .permissionDenied,
            .alreadyExists, .readOnly, .busy, .corrupt, .full, .io, .constraint, .misuse, .other,
        ]
        #expect(Set(reasons).count == 15)
        #expect(SchemaError.needsUpgrade(path: "p", version: 3, current: 4).description.contains("version 3"))
    }
}

extension AlbumDraft {
    static let classicsForAPI = [
        AlbumDraft(title: "Heroes", artist: "David Bowie", year: 1977),
        AlbumDraft(title: "Lodger", artist: "David Bowie", year: 1979),
    ]
}
