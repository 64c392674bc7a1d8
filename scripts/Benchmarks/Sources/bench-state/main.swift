// bench-state: what saving session state costs on a large library, against a single-row INSERT.
//
// Usage: bench-state ALBUMS KEYS ROUNDS REPEATS DIRECTORY
//
// Makes a library of ALBUMS albums and KEYS session keys, then, ROUNDS times, measures REPEATS
// of each operation, in turn within the round so that each meets the same machine:
//   reference    a single-row INSERT, autocommit, through our SQLite layer on its own connection
//                to the same file (a cached statement; WAL, synchronous=NORMAL, as the library)
//   current      `session.setCurrentAlbum(at:)`, a different album each time (the album found
//                at the index and saved in one committed transaction)
//   by id        `session.setCurrentAlbum(id:)`, the same with the album's id (its index found)
//   tabs         `session.setTabOrder` with the order already saved (no transaction)
//   snapshot     `session.takeSnapshot(named:)` (the whole state, KEYS keys)
//   restore      `session.restoreSnapshot(named:)` after the current album and one key changed
//                (one undoable command that writes the two items)
//   sql floor    the current album's save as bare SQL on the reference connection, without
//                finding the album: BEGIN IMMEDIATE, the UPDATE of its row (whose change-log
//                trigger logs and numbers the entry), COMMIT. Not a target: the least SQL the save
//                can be; `current` minus this is the library's own work (the id at the index,
//                checking that nothing else committed, Swift).
// Prints per round the median of each and its ratio to the round's reference median; then the
// median of the round ratios with their range. Targets: current ≤ 2x, tabs < 1x.
import AlbumStore
import AlbumSQLite
import BenchStatistics
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-state: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 6, let albums = Int(arguments[1]), let keys = Int(arguments[2]), let rounds = Int(arguments[3]),
      let repeats = Int(arguments[4]), albums > 0, rounds > 0, repeats > 0, keys >= 0
else {
    FileHandle.standardError.write(Data("usage: bench-state ALBUMS KEYS ROUNDS REPEATS DIRECTORY\n".utf8))
    exit(2)
}
let path = arguments[5] + "/state.sqlite"

/// Seconds per call of `body`, `repeats` calls each timed alone.
func timings(_ body: (Int) throws -> Void) throws -> [Double] {
    try (0..<repeats).map { number in try measure { try body(number) }.1 }
}

do {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let library = try Library.open(at: URL(fileURLWithPath: path))
    FileHandle.standardError.write(Data("bench-state: making \(albums) albums and \(keys) keys...\n".utf8))
    let appended = try library.albums.append(contentsOf: (0..<albums).map {
        AlbumDraft(title: "Album Title \($0)", artist: "Artist \($0 % 5000)", genre: "Rock", year: 1950 + $0 % 75)
    })
    /// What an app might keep under a key.
    struct Entry: Codable { var n: Int; var label: String }
    for number in 0..<keys {
        try library.session.setValue(Entry(n: number, label: "value \(number)"), forKey: "key.\(number)")
    }
    let session = library.session
    let ids = Array(appended)
    try session.setTabOrder(["albums", "covers", "details", "search", "settings"])
    let reference = try Connection(path: path)
    try reference.execute("CREATE TABLE IF NOT EXISTS bench_reference (id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
    // Warm both sides: statements prepared, the order statistics' blocks read once.
    _ = try session.setCurrentAlbum(at: albums / 2)
    try reference.run("INSERT INTO bench_reference (value) VALUES (?)", "warm")

    var ratios: [String: [Double]] = [:]
    print("bench-state: \(albums) albums, \(keys) keys, \(rounds) rounds of \(repeats) calls each; medians per call")
    for round in 0..<rounds {
        let insert = try timings { try reference.run("INSERT INTO bench_reference (value) VALUES (?)", "row \($0)") }
        let current = try timings { _ = try session.setCurrentAlbum(at: ($0 * 7919 + round) % albums) }
        let byID = try timings { _ = try session.setCurrentAlbum(id: ids[($0 * 7919 + round) % ids.count]) }
        let floor = try timings { number in
            try reference.run("BEGIN IMMEDIATE")
            try reference.run(
                "UPDATE session_state SET value = ? WHERE id = 1",
                "{\"album_id\":\(ids[(number * 7919 + round) % ids.count]),\"index\":\((number * 7919 + round) % albums)}")
            try reference.run("COMMIT")
        }
        let tabs = try timings { _ in
            guard try !session.setTabOrder(["albums", "covers", "details", "search", "settings"]) else { fail("the tab order changed") }
        }
        var snapshot: [Double] = [], restore: [Double] = []
        for number in 0..<repeats {
            let name = "bench-\(round)-\(number)"
            snapshot.append(try measure { try session.takeSnapshot(named: name) }.1)
            try session.setCurrentAlbum(at: number)
            try session.setValue(number, forKey: "key.0")
            restore.append(try measure {
                guard try session.restoreSnapshot(named: name).changed.count == 2 else { fail("the restore did not change two items") }
            }.1)
            try session.deleteSnapshot(named: name)
        }
        let base = median(insert)
        var line = "  round \(round + 1): INSERT \(format(base * 1e6, 1)) µs"
        for (name, values) in [("current", current), ("by id", byID), ("sql floor", floor), ("tabs", tabs), ("snapshot", snapshot),
                               ("restore", restore)] {
            let ratio = median(values) / base
            ratios[name, default: []].append(ratio)
            line += "   \(name) \(format(median(values) * 1e6, 1)) µs (\(format(ratio))x)"
        }
        print(line)
    }
    print("ratios to the single-row INSERT, median of the rounds [range]:")
    var missed = false
    for name in ["current", "by id", "sql floor", "tabs", "snapshot", "restore"] {
        let values = ratios[name] ?? []
        let target: String
        switch name {
        case "current":
            missed = missed || median(values) > 2
            target = median(values) <= 2 ? "ok (≤ 2x)" : "MISSED (> 2x)"
        case "tabs":
            missed = missed || median(values) >= 1
            target = median(values) < 1 ? "ok (< 1x)" : "MISSED (≥ 1x)"
        default: target = "(reported)"
        }
        print("  \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(format(median(values)))x  "
              + "[\(format(values.min() ?? 0))–\(format(values.max() ?? 0))]  \(target)")
    }
    if missed { exit(3) }
} catch {
    fail("\(error)")
}
