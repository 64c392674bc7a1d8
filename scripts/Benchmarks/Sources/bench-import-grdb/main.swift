// scripts/bench-import's contender (d): an import written the way GRDB.swift's documentation shows
// records: a `PersistableRecord` struct per album, inserted one by one (`record.insert(db)`) in
// one immediate transaction, from a CSV read by a simple Swift parser (the file read whole, fields
// split as RFC 4180 says). It writes the same end state as `albumstore import` on an empty library
// made by `albumstore init` (see bench-import-c/main.c): positions a gap of 2^32 apart after the
// last one, created_at = updated_at = now, match_key when the library has the column (fold in
// Swift with Foundation: lowercased, NFD, no nonspacing marks, white space collapsed), the
// change-log range entry and the history entry of a bulk append, with change_control.bulk set
// while the rows go in. The indexes are kept as the rows go in, as an app's code would.
//
// Usage: bench-import-grdb DB FILE.csv
import Foundation
import GRDB

struct AlbumRecord: PersistableRecord {
    static let databaseTableName = "albums"

    var position: Int64
    var title: String
    var artist: String
    var genre: String?
    var year: Int?
    var coverURL: String?
    var externalID: String?
    var createdAt: Int64
    var updatedAt: Int64
    /// Whether the library has migration 0005's column, set by the import.
    var hasMatchKey: Bool

    func encode(to container: inout PersistenceContainer) {
        container["position"] = position
        container["title"] = title
        container["artist"] = artist
        container["genre"] = genre
        container["year"] = year
        container["cover_url"] = coverURL
        container["external_id"] = externalID
        container["created_at"] = createdAt
        container["updated_at"] = updatedAt
        if hasMatchKey { container["match_key"] = matchKey(artist: artist, title: title) }
    }
}

/// AlbumStore's match key: FNV-1a 64 over fold(artist) + 0x1F + fold(title), as an Int64.
func matchKey(artist: String, title: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    for byte in fold(artist).utf8 { add(byte) }
    add(0x1F)
    for byte in fold(title).utf8 { add(byte) }
    return Int64(bitPattern: hash)
}

/// Lowercase, NFD, nonspacing marks dropped, white space runs as one space, trimmed.
func fold(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var space = false
    for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
        if scalar.properties.generalCategory == .nonspacingMark { continue }
        if scalar.properties.isWhitespace { space = true; continue }
        if space && !scalars.isEmpty { scalars.append(" ") }
        space = false
        scalars.append(scalar)
    }
    return String(scalars)
}

/// The records of a CSV file (RFC 4180: quoted fields, doubled quotes, CR LF or LF), each a list
/// of fields; `nil` for an empty cell.
func csvRecords(_ bytes: [UInt8]) -> [[String?]] {
    var records: [[String?]] = []
    var record: [String?] = []
    var field: [UInt8] = []
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var quoted = false
    func endField() {
        record.append(field.isEmpty ? nil : String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
    }
    func endRecord() {
        endField()
        if record.count > 1 || record[0] != nil { records.append(record) }
        record = []
    }
    while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if quoted {
            if byte == UInt8(ascii: "\"") {
                if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                    field.append(byte)
                    index += 1
                } else {
                    quoted = false
                }
            } else {
                field.append(byte)
            }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): quoted = true
        case UInt8(ascii: ","): endField()
        case UInt8(ascii: "\r"): break
        case UInt8(ascii: "\n"): endRecord()
        default: field.append(byte)
        }
    }
    if !field.isEmpty || !record.isEmpty { endRecord() }
    return records
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-import-grdb: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: bench-import-grdb DB FILE.csv") }
do {
    guard let data = FileManager.default.contents(atPath: arguments[2]) else { fail("cannot read \(arguments[2])") }
    var records = csvRecords([UInt8](data))
    guard !records.isEmpty else { fail("\(arguments[2]) has no header") }
    let header = records.removeFirst().map { $0 ?? "" }
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }
    guard let title = column("title"), let artist = column("artist") else { fail("no title or artist column") }
    let genre = column("genre"), year = column("year"), coverURL = column("cover_url"), externalID = column("external_id")

    var configuration = Configuration()
    configuration.journalMode = .wal  // and synchronous=NORMAL, as AlbumStore's connections
    let dbQueue = try DatabaseQueue(path: arguments[1], configuration: configuration)
    let count = records.count
    try dbQueue.inTransaction(.immediate) { db in
        let hasMatchKey = try Bool.fetchOne(
            db, sql: "SELECT count(*) FROM pragma_table_info('albums') WHERE name = 'match_key'") ?? false
        let last = try Int64.fetchOne(db, sql: "SELECT max(position) FROM albums")
        var position = last.map { $0 + (1 << 32) } ?? 0
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        try db.execute(sql: "UPDATE change_control SET bulk = 1")
        var firstID: Int64?
        for (offset, fields) in records.enumerated() {
            guard fields.count == header.count else { fail("record \(offset + 1): \(fields.count) fields, the header has \(header.count)") }
            guard let albumTitle = fields[title], let albumArtist = fields[artist] else { fail("record \(offset + 1): no title or artist") }
            let record = AlbumRecord(
                position: position, title: albumTitle, artist: albumArtist,
                genre: genre.flatMap { fields[$0] }, year: year.flatMap { fields[$0] }.flatMap { Int($0) },
                coverURL: coverURL.flatMap { fields[$0] }, externalID: externalID.flatMap { fields[$0] },
                createdAt: now, updatedAt: now, hasMatchKey: hasMatchKey)
            try record.insert(db)
            if firstID == nil { firstID = db.lastInsertedRowID }
            position += 1 << 32
        }
        try db.execute(sql: "UPDATE change_control SET bulk = 0")
        if let firstID {
            let lastID = db.lastInsertedRowID
            try db.execute(sql: """
                INSERT INTO change_log (tx, table_name, operation, row_id, last_row_id, at)
                VALUES ((coalesce((SELECT tx FROM change_log ORDER BY seq DESC LIMIT 1), 0) + 1), 'albums', 'insert', ?, ?, ?)
                """, arguments: [firstID, lastID, now])
            try db.execute(sql: "INSERT INTO history (description, changeset, appended_ids, created_at) VALUES (?, x'', ?, ?)",
                           arguments: ["add \(count) albums", "\(firstID)-\(lastID)", now])
        }
        return .commit
    }
    FileHandle.standardError.write(Data("bench-import-grdb: inserted \(count) albums\n".utf8))
} catch {
    fail("\(error)")
}
