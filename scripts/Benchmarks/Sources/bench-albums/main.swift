// bench-albums: list operations on a large library against a plain single-row INSERT.
//
// Usage: bench-albums ALBUMS RUNS DIRECTORY
// Fills a library with ALBUMS albums, then measures, RUNS times each and interleaved: insert at
// the middle, move from near the front to the middle, delete at the middle, and the undo of each.
// The reference, measured in the same run: one autocommit INSERT of one album-shaped row into a
// plain table with the same columns, indexes and rows (no triggers, no history, no order), in a
// file of its own.
import AlbumStore
import BenchStatistics
import Foundation
import AlbumSQLite

// A process of its own, like the albumstore binary: it tunes SQLite process-wide as the binary does.
Library.tuneSQLiteForThisProcess()

let arguments = CommandLine.arguments
guard arguments.count == 4, let albums = Int(arguments[1]), let runs = Int(arguments[2]), albums > 10, runs > 0 else {
    FileHandle.standardError.write(Data("usage: bench-albums ALBUMS RUNS DIRECTORY\n".utf8))
    exit(2)
}
let path = arguments[3] + "/albums.sqlite"
let referencePath = arguments[3] + "/reference.sqlite"

// MARK: Fill (not timed)

do {
    let library = try Library.open(at: URL(fileURLWithPath: path))
    _ = library
    let connection = try Connection(path: path)
    try connection.transaction {
        let insert = try connection.prepare("""
            INSERT INTO albums (position, title, artist, genre, year, cover_url, created_at, updated_at)
            VALUES (?, ?, ?, 'Rock', ?, ?, 0, 0)
            """)
        // Bulk fill through SQL with the log switched to bulk mode, as the library's own bulk path does.
        try connection.run("UPDATE change_control SET bulk = 1")
        for number in 0..<albums {
            try insert.bind(Int64(number) << 32, at: 1)
            try insert.bind("Album Title \(number)", at: 2)
            try insert.bind("Artist \(number % 5000)", at: 3)
            try insert.bind(1950 + number % 75, at: 4)
            try insert.bind("https://covers.example.com/\(number).jpg", at: 5)
            try insert.run()
        }
        try connection.run("UPDATE change_control SET bulk = 0")
    }
    // The reference lives in a file of its own: a commit on another connection to the library's
    // file would empty the library's page cache and time that instead.
    try connection.execute("""
        ATTACH '\(referencePath)' AS plain;
        CREATE TABLE plain.reference AS SELECT * FROM albums;
        CREATE INDEX plain.reference_position ON reference(position);
        CREATE UNIQUE INDEX plain.reference_external_id ON reference(external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX plain.reference_artist ON reference(artist COLLATE NOCASE, year);
        CREATE INDEX plain.reference_year ON reference(year);
        DETACH plain;
        PRAGMA wal_checkpoint(TRUNCATE);
        """)
} catch {
    FileHandle.standardError.write(Data("bench-albums: fill failed: \(error)\n".utf8))
    exit(1)
}

// MARK: Measure

var samples: [String: [Double]] = [:]

