import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// Every wait of the library ends: for the writer another thread holds, for a reader when all
/// are busy, and for an `async` read whose task is cancelled.
struct BoundedWaitTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func library(busyTimeout: Duration = .milliseconds(300)) throws -> Library {
        let library = try Library.open(at: directory.file("library.sqlite"), configuration: .init(busyTimeout: busyTimeout))
        for draft in AlbumDraft.classics { try library.albums.append(draft) }
        return library
    }

    /// Runs `hold` on another thread until it calls the closure it is given, and returns a
    /// function that lets it go on; call it at least once.
    func holding(_ hold: @escaping @Sendable (_ inside: () -> Void) throws -> Void) throws -> @Sendable () -> Void {
        let inside = DispatchSemaphore(value: 0)
        let mayGoOn = DispatchSemaphore(value: 0)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? hold {
                inside.signal()
                mayGoOn.wait()
            }
            returned.signal()
        }
        try #require(inside.wait(timeout: .now() + 10) == .success)
        let released = Box(false)
        return {
            guard released.value == false else { return }
            released.value = true
            mayGoOn.signal()
            _ = returned.wait(timeout: .now() + 10)
        }
    }

    @Test func aCommandWaitingForAnotherThreadsWriteGivesUpWithBusyAfterTheBusyTimeout() throws {
        let library = try library()
        let release = try holding { inside in try library.perform { _ in inside(); return ((), "held") } }
        defer { release() }

        let start = ContinuousClock.now
        let error = try withDeadline(seconds: 2) { () -> StorageError? in
            do {
                _ = try library.session.setCurrentAlbum(at: 0)
                return nil
            } catch let error as StorageError {
                return error
            }
        }
        let waited = start.duration(to: .now)
        let busy = try #require(error ?? nil)
        #expect(busy.reason == .busy)
        #expect(busy.description.hasSuffix("another thread of this process is holding the writer; gave up after 300 ms"))
        #expect(waited >= .milliseconds(250))
    }

    @Test func aProgressCallbackWaitingForAnotherThreadsWriteMakesThatWriteFailInsteadOfHanging() throws {
        let library = try library()
        let csv = "title,artist\n" + (0..<5000).map { "Title \($0),Artist\n" }.joined()
        let otherWrite = Box<Result<Album, any Error>>()
        let summary = try withDeadline(seconds: 3) {
            try library.importAlbums(from: .data(Data(csv.utf8), name: "big.csv"), options: ImportOptions(progress: { _ in
                guard otherWrite.value == nil else { return }
                // The import holds the writer while it reports progress.
                let done = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    otherWrite.value = Result { try library.albums.append(.sample("written meanwhile")) }
                    done.signal()
                }
                done.wait()
            }))
        }
        #expect(summary?.inserted == 5000)
        let result = try #require(otherWrite.value)
        #expect(throws: StorageError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error as StorageError) = result { #expect(error.reason == .busy) }
        #expect(try library.albums.count() == 5005)
    }

    @Test func aReadWaitingForABusyReaderPoolGivesUpWithBusyAfterTheBusyTimeout() throws {
        let library = try library()
        // Four reads that hold their readers while their callbacks wait: every reader is busy.
        var releases: [@Sendable () -> Void] = []
        defer { releases.forEach { $0() } }
        for _ in 0..<4 {
            releases.append(try holding { inside in
                var waited = false
                try library.albums.forEach(matching: .all) { _, _ in
                    if !waited { waited = true; inside() }
                }
            })
        }

        let error = try withDeadline(seconds: 2) { () -> StorageError? in
            do {
                _ = try library.albums.album(at: 0)
                return nil
            } catch let error as StorageError {
                return error
            }
        }
        let busy = try #require(error ?? nil)
        #expect(busy.reason == .busy)
        #expect(busy.description.hasSuffix("all 4 reader connections are busy with other reads; gave up after 300 ms"))
        releases.forEach { $0() }
        #expect(try library.albums.album(at: 0).title == "Best of Bowie")
    }

    @Test func cancellingAnAsyncQueryStopsItsStatementAndThrowsCancellationError() async throws {
        let library = try library(busyTimeout: .seconds(5))
        // Each title takes the pattern tens of milliseconds; the whole query, longer than its time limit.
        _ = try library.albums.append(contentsOf: Array(repeating: AlbumDraft.sample(String(repeating: "a", count: 1000)), count: 300))
        let query = try AlbumQuery(parsing: "title::.{0,100}c")
        // Run as the async `albums(matching:)` runs it, off the cooperative threads, with a sign
        // that it has begun there: a statement running when the task is cancelled, or started
        // after, must stop.
        let (begun, sign) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await library.offCooperativeThreads {
                sign.yield()
                return try library.albums.albums(matching: query)
            }
        }
        let started = try await withAsyncDeadline { await begun.first { _ in true } != nil }
        try #require(started == true)
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        // Tens of milliseconds alone; the bound leaves room for a machine busy with other tests,
        // and a statement left running would take the query's whole time limit.
        #expect(cancelled.duration(to: .now) < .seconds(2))
        #expect(throws: CancellationError.self) { try result.get() }
    }
}

extension BoundedWaitTests {
    @Test func aBusyErrorNamesAnotherLibraryOfThisProcessWhenThereIsOne() throws {
        let holder = try library()
        let other = try Library.open(at: directory.file("library.sqlite"), configuration: .init(busyTimeout: .milliseconds(200)))
        let release = try holding { inside in try holder.perform { _ in inside(); return ((), "held") } }
        defer { release() }

        let error = try withDeadline(seconds: 3) { () -> StorageError? in
            do {
                _ = try other.albums.append(.sample("waits"))
                return nil
            } catch let error as StorageError {
                return error
            }
        }
        let busy = try #require(error ?? nil)
        #expect(busy.reason == .busy)
        #expect(busy.description == "another Library in this process, or another process, is writing to \(other.path); gave up after 200 ms")
    }
}
