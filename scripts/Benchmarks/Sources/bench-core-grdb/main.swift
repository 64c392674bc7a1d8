// Contender "GRDB": the same loops through GRDB.swift 7.10.0 as its documentation shows them:
// a cached statement executed with arguments for the insert, a Row cursor read by column index
// for the scan, inside DatabaseQueue.write / read.
import BenchCoreSupport
import GRDB

let arguments = BenchArguments.parse()
do {
    // `.wal` sets journal_mode=WAL and synchronous=NORMAL, the benchmark's pragmas.
    var configuration = Configuration()
    configuration.journalMode = .wal
    let dbQueue = try DatabaseQueue(path: arguments.path, configuration: configuration)
    switch arguments.mode {
    case .insert:
        let rows = makeAlbumRows(count: arguments.rows)
        try dbQueue.write { db in try db.execute(sql: BenchSQL.schema) }
        // The rows live until the clock has stopped: their deallocation is not timed.
        let (measurement, _) = try withExtendedLifetime(rows) {
            try measure {
                try dbQueue.write { db in
                    let statement = try db.cachedStatement(sql: BenchSQL.insert)
                    for row in rows {
                        try statement.execute(arguments: [row.title, row.artist, row.genre, row.year, row.coverURL])
                    }
                }
            }
        }
        let count = try dbQueue.read { db in try Int.fetchOne(db, sql: BenchSQL.count) } ?? 0
        guard count == arguments.rows else { fail("inserted \(count) rows, expected \(arguments.rows)") }
        note("grdb: inserted \(count) rows")
        report(measurement)
    case .read:
        let (measurement, result) = try measure {
            try dbQueue.read { db in
                let statement = try db.cachedStatement(sql: BenchSQL.select)
                let cursor = try Row.fetchCursor(statement)
                var rows = 0
                var checksum: UInt64 = 0
                while let row = try cursor.next() {
                    let album = Album(
                        id: row[0], title: row[1], artist: row[2],
                        genre: row[3], year: row[4], coverURL: row[5]
                    )
                    checksum &+= albumChecksum(
                        id: album.id, title: album.title, artist: album.artist,
                        genre: album.genre, year: album.year, coverURL: album.coverURL
                    )
                    rows += 1
                }
                return (rows: rows, checksum: checksum)
            }
        }
        guard result.rows == arguments.rows else { fail("read \(result.rows) rows, expected \(arguments.rows)") }
        note("grdb: read \(result.rows) rows checksum=\(result.checksum)")
        report(measurement)
    }
} catch {
    fail("grdb: \(error)")
}