do {
    func record(_ name: String, _ body: () throws -> Void) throws {
        let (_, elapsed) = try measure(body)
        samples[name, default: []].append(elapsed)
    }
    let library = try Library.open(at: URL(fileURLWithPath: path))
    let reference = try Connection(path: referencePath)
    let insertReference = """
        INSERT INTO reference (position, title, artist, genre, year, cover_url, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    let middle = albums / 2
    let draft = AlbumDraft(title: "Benchmark Album", artist: "Benchmark Artist", genre: "Jazz", year: 1999,
                           coverURL: "https://covers.example.com/bench.jpg")
    // Warm-up, not timed, of both sides: builds the order index, caches statements and pages.
    for run in 0..<50 {
        try reference.run(insertReference, Int64(-1_000_000 - run), "Warm-up \(run)", "Artist", "Jazz", 1999,
                          "https://covers.example.com/ref.jpg", 0, 0)
        try library.albums.insert(draft, at: middle)
        try library.undo()
        try library.albums.move(id: try library.albums.album(at: 10).id, to: middle)
        try library.undo()
        try library.albums.delete(at: middle)
        try library.undo()
    }

    for run in 0..<runs {
        try record("reference: single-row INSERT") {
            try reference.run(insertReference, Int64(-1 - run), "Reference \(run)", "Artist", "Jazz", 1999,
                              "https://covers.example.com/ref.jpg", 0, 0)
        }
        try record("insert at the middle") { try library.albums.insert(draft, at: middle) }
        try record("undo") { try library.undo() }
        let mover = try library.albums.album(at: 10 + run % 100)
        try record("move to the middle") { try library.albums.move(id: mover.id, to: middle) }
        try record("undo") { try library.undo() }
        try record("delete at the middle") { try library.albums.delete(at: middle) }
        try record("undo") { try library.undo() }
    }
} catch {
    FileHandle.standardError.write(Data("bench-albums: \(error)\n".utf8))
    exit(1)
}

// MARK: Pages written (not timed)

// What each operation writes to the WAL, in frames (one a page, plus the commit's): the WAL is
// emptied by a TRUNCATE checkpoint before the operation, and a PASSIVE one after it reports how
// many frames it holds. Counted on separate connections after the timing, so it changes nothing
// timed; pages are what a port to a machine with slower or faster system calls should watch.
var frames: [String: [Int]] = [:]
do {
    let library = try Library.open(at: URL(fileURLWithPath: path))
    let reference = try Connection(path: referencePath)
    let libraryProbe = try Connection(path: path)
    let referenceProbe = try Connection(path: referencePath)
    func walFrames(_ name: String, _ probe: Connection, _ body: () throws -> Void) throws {
        try probe.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try body()
        let logged = try probe.first("PRAGMA wal_checkpoint(PASSIVE)") { try $0[1, as: Int.self] } ?? 0
        frames[name, default: []].append(logged)
    }
    let middle = albums / 2
    let draft = AlbumDraft(title: "Probe Album", artist: "Probe Artist", genre: "Jazz", year: 1999,
                           coverURL: "https://covers.example.com/probe.jpg")
    for run in 0..<20 {
        try walFrames("reference: single-row INSERT", referenceProbe) {
            try reference.run("""
                INSERT INTO reference (position, title, artist, genre, year, cover_url, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, Int64(-10_000_000 - run), "Probe \(run)", "Artist", "Jazz", 1999, "https://covers.example.com/ref.jpg", 0, 0)
        }
        try walFrames("insert at the middle", libraryProbe) { try library.albums.insert(draft, at: middle) }
        try walFrames("undo", libraryProbe) { try library.undo() }
        let mover = try library.albums.album(at: 10 + run)
        try walFrames("move to the middle", libraryProbe) { try library.albums.move(id: mover.id, to: middle) }
        try walFrames("undo", libraryProbe) { try library.undo() }
        try walFrames("delete at the middle", libraryProbe) { try library.albums.delete(at: middle) }
        try walFrames("undo", libraryProbe) { try library.undo() }
    }
} catch {
    FileHandle.standardError.write(Data("bench-albums: counting WAL frames: \(error)\n".utf8))
    exit(1)
}

// MARK: Report

let referenceName = "reference: single-row INSERT"
let referenceMedian = median(samples[referenceName]!)
print("bench-albums: \(albums) albums, \(runs) runs of each operation (undo: \(samples["undo"]!.count) runs)")
print("operation                      median µs    p90 µs   ratio to reference (median)   WAL frames (mean)")
var missed = false
for name in [referenceName, "insert at the middle", "move to the middle", "delete at the middle", "undo"] {
    let values = samples[name]!
    let ratio = median(values) / referenceMedian
    let verdict = name == referenceName ? "" : ratio <= 5 ? "  ok (≤ 5x)" : "  MISSED (> 5x)"
    if name != referenceName && ratio > 5 { missed = true }
    print(name.padding(toLength: 30, withPad: " ", startingAt: 0)
          + format(median(values) * 1e6, 1).leftPadded(10)
          + format(percentile(values, 90) * 1e6, 1).leftPadded(10)
          + ("  " + format(ratio) + "x").leftPadded(12) + verdict.padding(toLength: 18, withPad: " ", startingAt: 0)
          + format(Double(frames[name]!.reduce(0, +)) / Double(frames[name]!.count), 1).leftPadded(12))
}
exit(missed ? 3 : 0)

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
