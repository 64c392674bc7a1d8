import Foundation
import AlbumSQLite

/// The albums as an ordered list: the order the app's cover scroller shows.
///
/// Indexes are 0-based. Every change is one undoable command (`Library.undo()`). Inserting and
/// moving give the album a position key between its new neighbours (keys start `gap` apart),
/// so the list is never rewritten; when two neighbours have no key left between them, only a
/// small window around them is spread out again.
public struct AlbumRepository: Sendable {
    let library: Library

    /// The distance between the position keys of appended albums: room for 32 halvings.
    static let gap: Int64 = 1 << 32

    // MARK: Reading

    /// How many albums the library holds.
    public func count() throws -> Int {
        try library.database.read { try $0.scalar("SELECT count(*) FROM albums") ?? 0 }
    }

    /// The album with `id`, or `nil`.
    public func album(id: Album.ID) throws -> Album? {
        try library.database.read { try Self.album(id: id, in: $0) }
    }

    /// The album at `index`.
    /// - Throws: `AlbumError.indexOutOfRange` naming the valid range.
    public func album(at index: Int) throws -> Album {
        try library.withOrder { connection, order in
            try Self.check(index, in: 0..<order.count)
            return try Self.album(at: index, order: order, in: connection)
        }
    }

    /// Up to `limit` albums in list order starting at index `offset`, each with its index.
    public func page(offset: Int = 0, limit: Int = .max) throws -> [(index: Int, album: Album)] {
        precondition(offset >= 0 && limit >= 0, "offset and limit are not negative")
        let albums = offset == 0
            // The common case needs no order index: a plain scan of the position index.
            ? try library.database.read { try Self.albums(from: .min, skipping: 0, limit: limit, in: $0) }
            : try library.withOrder { connection, order in
                guard offset < order.count else { return [] }
                let (from, skip) = order.locate(offset)
                return try Self.albums(from: from, skipping: skip, limit: limit, in: connection)
            }
        return albums.enumerated().map { (offset + $0.offset, $0.element) }
    }

    /// The 0-based index of the album with `id`.
    public func index(of id: Album.ID) throws -> Int {
        try library.withOrder { connection, order in
            guard let position = try Self.position(of: id, in: connection) else { throw AlbumError.notFound(id: id) }
            return try order.index(of: position, id: id, in: connection)
        }
    }

    // MARK: Changing

    /// Adds an album at the end of the list.
    @discardableResult
    public func append(_ draft: AlbumDraft) throws -> Album {
        try library.perform { connection in
            let last = try connection.scalar("SELECT max(position) FROM albums", as: Int64.self)
            let album = try Self.insert(draft, position: last.map { $0 + Self.gap } ?? 0, in: connection)
            return (album, "add \(album.quoted)")
        }
    }

    /// Adds many albums at the end of the list as one command, e.g. an import.
    ///
    /// All are validated before anything is written; an invalid one throws `AlbumError.invalid`
    /// naming its 0-based place in `drafts`, and nothing is added. The change log gets one range
    /// entry for the new ids instead of one entry per album, so observation stays cheap.
    /// - Returns: The new albums' ids.
    @discardableResult
    public func append(contentsOf drafts: [AlbumDraft]) throws -> RowIDs {
        let valid = try drafts.enumerated().map { offset, draft in
            do { return try draft.validated() } catch AlbumError.invalid(let field, let reason) {
                throw AlbumError.invalid(field: "album \(offset): \(field)", reason: reason)
            }
        }
        let externalIDs = valid.compactMap(\.externalID)
        try Self.checkUnique(externalIDs)
        return try library.performAppend { connection in
            for externalID in externalIDs {
                try Self.checkExternalID(externalID, except: nil, in: connection)
            }
            var position = try connection.scalar("SELECT max(position) FROM albums", as: Int64.self).map { $0 + Self.gap } ?? 0
            let now = Date().millisecondsSince1970
            let ids = try ChangeLog.bulk("insert", "albums", in: connection) {
                var ids = RowIDs()
                // Many rows a statement: each statement on a table with triggers pays for a
                // statement journal and the trigger program, whether the trigger acts or not.
                for start in stride(from: 0, to: valid.count, by: Self.rowsPerInsert) {
                    let batch = valid[start..<min(start + Self.rowsPerInsert, valid.count)]
                    let insert = try connection.cachedStatement(Self.insertSQL(rows: batch.count))
                    for (offset, draft) in batch.enumerated() {
                        try Self.bind(draft, position: position, now: now, to: insert, row: offset)
                        position += Self.gap
                    }
                    try insert.run()
                    // New rowids count up from the largest one, one statement at a time.
                    let last = connection.lastInsertRowID
                    ids.insert((last - Int64(batch.count) + 1)...last)
                }
                return ids
            }
            return (ids, "add \(valid.count) albums")
        }
    }

