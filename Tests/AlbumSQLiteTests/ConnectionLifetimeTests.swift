import CSQLite
import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// Statements, blobs, recorders and hooks keep the database handle open after the `Connection`
/// object that made them is gone, and the handle closes once the last of them goes.
struct ConnectionLifetimeTests {
    /// Collects what hooks report, shared with closures the connection keeps.
    private final class Log {
        var entries: [String] = []
    }

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.open().execute("""
            CREATE TABLE albums(id INTEGER PRIMARY KEY, title TEXT, cover BLOB);
            INSERT INTO albums VALUES (1, 'Low', x'00112233'), (2, 'Heroes', NULL);
            """)
    }

    /// Prepares `sql` on a connection that is released when this returns.
    private func statementOutlivingItsConnection(_ sql: String) throws -> Statement {
        try directory.open().prepare(sql)
    }

    @Test func aStatementStepsAfterItsConnectionIsGone() throws {
        let statement = try statementOutlivingItsConnection("SELECT title FROM albums ORDER BY id")
        #expect(try statement.map { try $0[0, as: String.self] } == ["Low", "Heroes"])
    }

    @Test func aCachedStatementWritesAfterItsConnectionIsGone() throws {
        let statement = try directory.open().cachedStatement("INSERT INTO albums(title) VALUES (?)")
        try statement.run("Lodger")
        #expect(try directory.open().scalar("SELECT count(*) FROM albums WHERE title = 'Lodger'", as: Int.self) == 1)
    }

    @Test func aBlobReadsAndWritesAfterItsConnectionIsGone() throws {
        let blob = try directory.open().openBlob(table: "albums", column: "cover", rowID: 1, writable: true)
        #expect(try blob.read(count: 4, at: 0) == Data([0x00, 0x11, 0x22, 0x33]))
        try blob.write(Data([0xFF]), at: 3)
        #expect(try blob.read(count: 4, at: 0) == Data([0x00, 0x11, 0x22, 0xFF]))
    }

    @Test func aChangeRecorderRecordsAfterItsConnectionIsGone() throws {
        let (recorder, statement) = try {
            let connection = try directory.open()
            return (try ChangeRecorder(connection: connection, tables: ["albums"]),
                    try connection.prepare("UPDATE albums SET title = 'Low (2017)' WHERE id = 1"))
        }()
        try statement.run()
        var changes: [(String, SQLiteValue?)] = []
        try recorder.changeset().forEach { change in changes.append((change.table, change.new(1))) }
        #expect(changes.count == 1)
        #expect(changes.first?.0 == "albums")
        #expect(changes.first?.1 == .text("Low (2017)"))
    }

    @Test func hooksFiredByAStatementThatOutlivedItsConnectionReachTheirClosures() throws {
        let log = Log()
        let statement = try {
            let connection = try directory.open()
            connection.onUpdate { log.entries.append("update \($0.table) \($0.rowID)") }
            connection.onCommit { log.entries.append("commit"); return true }
            connection.onRollback { log.entries.append("rollback") }
            return try connection.prepare("UPDATE albums SET title = upper(title) WHERE id = ?")
        }()
        try statement.run(2)
        #expect(log.entries == ["update albums 2", "commit"])
    }

    @Test func theDatabaseClosesWhenItsLastStatementGoes() throws {
        // Closing the last connection to a WAL database checkpoints it and deletes the -wal
        // file: whether the file exists tells whether the handle is still open.
        let wal = directory.path() + "-wal"
        var statement: Statement? = try {
            let connection = try directory.open()
            try connection.run("INSERT INTO albums(title) VALUES ('Lodger')")
            return try connection.prepare("SELECT count(*) FROM albums")
        }()
        #expect(FileManager.default.fileExists(atPath: wal))
        #expect(try statement?.first { try $0[0, as: Int.self] } == 3)
        statement = nil
        #expect(!FileManager.default.fileExists(atPath: wal))
    }

    @Test func theConnectionAndItsCacheMakeNoCycle() throws {
        let wal = directory.path() + "-wal"
        do {
            let connection = try directory.open()
            try connection.run("INSERT INTO albums(title) VALUES (?)", "Lodger")
            #expect(try connection.scalar("SELECT count(*) FROM albums", as: Int.self) == 3)
            #expect(FileManager.default.fileExists(atPath: wal))
        }
        // Cached statements hold the handle, not the Connection: dropping it closes the file.
        #expect(!FileManager.default.fileExists(atPath: wal))
    }
}
