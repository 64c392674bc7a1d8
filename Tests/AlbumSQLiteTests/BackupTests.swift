import Foundation
import AlbumSQLite
import Testing
import TestSupport

/// The online backup API: the copy must hold exactly what the source holds.
struct BackupTests {
    let directory: TemporaryDirectory
    let source: Connection

    init() throws {
        directory = try TemporaryDirectory()
        source = try directory.open("source.sqlite")
        try source.execute("""
            CREATE TABLE artists(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE albums(
                id INTEGER PRIMARY KEY, artist_id INTEGER REFERENCES artists(id),
                title TEXT, rating REAL, cover BLOB, notes TEXT);
            CREATE INDEX albums_by_title ON albums(title);
            CREATE TABLE settings(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
            CREATE VIEW rated AS SELECT title FROM albums WHERE rating IS NOT NULL;
            """)
        try source.transaction {
            for artist in 1...20 { try source.run("INSERT INTO artists(id, name) VALUES (?, ?)", artist, "Artist \(artist) ✨") }
            for album in 1...500 {
                let cover = Data((0..<(album * 7 % 3000)).map { UInt8(truncatingIfNeeded: $0 &* album) })
                try source.run(
                    "INSERT INTO albums(artist_id, title, rating, cover, notes) VALUES (?, ?, ?, ?, ?)",
                    album % 20 + 1, "Album \(album)", album % 3 == 0 ? nil : Double(album) / 7, cover,
                    album % 5 == 0 ? "" : "notes \(album)\u{0}with NUL")
            }
            try source.run("INSERT INTO settings(key, value) VALUES ('theme', 'dark'), ('size', 12)")
        }
    }

    /// The schema and every row of every table, in rowid (or primary key) order.
    private func contents(of connection: Connection) throws -> [String: [[SQLiteValue]]] {
        var result: [String: [[SQLiteValue]]] = [:]
        result["sqlite_schema"] = try connection.query("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name") { $0.values }
        let tables = try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
            try $0[0, as: String.self]
        }
        for table in tables {
            result[table] = try connection.query("SELECT * FROM \"\(table)\" ORDER BY 1") { $0.values }
        }
        return result
    }

    @Test func backupToFileEqualsTheSource() throws {
        let path = directory.path("copy.sqlite")
        try source.backup(toFile: path)
        let copy = try Connection(path: path)
        let expected = try contents(of: source)
        #expect(expected["albums"]?.count == 500)
        #expect(try contents(of: copy) == expected)
        #expect(try copy.scalar("PRAGMA integrity_check", as: String.self) == "ok")
    }

    @Test func backupInSmallStepsReportsProgressAndEqualsTheSource() throws {
        let destination = try directory.open("copy.sqlite")
        var reports: [(remaining: Int, total: Int)] = []
        try source.backup(to: destination, pagesPerStep: 8) { reports.append(($0, $1)) }
        let pageCount = try #require(try source.scalar("PRAGMA page_count", as: Int.self))
        #expect(reports.count >= pageCount / 8)
        #expect(reports.last?.remaining == 0)
        #expect(reports.allSatisfy { $0.total == pageCount })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.remaining > $1.remaining })
        #expect(try contents(of: destination) == contents(of: source))
        #expect(try destination.scalar("PRAGMA integrity_check", as: String.self) == "ok")
    }

    @Test func backupReplacesWhatTheDestinationHeld() throws {
        let path = directory.path("copy.sqlite")
        do {
            let old = try Connection(path: path)
            try old.execute("CREATE TABLE stale(x); INSERT INTO stale VALUES (1)")
        }
        try source.backup(toFile: path)
        let copy = try Connection(path: path)
        #expect(try copy.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'stale'", as: Int.self) == 0)
        #expect(try contents(of: copy) == contents(of: source))
    }

    @Test func backupIncludesCommittedWorkOnly() throws {
        try source.execute("BEGIN IMMEDIATE; INSERT INTO artists(name) VALUES ('uncommitted')")
        let reader = try directory.open("source.sqlite")
        let path = directory.path("copy.sqlite")
        try reader.backup(toFile: path)
        try source.execute("ROLLBACK")
        let copy = try Connection(path: path)
        #expect(try copy.scalar("SELECT count(*) FROM artists WHERE name = 'uncommitted'", as: Int.self) == 0)
        #expect(try contents(of: copy) == contents(of: source))
    }
}
