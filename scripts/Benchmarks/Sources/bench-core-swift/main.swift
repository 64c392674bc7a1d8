// Contender "ours": the loops through Sources/AlbumSQLite, written with its public API as a user would
// (Connection, Statement.bind(_:at:)/step()/reset(), Statement.forEach lending each Row, Row
// subscripts decoding ColumnDecodable values), the statement passed straight in: no Database
// lock, no actor hop.
import BenchCoreSupport
import AlbumSQLite

/// The timed insert loop: bind 5 values, step, reset, for every row.
func insert(_ rows: [AlbumRow], with statement: Statement) throws(SQLiteError) {
    for row in rows {
        try statement.bind(row.title, at: 1)
        try statement.bind(row.artist, at: 2)
        try statement.bind(row.genre, at: 3)
        try statement.bind(row.year, at: 4)
        try statement.bind(row.coverURL, at: 5)
        _ = try statement.step()
        statement.reset()
    }
}

/// The timed read loop: every column of every row decoded into an `Album` (Int64 and String
/// values the caller owns, the nullable columns as optionals).
func readAll(with statement: Statement) throws -> (rows: Int, checksum: UInt64) {
    var rows = 0
    var checksum: UInt64 = 0
    try statement.forEach { row in
        let album = Album(
            id: try row[0], title: try row[1], artist: try row[2],
            genre: try row[3], year: try row[4], coverURL: try row[5]
        )
        checksum &+= albumChecksum(
            id: album.id, title: album.title, artist: album.artist,
            genre: album.genre, year: album.year, coverURL: album.coverURL
        )
        rows += 1
    }
    return (rows, checksum)
}

let arguments = BenchArguments.parse()
do {
    // The default options are the benchmark's pragmas: journal_mode=WAL, synchronous=NORMAL.
    let connection = try Connection(path: arguments.path)
    switch arguments.mode {
    case .insert:
        let rows = makeAlbumRows(count: arguments.rows)
        try connection.execute(BenchSQL.schema)
        // The rows live until the clock has stopped: their deallocation is not timed.
        let (measurement, _) = try withExtendedLifetime(rows) {
            try measure {
                try connection.transaction(.immediate) {
                    let statement = try connection.prepare(BenchSQL.insert)
                    try insert(rows, with: statement)
                }
            }
        }
        let count = try connection.scalar(BenchSQL.count, as: Int64.self) ?? 0
        guard count == arguments.rows else { fail("inserted \(count) rows, expected \(arguments.rows)") }
        note("ours: inserted \(count) rows")
        report(measurement)
    case .read:
        let (measurement, result) = try measure {
            try connection.read {
                let statement = try connection.prepare(BenchSQL.select)
                return try readAll(with: statement)
            }
        }
        guard result.rows == arguments.rows else { fail("read \(result.rows) rows, expected \(arguments.rows)") }
        note("ours: read \(result.rows) rows checksum=\(result.checksum)")
        report(measurement)
    }
} catch {
    fail("ours: \(error)")
}
