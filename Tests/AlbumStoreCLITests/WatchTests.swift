import AlbumStore
import Foundation
import Testing

/// `albumstore watch`: changes committed by other processes, as they happen.
struct WatchTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    private func startWatch(_ arguments: String...) throws -> BackgroundProcess {
        let watch = try BackgroundProcess(binary: store.cli.binary, arguments: ["watch"] + arguments,
                                          environment: store.cli.environment, directory: store.cli.directory)
        // It prints this once it has taken its starting cursor.
        #expect(watch.wait { watch.stderrText.contains("Watching") })
        return watch
    }

    private func changeSets(_ lines: [String]) throws -> [ChangeSet] {
        try lines.map { try decodeJSON(ChangeSet.self, from: $0) }
    }

    @Test func watchPrintsAChangeAnotherProcessCommitsAndExitsZeroOnInterrupt() throws {
        try store.run("init")
        let watch = try startWatch("--format", "ndjson")

        let album = try store.add("Low", by: "David Bowie")

        #expect(watch.wait { watch.stdoutLines.count == 1 })
        let set = try #require(try changeSets(watch.stdoutLines).first)
        #expect(set.albums.inserted == RowIDs([album.id]))
        #expect(set.cursor > 0)
        #expect(watch.interrupt() == 0)
    }

    /// Each `add` is the last connection to close: had `watch` dropped its own locks (a
    /// descriptor of the database closed outside SQLite), the first would delete the WAL under
    /// it and `watch` would see nothing more.
    @Test func watchPrintsEveryChangeOfProcessesThatComeAndGo() throws {
        try store.run("init")
        let watch = try startWatch("--format", "ndjson")

        var added: [Int64] = []
        for title in ["Low", "Heroes", "Lodger"] {
            added.append(try store.add(title, by: "David Bowie").id)
            #expect(watch.wait { watch.stdoutLines.count == added.count }, "watch saw \(watch.stdoutLines.count) of \(added.count)")
        }

        #expect(try changeSets(watch.stdoutLines).map(\.albums.inserted) == added.map { RowIDs([$0]) })
        #expect(try store.titles() == ["Low", "Heroes", "Lodger"])
        #expect(watch.interrupt() == 0)
    }

    @Test func aChangeFeedInThisProcessSeesACommitOfASpawnedProcess() async throws {
        let library = try Library.open(at: URL(fileURLWithPath: store.db))
        var feed = library.changeFeed().makeAsyncIterator()
        #expect(try feed.backlog().isEmpty)

        let album = try store.add("Low", by: "David Bowie")   // another process

        let set = try await feed.next()
        #expect(set?.albums.inserted == RowIDs([album.id]))
    }

    @Test func watchExitsZeroWhenItsReaderGoesAway() throws {
        try store.run("init")
        let watch = try startWatch()
        watch.closeStdout()

        try store.add("Low", by: "David Bowie")

        #expect(watch.exitStatus() == 0)
    }

    @Test func anIdleWatchExitsWithinASecondOnceItsReaderHasGone() throws {
        try store.run("init")
        let watch = try startWatch()

        let closed = ContinuousClock.now
        watch.closeStdout()   // `albumstore watch | true`: nothing is ever written

        #expect(watch.exitStatus(timeout: .seconds(2)) == 0)
        #expect(ContinuousClock.now - closed < .seconds(2))
    }

    @Test func deletingTheLibraryEndsWatchWithExitOneSayingSo() throws {
        try store.run("init")
        let watch = try startWatch()

        try FileManager.default.removeItem(atPath: store.db)

        #expect(watch.exitStatus(timeout: .seconds(5)) == 1)
        #expect(watch.stderrText.hasSuffix("albumstore: \(store.db) was deleted\n"))
    }

    @Test func replacingTheLibraryEndsWatchWithExitOneSayingSo() throws {
        try store.run("init")
        let other = store.cli.path("other.sqlite")
        try store.run("init", "--db", other)
        let watch = try startWatch()

        #expect(rename(other, store.db) == 0)   // `mv other.sqlite library.sqlite`

        #expect(watch.exitStatus(timeout: .seconds(5)) == 1)
        #expect(watch.stderrText.hasSuffix("albumstore: \(store.db) was replaced by another file\n"))
    }

    @Test func aCursorAheadOfTheLogIsAnErrorNotAnEndlessWait() throws {
        try store.add("Low")

        let result = try store.run("watch", "--since", "1000")

        expectRefused(result, saying: "cursor 1000 is ahead of the log, whose newest is 1")
    }

    @Test func sinceMinusNPrintsTheLastNChangeSets() throws {
        let albums = try store.add(titles: ["one", "two", "three"])

        let result = try store.run("watch", "--since", "-2", "--once", "--format", "ndjson")

        #expect(result.status == 0)
        let sets = try changeSets(result.stdout.split(separator: "\n").map(String.init))
        #expect(sets.map { Array($0.albums.inserted) } == [[albums[1].id], [albums[2].id]])
    }

    /// The cost of idling over a span of time: here the waits are the behaviour under test.
    @Test(.tags(.slow), .disabledInQuickSuite, .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "reads /proc"))
    func anIdleWatchCostsAlmostNoCPU() throws {
        try store.run("init")
        let watch = try startWatch()
        Thread.sleep(forTimeInterval: 1.5)   // past the second of frequent looks after starting
        let start = try #require(watch.cpuTime)

        Thread.sleep(forTimeInterval: 5)

        let used = try #require(watch.cpuTime) - start
        // 1% of 5 s. Measured: 0 or 1 tick of 10 ms over 10 s (it polled ~94 times a second before).
        #expect(used < .milliseconds(50), "an idle watch used \(used) of CPU in 5 s")
        #expect(watch.interrupt() == 0)
    }

    @Test func ndjsonLinesAreChangeSetsWithSnakeCaseKeysAndISODates() throws {
        let album = try store.add("Low")

        let result = try store.run("watch", "--since", "0", "--once", "--format", "ndjson")

        let line = try #require(result.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["cursor", "transaction", "date", "tables", "is_overflow"])
        #expect((object["date"] as? String)?.wholeMatch(of: printedDate) != nil)
        #expect(line.contains(#""tables":{"albums":{"deleted":[],"inserted":[\#(album.id)],"updated":[]}}"#))
    }

    @Test func theTableFormatShowsCursorTransactionAndIDs() throws {
        try store.add("Low")
        let heroes = try store.add("Heroes")
        try store.run("rm", String(heroes.id))

        let result = try store.run("watch", "--since", "0", "--once")

        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("cursor 1  tx "))
        #expect(lines[0].hasSuffix("albums: inserted 1"))
        #expect(lines[2].hasSuffix("albums: deleted \(heroes.id)"))
    }

    @Test func sinceACursorGivesExactlyTheChangeSetsAfterItOnce() throws {
        try store.add("one")
        let first = try changeSets(try store.run("watch", "--since", "0", "--once", "--format", "ndjson")
            .stdout.split(separator: "\n").map(String.init))
        let cursor = try #require(first.last?.cursor)
        let missed = try store.add(titles: ["two", "three"])

        let result = try store.run("watch", "--since", String(cursor), "--once", "--format", "ndjson")

        let sets = try changeSets(result.stdout.split(separator: "\n").map(String.init))
        #expect(sets.map { Array($0.albums.inserted) } == missed.map { [$0.id] })
        #expect(sets.first!.cursor > cursor)
    }

    @Test func onceWithNothingNewWaitsForTheNextChangeSet() throws {
        try store.run("init")
        // From cursor 0, the empty log's: the album below comes after it whenever watch looks.
        let watch = try BackgroundProcess(binary: store.cli.binary, arguments: ["watch", "--once", "--since", "0", "--format", "ndjson"],
                                          environment: store.cli.environment, directory: store.cli.directory)
        // Once it has the library open, its look at the empty log comes long before another
        // process's `add` commits: it then waits (where /proc says so).
        #expect(watch.wait { watch.hasOpen(store.db) != false })

        let album = try store.add("Low")

        // It printed the album's change set alone: nothing before it, nothing after.
        #expect(watch.exitStatus() == 0)
        #expect(try changeSets(watch.stdoutLines).map { Array($0.albums.inserted) } == [[album.id]])
    }

    @Test func anExpiredCursorIsAClearErrorToResync() throws {
        let library = try Library.open(at: URL(fileURLWithPath: store.db), configuration: .init(changeLogRetention: ChangeLogRetention(maxEntries: 2)))
        for number in 0..<6 { try library.albums.append(AlbumDraft(title: "n\(number)", artist: "A")) }
        try library.pruneChangeLog()

        let result = try store.run("watch", "--since", "1", "--once")

        #expect(result.status == 1)
        #expect(result.stderr == "albumstore: cursor expired: resync (changes after 1 were pruned; the log now starts after 4)\n")
    }
}
