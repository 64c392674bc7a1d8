import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// How a file is opened for reading, from what the file system says: a read-write connection
/// that refuses writes where SQLite can clean up its WAL files, `immutable=1` only where no
/// one can commit meanwhile, plain read-only otherwise.
struct OpenPlanTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    typealias Facts = OpenPlan.ReadingFacts

    @Test func aWritableFileInAWritableFolderIsReadThroughAQueryOnlyConnection() {
        let plan = OpenPlan.reading("/x/l.sqlite", Facts(
            fileIsWritable: true, folderIsWritable: true, isWAL: true, walFileExists: false, anyoneMayWrite: true))
        #expect(plan == OpenPlan(filename: "/x/l.sqlite", mode: .readWrite, queryOnly: true))
    }

    @Test func aWALFileInAReadOnlyFolderWithoutAWALFileIsImmutable() {
        for fileIsWritable in [true, false] {
            let plan = OpenPlan.reading("/x/l.sqlite", Facts(
                fileIsWritable: fileIsWritable, folderIsWritable: false, isWAL: true, walFileExists: false,
                anyoneMayWrite: true))
            #expect(plan == OpenPlan(filename: "file:/x/l.sqlite?immutable=1", mode: .readOnly, queryOnly: false))
        }
    }

    @Test func aWALFileNoOneMayWriteIsImmutableEvenInAWritableFolder() {
        let plan = OpenPlan.reading("/x/l.sqlite", Facts(
            fileIsWritable: false, folderIsWritable: true, isWAL: true, walFileExists: false, anyoneMayWrite: false))
        #expect(plan.isImmutable)
    }

    @Test func aWALFileThatExistsIsUsedNeverIgnored() {
        // A writer may be at work: its -wal holds commits the main file does not have yet.
        let plan = OpenPlan.reading("/x/l.sqlite", Facts(
            fileIsWritable: false, folderIsWritable: false, isWAL: true, walFileExists: true, anyoneMayWrite: true))
        #expect(plan == OpenPlan(filename: "/x/l.sqlite", mode: .readOnly, queryOnly: false))
    }

    @Test func aFileSomeoneElseMayWriteInAWritableFolderIsPlainReadOnly() {
        let plan = OpenPlan.reading("/x/l.sqlite", Facts(
            fileIsWritable: false, folderIsWritable: true, isWAL: true, walFileExists: false, anyoneMayWrite: true))
        #expect(plan == OpenPlan(filename: "/x/l.sqlite", mode: .readOnly, queryOnly: false))
    }

    @Test func aRollbackJournalFileIsNeverImmutable() {
        let plan = OpenPlan.reading("/x/l.sqlite", Facts(
            fileIsWritable: false, folderIsWritable: false, isWAL: false, walFileExists: false, anyoneMayWrite: false))
        #expect(!plan.isImmutable)
    }

    @Test func theURIEscapesWhatSQLiteWouldReadAsURISyntax() {
        #expect(OpenPlan.immutableURI("/a b/c?d#e%f/é.sqlite")
            == "file:/a%20b/c%3Fd%23e%25f/%C3%A9.sqlite?immutable=1")
    }

    @Test func theHeaderTellsAWALLibraryFromOthers() throws {
        let url = directory.file("odd name?#%.sqlite")
        _ = try Library.open(at: url)
        #expect(OpenPlan.isWAL(url.path))
        let journal = directory.file("journal.sqlite")
        try Connection(path: journal.path, options: { var o = ConnectionOptions(); o.journalMode = .delete; return o }())
            .execute("CREATE TABLE t(x)")
        #expect(!OpenPlan.isWAL(journal.path))
        #expect(!OpenPlan.isWAL(directory.file("missing").path))
    }

    @Test func anImmutableReadCreatesNoWALFilesEvenWhileOpen() throws {
        // The plan a read-only folder gets, forced here: the tests may run as root, for whom
        // no folder is read-only. The file has an awkward name to prove the URI's escaping.
        let url = directory.file("odd name?#%.sqlite")
        do {
            let library = try Library.open(at: url)
            for draft in AlbumDraft.classics { try library.albums.append(draft) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["odd name?#%.sqlite"])
        let plan = OpenPlan.reading(url.path, Facts(
            fileIsWritable: true, folderIsWritable: false, isWAL: OpenPlan.isWAL(url.path), walFileExists: false,
            anyoneMayWrite: true))
        #expect(plan.isImmutable)

        let database = try Database(path: plan.filename, options: plan.options(busyTimeout: .seconds(1)))
        let titles = try database.read { connection in
            try connection.query("SELECT title FROM albums ORDER BY position") { try $0[0, as: String.self] }
        }

        #expect(titles == AlbumDraft.classics.map(\.title))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["odd name?#%.sqlite"])
    }
}