    /// Inserts an album at `index` (0...count); the albums from there on move one place down.
    @discardableResult
    public func insert(_ draft: AlbumDraft, at index: Int) throws -> Album {
        try library.perform { connection in
            let order = try library.orderIndex(connection)
            try Self.check(index, in: 0..<(order.count + 1))
            let position = try Self.position(forInsertAt: index, order: order, in: connection)
            let album = try Self.insert(draft, position: position, in: connection)
            return (album, "insert \(album.quoted) at #\(index)")
        }
    }

    /// Moves an album so that it ends up at `index` (0..<count); the albums in between shift by one.
    @discardableResult
    public func move(id: Album.ID, to index: Int) throws -> Album {
        try library.perform { connection in
            let order = try library.orderIndex(connection)
            guard let album = try Self.album(id: id, in: connection),
                  let position = try Self.position(of: id, in: connection) else { throw AlbumError.notFound(id: id) }
            try Self.check(index, in: 0..<order.count)
            let current = try order.index(of: position, id: id, in: connection)
            if current == index { return (album, "") }
            // Between the neighbours it will have once it has left its current place.
            let target = try Self.position(forInsertAt: index > current ? index + 1 : index, order: order, in: connection)
            try connection.run("UPDATE albums SET position = ? WHERE id = ?", target, id)
            return (album, "move \(album.quoted) from #\(current) to #\(index)")
        }
    }

    /// Deletes the album with `id` and returns it.
    @discardableResult
    public func delete(id: Album.ID) throws -> Album {
        try library.perform { connection in
            guard let album = try Self.album(id: id, in: connection) else { throw AlbumError.notFound(id: id) }
            try connection.run("DELETE FROM albums WHERE id = ?", id)
            return (album, "delete \(album.quoted)")
        }
    }

    /// Deletes the album at `index` and returns it.
    @discardableResult
    public func delete(at index: Int) throws -> Album {
        try library.perform { connection in
            let order = try library.orderIndex(connection)
            try Self.check(index, in: 0..<order.count)
            let album = try Self.album(at: index, order: order, in: connection)
            try connection.run("DELETE FROM albums WHERE id = ?", album.id)
            return (album, "delete \(album.quoted)")
        }
    }

    /// Changes an album's fields: `change` edits a draft of them, which is validated and saved.
    /// An edit that changes nothing records nothing.
    @discardableResult
    public func update(id: Album.ID, _ change: (inout AlbumDraft) throws -> Void) throws -> Album {
        try library.perform { connection in
            guard let album = try Self.album(id: id, in: connection) else { throw AlbumError.notFound(id: id) }
            var draft = album.draft
            try change(&draft)
            let valid = try draft.validated()
            if valid == album.draft { return (album, "") }
            try Self.checkExternalID(valid.externalID, except: id, in: connection)
            try connection.run("""
                UPDATE albums SET title = ?, artist = ?, genre = ?, year = ?, cover_url = ?, external_id = ?,
                    updated_at = max(?, created_at) WHERE id = ?
                """, valid.title, valid.artist, valid.genre, valid.year, valid.coverURL, valid.externalID,
                Date().millisecondsSince1970, id)
            let updated = try Self.album(id: id, in: connection)!
            return (updated, "edit \(updated.quoted)")
        }
    }

    // MARK: SQL

    static func album(id: Album.ID, in connection: Connection) throws -> Album? {
        try connection.first("SELECT \(Album.columns) FROM albums WHERE id = ?", id) { try Album(row: $0) }
    }

    private static func position(of id: Album.ID, in connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT position FROM albums WHERE id = ?", id)
    }

    private static func insert(_ draft: AlbumDraft, position: Int64, in connection: Connection) throws -> Album {
        let valid = try draft.validated()
        try checkExternalID(valid.externalID, except: nil, in: connection)
        let now = Date().millisecondsSince1970
        let insert = try connection.cachedStatement(insertSQL(rows: 1))
        try bind(valid, position: position, now: now, to: insert, row: 0)
        try insert.run()
        return Album(id: connection.lastInsertRowID, title: valid.title, artist: valid.artist, genre: valid.genre,
                     year: valid.year, coverURL: valid.coverURL, externalID: valid.externalID,
                     createdAt: Date(millisecondsSince1970: now), updatedAt: Date(millisecondsSince1970: now))
    }

    static let rowsPerInsert = 64

