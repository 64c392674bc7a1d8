import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// Calling the library from inside a closure it runs returns or throws at once: never a hang.
struct ReentrancyTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    static func libraries(_ directory: TemporaryDirectory) throws -> [Library] {
        let file = try Library.open(at: directory.file("library.sqlite"))
        let memory = try Library.inMemory()
        for library in [file, memory] {
            for draft in AlbumDraft.classics { try library.albums.append(draft) }
        }
        return [file, memory]
    }

    @Test func anEditThatReadsTheLibraryWorks() throws {
        for library in try Self.libraries(directory) {
            let updated = try withDeadline {
                try library.albums.update(id: try library.albums.album(at: 1).id) { draft in
                    draft.title = try library.albums.album(at: 0).title + " (again)"
                }
            }
            #expect(updated?.title == "Best of Bowie (again)")
        }
    }

    @Test func anEditThatRunsACommandWorks() throws {
        for library in try Self.libraries(directory) {
            let id = try library.albums.album(at: 0).id
            _ = try withDeadline {
                try library.albums.update(id: id) { draft in
                    try library.albums.append(.sample("added while editing"))
                    draft.genre = "Rock"
                }
            }
            #expect(try library.albums.album(id: id)?.genre == "Rock")
            #expect(try library.titles().last == "added while editing")
        }
    }

    @Test func aReadFromInsideAWriteWorksOnFilesAndInMemory() throws {
        for library in try Self.libraries(directory) {
            let title = try withDeadline {
                try library.perform { _ in (try library.albums.album(at: 2).title, "") }
            }
            #expect(title == "Nothing Like The Sun")
        }
    }

    @Test func aCommandFromInsideAWriteThrowsAtOnce() throws {
        for library in try Self.libraries(directory) {
            let before = try library.titles()
            let error = try withDeadline { () -> StorageError? in
                do {
                    _ = try library.perform { _ in (try library.albums.append(.sample("nested")), "") }
                    return nil
                } catch let error as StorageError {
                    return error
                }
            }
            #expect(error??.reason == .misuse)
            #expect(error??.message.contains("not reentrant") == true)
            #expect(try library.titles() == before)
        }
    }

    @Test func undoFromInsideAWriteThrowsAtOnce() throws {
        for library in try Self.libraries(directory) {
            let thrown = try withDeadline { () -> Bool in
                do { _ = try library.perform { _ in (try library.undo(), "") } } catch is StorageError { return true }
                return false
            }
            #expect(thrown == true)
        }
    }

    @Test func anObservedValueMayReadTheLibrary() async throws {
        let library = try Self.libraries(directory)[0]
        var values = library.observe { library in try await library.albums.album(at: 0).title }.makeAsyncIterator()
        #expect(try await values.next() == "Best of Bowie")
        try library.albums.insert(.sample("Front"), at: 0)
        #expect(try await values.next() == "Front")
    }
}