    private static func insertSQL(rows: Int) -> String {
        "INSERT INTO albums (position, title, artist, genre, year, cover_url, external_id, created_at, updated_at) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// Binds one album to the parameters of row `row` of an insert.
    private static func bind(_ draft: AlbumDraft, position: Int64, now: Int64, to statement: Statement, row: Int) throws {
        let base = Int32(row * 9)
        try statement.bind(position, at: base + 1)
        try statement.bind(draft.title, at: base + 2)
        try statement.bind(draft.artist, at: base + 3)
        try statement.bind(draft.genre, at: base + 4)
        try statement.bind(draft.year, at: base + 5)
        try statement.bind(draft.coverURL, at: base + 6)
        try statement.bind(draft.externalID, at: base + 7)
        try statement.bind(now, at: base + 8)
        try statement.bind(now, at: base + 9)
    }

    /// Refuses a batch that gives one external id to two albums.
    private static func checkUnique(_ externalIDs: [String]) throws {
        var seen = Set<String>()
        for externalID in externalIDs where !seen.insert(externalID).inserted {
            throw AlbumError.invalid(field: "external id", reason: "\(externalID) is given to more than one album")
        }
    }

    private static func checkExternalID(_ externalID: String?, except id: Album.ID?, in connection: Connection) throws {
        guard let externalID else { return }
        if let existing = try connection.scalar(
            "SELECT id FROM albums WHERE external_id = ? AND id IS NOT ?", externalID, id, as: Int64.self) {
            throw AlbumError.duplicateExternalID(externalID, existing: existing)
        }
    }

    private static func check(_ index: Int, in valid: Range<Int>) throws {
        guard valid.contains(index) else {
            throw AlbumError.indexOutOfRange(index: index, valid: valid.isEmpty ? nil : valid.lowerBound...(valid.upperBound - 1))
        }
    }

    /// The ids and position keys of up to `limit` albums from `index` on, read from the position
    /// index alone (it holds the rowid too), so skipping into a block touches no table row.
    private static func keys(from index: Int, limit: Int, order: OrderIndex, in connection: Connection) throws
        -> [(id: Album.ID, position: Int64)] {
        let (from, offset) = order.locate(index)
        return try connection.query(
            "SELECT id, position FROM albums WHERE position >= ? ORDER BY position, id LIMIT ? OFFSET ?",
            from, limit, offset
        ) { (id: try $0[0], position: try $0[1]) }
    }

    private static func album(at index: Int, order: OrderIndex, in connection: Connection) throws -> Album {
        let id = try keys(from: index, limit: 1, order: order, in: connection)[0].id
        return try album(id: id, in: connection)!
    }

    /// Up to `limit` albums in list order, from position key `from` on, after skipping `skip`.
    private static func albums(from: Int64, skipping skip: Int, limit: Int, in connection: Connection) throws -> [Album] {
        try connection.query(
            "SELECT \(Album.columns) FROM albums WHERE position >= ? ORDER BY position, id LIMIT ? OFFSET ?",
            from, limit, skip
        ) { try Album(row: $0) }
    }

    /// A position key for a new album at `index`, between the keys of its future neighbours.
    private static func position(forInsertAt index: Int, order: OrderIndex, in connection: Connection) throws -> Int64 {
        let count = order.count
        if count == 0 { return 0 }
        if index == 0 { return try connection.scalar("SELECT min(position) FROM albums", as: Int64.self)! - gap }
        if index == count { return try connection.scalar("SELECT max(position) FROM albums", as: Int64.self)! + gap }
        let neighbours = try keys(from: index - 1, limit: 2, order: order, in: connection).map(\.position)
        if neighbours[1] - neighbours[0] >= 2 { return neighbours[0] + (neighbours[1] - neighbours[0]) / 2 }
        return try spread(around: index, count: count, order: order, in: connection)
    }

    /// Gives the albums around `index` evenly spaced keys, leaving a free key for index `index`,
    /// and returns it. The window doubles until its outer neighbours leave enough room.
    private static func spread(around index: Int, count: Int, order: OrderIndex, in connection: Connection) throws -> Int64 {
        var reach = 16
        while true {
            let lower = max(0, index - reach), upper = min(count, index + reach)
            // The window's rows plus one outer neighbour on each side, where there is one.
            let first = max(0, lower - 1), last = min(count, upper + 1)
            let rows = try keys(from: first, limit: last - first, order: order, in: connection)
            let window = rows[(lower - first)..<(upper - first)]
            let floor = lower > 0 ? rows.first!.position : window.first!.position - gap * Int64(reach)
            let ceiling = upper < count ? rows.last!.position : window.last!.position + gap * Int64(reach)
            let step = (ceiling - floor) / Int64(window.count + 2)
            if step >= 2 || (lower == 0 && upper == count) {
                var key = floor
                var free = floor  // set in the loop: lower <= index < upper
                for (rank, row) in zip(lower..., window) {
                    key += step
                    if rank == index { free = key; key += step }
                    try connection.run("UPDATE albums SET position = ? WHERE id = ?", key, row.id)
                }
                return free
            }
            reach *= 2
        }
    }
}

extension Album {
    /// “Title” by Artist, for messages and history entries.
    public var quoted: String { "“\(title)” by \(artist)" }
}
