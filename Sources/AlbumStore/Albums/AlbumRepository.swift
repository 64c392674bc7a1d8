import FoundationEssentials
internal import AlbumSQLite

/// The albums as an ordered list: the order the app's cover scroller shows.
///
/// Indexes are 0-based, and a negative index counts from the end, as in Python: -1 is the last
/// album (for `insert`, the last place of the list as it will be, so -1 appends). It is resolved
/// inside the command's transaction, so "the last album" is the last one when the command runs,
/// whatever another process did meanwhile. Every change is one undoable command (`Library.undo()`). Inserting and
/// moving give the album a position key between its new neighbours (keys start
/// `PositionKey.gap` apart), so the list is never rewritten; when two neighbours have no key
/// left between them, only a small window around them is spread out again.
///
/// Reads run on reader connections and never wait for a write under way; each has an `async`
/// twin that does not block Swift's cooperative threads. Commands check their input (fields,
/// indexes, ids) before taking the write lock, so a refused command costs no transaction.
public struct AlbumRepository: Sendable {
    let library: Library

    // MARK: Reading

    /// How many albums the library holds.
    public func count() throws -> Int { try library.readOrdered { $1.count } }
    /// How many albums the library holds.
    public func count() async throws -> Int { try await library.readOrdered { $1.count } }

    /// The album with `id`, or `nil`.
    public func album(id: Album.ID) throws -> Album? { try library.read(Self.album(id: id)) }
    /// The album with `id`, or `nil`.
    public func album(id: Album.ID) async throws -> Album? { try await library.read(Self.album(id: id)) }

    /// The album at `index` (-1 is the last).
    /// - Throws: `AlbumError.indexOutOfRange` naming the valid range.
    /// - Complexity: A few small reads of the order statistics kept in the file, whatever the
    ///   length of the list; nothing is built in memory.
    public func album(at index: Int) throws -> Album { try library.readOrdered(Self.album(at: index)) }
    /// The album at `index` (-1 is the last).
    /// - Throws: `AlbumError.indexOutOfRange` naming the valid range.
    public func album(at index: Int) async throws -> Album { try await library.readOrdered(Self.album(at: index)) }

    /// Up to `limit` albums in list order starting at index `offset`, each with its index.
    /// A negative offset or limit reads as 0.
    ///
    /// The page is built in memory: for a long list, `forEach(offset:limit:_:)` or
    /// `write(to:offset:limit:)` hand out each album as it is read instead.
    public func page(offset: Int = 0, limit: Int = .max) throws -> [(index: Int, album: Album)] {
        let query = Self.page(offset: offset, limit: limit)
        // From the start a plain scan of the position index does: no order statistics needed.
        let page = offset <= 0 ? try library.read { try query($0, nil) } : try library.readOrdered { try query($0, $1) }
        return page.map { ($0.index, $0.album) }
    }
    /// Up to `limit` albums in list order starting at index `offset`, each with its index.
    public func page(offset: Int = 0, limit: Int = .max) async throws -> [(index: Int, album: Album)] {
        let query = Self.page(offset: offset, limit: limit)
        let page = offset <= 0 ? try await library.read { try query($0, nil) }
            : try await library.readOrdered { try query($0, $1) }
        return page.map { ($0.index, $0.album) }
    }

    /// Calls `body` with each album in list order from index `offset` on, up to `limit` of them,
    /// each with its index, as it is read: nothing holds the whole list, so memory stays bounded
    /// however long it is, and the first album comes at once. A negative offset or limit reads
    /// as 0; the albums are those `page(offset:limit:)` returns.
    ///
    /// Every album comes from one read transaction on a reader connection, a consistent snapshot
    /// of committed data: what commits meanwhile is not seen, and the writer never waits. A
    /// throw from `body` ends the read and is rethrown.
    ///
    /// `body` may read the library: its reads see the same snapshot. A command from `body`
    /// throws `StorageError` (reason `.misuse`) at once: the snapshot would not see it. Collect
    /// what to change and change it afterwards, or read and change inside `Library.write(_:_:)`.
    /// A read held open (a slow `body`) keeps the write-ahead log from being checkpointed past
    /// its snapshot.
    /// - Throws: `StorageError`, or what `body` throws.
    public func forEach(offset: Int = 0, limit: Int = .max, _ body: (_ index: Int, _ album: Album) throws -> Void) throws {
        try forEachRow(offset: offset, limit: limit) { index, row in try body(index, try Album(row: row)) }
    }

    /// `forEach(offset:limit:_:)` without blocking Swift's cooperative threads: the read and the
    /// calls of `body` run on a thread of their own.
    public func forEach(
        offset: Int = 0, limit: Int = .max, _ body: @escaping @Sendable (_ index: Int, _ album: Album) throws -> Void
    ) async throws {
        try await library.offCooperativeThreads { try self.forEach(offset: offset, limit: limit, body) }
    }

    /// Lends `body` each row of the albums query (`Album.columns`), in list order from `offset`
    /// on, up to `limit`, with its index; one read transaction.
    func forEachRow(offset: Int, limit: Int, _ body: (Int, borrowing Row) throws -> Void) throws {
        let offset = max(0, offset), limit = max(0, limit)
        guard limit > 0 else { return }
        // From the start a plain scan of the position index does: no order statistics needed.
        if offset == 0 {
            try library.read { try Self.rows(offset: 0, limit: limit, order: nil, in: $0, body) }
        } else {
            try library.readOrdered { try Self.rows(offset: offset, limit: limit, order: $1, in: $0, body) }
        }
    }

    /// The 0-based index of the album with `id`.
    /// - Throws: `AlbumError.notFound`.
    /// - Complexity: A few small reads of the order statistics kept in the file, whatever the
    ///   length of the list.
    public func index(of id: Album.ID) throws -> Int { try library.readOrdered(Self.index(of: id)) }
    /// The 0-based index of the album with `id`.
    public func index(of id: Album.ID) async throws -> Int { try await library.readOrdered(Self.index(of: id)) }

    /// The 0-based indexes of the albums with `ids`, read from one snapshot (a screenful of
    /// search results in one read transaction rather than one each).
    /// - Throws: `AlbumError.notFound` for an id no album has.
    package func indexes(of ids: [Album.ID]) throws -> [Album.ID: Int] {
        try library.readOrdered { connection, order in
            var indexes: [Album.ID: Int] = [:]
            for id in ids { indexes[id] = try Self.index(of: id)(connection, order) }
            return indexes
        }
    }

    // MARK: Changing

    /// Adds an album at the end of the list.
    /// - Throws: `AlbumError.invalid` or `.duplicateExternalID`; nothing changes then.
    @discardableResult
    public func append(_ draft: AlbumDraft) throws -> Album {
        let valid = try draft.validated()
        try refuseTakenExternalID(valid.externalID, except: nil)
        return try library.perform { command in
            let connection = command.connection
            try Self.checkExternalID(valid.externalID, except: nil, in: connection)
            let last = try connection.scalar("SELECT max(position) FROM albums", as: Int64.self)
            // No key left after the last one (keys written near the top by another program):
            // spread the end of the list, which needs the order statistics.
            let position = try PositionKey.between(last, nil) ?? {
                let order = try command.order()
                return try Self.spread(around: order.count, order: order, in: connection)
            }()
            let album = try Self.insert(valid, position: position, in: connection)
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
        try library.read { connection in
            for externalID in externalIDs { try Self.checkExternalID(externalID, except: nil, in: connection) }
        }
        return try library.performAppend { connection in
            for externalID in externalIDs {
                try Self.checkExternalID(externalID, except: nil, in: connection)
            }
            let last = try connection.scalar("SELECT max(position) FROM albums", as: Int64.self)
            // Keys a gap apart after the last one; a list whose keys reach near the top of the
            // range (written by another program) has no room: refuse rather than overflow.
            let first = last.map { Int128($0) + Int128(PositionKey.gap) } ?? 0
            guard first + Int128(PositionKey.gap) * Int128(valid.count) < PositionKey.ceiling else {
                throw AlbumError.invalid(field: "position", reason: "no room for \(valid.count) albums after the last one")
            }
            var position = Int64(first)
            let now = Date().millisecondsSince1970
            var firstID = try Self.firstNewID(in: connection)
            let ids = try BulkInsert.run(into: .albums, in: connection) { bulk in
                var ids = RowIDs()
                // Many rows a statement: each statement on a table with triggers pays for a
                // statement journal and the trigger program, whether the trigger acts or not.
                for start in stride(from: 0, to: valid.count, by: Self.rowsPerInsert) {
                    let batch = valid[start..<min(start + Self.rowsPerInsert, valid.count)]
                    let insert = try connection.cachedStatement(Self.insertSQL(rows: batch.count))
                    for (offset, draft) in batch.enumerated() {
                        try Self.bind(draft, id: firstID, position: position, created: now, updated: now, to: insert, row: offset)
                        position += PositionKey.gap
                        firstID = nil
                    }
                    try insert.run()
                    // New rowids count up from the largest one, one statement at a time.
                    let last = connection.lastInsertRowID
                    ids.insert((last - Int64(batch.count) + 1)...last)
                    bulk.inserted((last - Int64(batch.count) + 1)...last)
                }
                return ids
            }
            let added = valid.count == 1 ? Album.quoted(title: valid[0].title, artist: valid[0].artist) : "\(valid.count) albums"
            return (ids, "add \(added)")
        }
    }

    /// Inserts an album at `index` (0...count, or -(count + 1)...-1 counting from the end: -1
    /// appends); the albums from there on move one place down.
    /// - Throws: `AlbumError.invalid`, `.duplicateExternalID` or `.indexOutOfRange`; nothing
    ///   changes then.
    @discardableResult
    public func insert(_ draft: AlbumDraft, at index: Int) throws -> Album {
        let valid = try draft.validated()
        try library.readOrdered { connection, order in
            _ = try Self.resolved(index, in: 0..<(order.count + 1))
            try Self.checkExternalID(valid.externalID, except: nil, in: connection)
        }
        return try library.perform { command in
            let order = try command.order()
            let index = try Self.resolved(index, in: 0..<(order.count + 1))
            try Self.checkExternalID(valid.externalID, except: nil, in: command.connection)
            let position = try Self.position(forInsertAt: index, order: order, in: command.connection)
            let album = try Self.insert(valid, position: position, in: command.connection)
            return (album, "insert \(album.quoted) at #\(index)")
        }
    }

    /// Moves an album so that it ends up at `index` (0..<count, or -count...-1 counting from the
    /// end: -1 makes it the last); the albums in between shift by one.
    /// - Throws: `AlbumError.notFound` or `.indexOutOfRange`; nothing changes then.
    @discardableResult
    public func move(id: Album.ID, to index: Int) throws -> Album {
        try library.readOrdered { connection, order in
            guard try Self.position(of: id, in: connection) != nil else { throw AlbumError.notFound(id: id) }
            _ = try Self.resolved(index, in: 0..<order.count)
        }
        return try library.perform { command in
            let connection = command.connection
            let order = try command.order()
            guard let album = try Self.album(id: id)(connection),
                  let position = try Self.position(of: id, in: connection) else { throw AlbumError.notFound(id: id) }
            let index = try Self.resolved(index, in: 0..<order.count)
            let current = try order.index(of: position, id: id)
            if current == index { return (album, "") }
            // Between the neighbours it will have once it has left its current place.
            let target = try Self.position(forInsertAt: index > current ? index + 1 : index, order: order, in: connection)
            try connection.run("UPDATE albums SET position = ? WHERE id = ?", target, id)
            return (album, "move \(album.quoted) from #\(current) to #\(index)")
        }
    }

    /// Deletes the album with `id` and returns it.
    /// - Throws: `AlbumError.notFound`; nothing changes then.
    @discardableResult
    public func delete(id: Album.ID) throws -> Album {
        guard try album(id: id) != nil else { throw AlbumError.notFound(id: id) }
        return try library.perform { command in
            guard let album = try Self.album(id: id)(command.connection) else { throw AlbumError.notFound(id: id) }
            try command.connection.run("DELETE FROM albums WHERE id = ?", id)
            return (album, "delete \(album.quoted)")
        }
    }

    /// Deletes the album at `index` (-1 is the last) and returns it.
    /// - Throws: `AlbumError.indexOutOfRange`; nothing changes then.
    @discardableResult
    public func delete(at index: Int) throws -> Album {
        try library.readOrdered { _, order in _ = try Self.resolved(index, in: 0..<order.count) }
        return try library.perform { command in
            let album = try Self.album(at: index)(command.connection, try command.order())
            try command.connection.run("DELETE FROM albums WHERE id = ?", album.id)
            return (album, "delete \(album.quoted)")
        }
    }

    /// Changes an album's fields: `change` edits a draft of them, which is validated and saved.
    /// An edit that changes nothing records nothing.
    ///
    /// `change` runs outside the write lock, on the album as last committed, so it may call the
    /// library itself. If another writer changes the album before the edit is saved, `change`
    /// runs again on the new values, up to 10 times.
    /// - Throws: `AlbumError.notFound`, `.invalid` or `.duplicateExternalID`, `.changedDuringEdit`
    ///   when other writers changed the album every time, or what `change` throws; nothing
    ///   changes then.
    @discardableResult
    public func update(id: Album.ID, _ change: (inout AlbumDraft) throws -> Void) throws -> Album {
        for _ in 0..<Self.editAttempts {
            guard let album = try album(id: id) else { throw AlbumError.notFound(id: id) }
            var draft = album.draft
            try change(&draft)
            let valid = try draft.validated()
            if valid == album.draft { return album }
            try refuseTakenExternalID(valid.externalID, except: id)
            let saved: Album? = try library.perform { command in
                let connection = command.connection
                // Changed since `change` saw it: give `change` the new values.
                guard try Self.album(id: id)(connection) == album else { return (nil, "") }
                try Self.checkExternalID(valid.externalID, except: id, in: connection)
                try connection.run("""
                    UPDATE albums SET title = ?, artist = ?, genre = ?, year = ?, cover_url = ?, external_id = ?,
                        updated_at = max(?, created_at), match_key = ? WHERE id = ?
                    """, valid.title, valid.artist, valid.genre, valid.year, valid.coverURL, valid.externalID,
                    Date().millisecondsSince1970, MatchKey.of(artist: valid.artist, title: valid.title), id)
                guard let updated = try Self.album(id: id)(connection) else { throw AlbumError.notFound(id: id) }
                return (updated, "edit \(updated.quoted)")
            }
            if let saved { return saved }
        }
        throw AlbumError.changedDuringEdit(id: id, attempts: Self.editAttempts)
    }

    /// How often `update(id:_:)` runs its change again on an album other writers keep changing.
    static let editAttempts = 10

    // MARK: Checks before the write lock

    /// Refuses, reading only, an external id another album has: the command is then refused
    /// without a write transaction. The command checks again under the lock.
    private func refuseTakenExternalID(_ externalID: String?, except id: Album.ID?) throws {
        guard externalID != nil else { return }
        try library.read { try Self.checkExternalID(externalID, except: id, in: $0) }
    }

    // MARK: Queries, shared by the sync and async reads and by commands

    static func album(id: Album.ID) -> @Sendable (Connection) throws -> Album? {
        { connection in
            try connection.first("SELECT \(Album.columns) FROM albums WHERE id = ?", id) { try Album(row: $0) }
        }
    }

    static func album(at index: Int) -> @Sendable (Connection, OrderStatistics) throws -> Album {
        { connection, order in
            let index = try resolved(index, in: 0..<order.count)
            guard let album = try album(id: try order.id(at: index))(connection) else { throw OrderStatistics.Stale() }
            return album
        }
    }

    /// The id of the album at `index` (-1 is the last), without reading its row: from the
    /// position index alone (`OrderStatistics.id(at:)`).
    static func id(at index: Int) -> @Sendable (Connection, OrderStatistics) throws -> Album.ID {
        { _, order in try order.id(at: try resolved(index, in: 0..<order.count)) }
    }

    static func page(offset: Int, limit: Int) -> @Sendable (Connection, OrderStatistics?) throws -> [IndexedAlbum] {
        { connection, order in
            var page: [IndexedAlbum] = []
            try rows(offset: max(0, offset), limit: max(0, limit), order: order, in: connection) { index, row in
                page.append(IndexedAlbum(index: index, album: try Album(row: row)))
            }
            return page
        }
    }

    /// Lends `body` each row of the albums query, in list order, from index `offset` on (found
    /// with `order`; `nil` when `offset` is 0), up to `limit`, with its index.
    private static func rows(offset: Int, limit: Int, order: OrderStatistics?, in connection: Connection,
                             _ body: (Int, borrowing Row) throws -> Void) throws {
        guard offset < (order?.count ?? .max), limit > 0 else { return }
        let (from, skip) = try order?.locate(offset) ?? (OrderBlocks.origin, 0)
        // A statement of its own if the cached one is lending rows already (`body` reading a page).
        let statement = try connection.cachedStatement(
            "SELECT \(Album.columns) FROM albums WHERE position >= ? ORDER BY position, id LIMIT ? OFFSET ?")
        var index = offset
        try statement.forEach([from, limit, skip]) { row in
            try body(index, row)
            index += 1
        }
    }

    static func index(of id: Album.ID) -> @Sendable (Connection, OrderStatistics) throws -> Int {
        { connection, order in
            guard let position = try position(of: id, in: connection) else { throw AlbumError.notFound(id: id) }
            return try order.index(of: position, id: id)
        }
    }

    // MARK: SQL

    private static func position(of id: Album.ID, in connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT position FROM albums WHERE id = ?", id)
    }

    private static func insert(_ valid: AlbumDraft, position: Int64, in connection: Connection) throws -> Album {
        let now = Date().millisecondsSince1970
        let insert = try connection.cachedStatement(insertSQL(rows: 1))
        try bind(valid, id: try firstNewID(in: connection), position: position, created: now, updated: now, to: insert, row: 0)
        try insert.run()
        return Album(id: connection.lastInsertRowID, title: valid.title, artist: valid.artist, genre: valid.genre,
                     year: valid.year, coverURL: valid.coverURL, externalID: valid.externalID,
                     createdAt: Date(millisecondsSince1970: now), updatedAt: Date(millisecondsSince1970: now))
    }

    static let rowsPerInsert = 64

    /// The id to give the next album inserted, or `nil` to let SQLite choose (the largest id + 1).
    /// No id is given twice: when the album with the largest id was deleted, SQLite would give
    /// its id again (`Migrations/0012_album_id_floor.sql`). Later rows of the same write count
    /// up from this one by themselves.
    static func firstNewID(in connection: Connection) throws -> Int64? {
        try connection.scalar("SELECT id + 1 FROM album_id_floor WHERE id >= (SELECT ifnull(max(id), 0) FROM albums)", as: Int64.self)
    }

    /// The multi-row INSERT of `rows` albums. The full batch's text is built once: building it
    /// per batch cost an import more than binding the batch's values.
    static func insertSQL(rows: Int) -> String {
        rows == rowsPerInsert ? fullInsertSQL : makeInsertSQL(rows: rows)
    }

    private static let fullInsertSQL = makeInsertSQL(rows: rowsPerInsert)

    private static func makeInsertSQL(rows: Int) -> String {
        "INSERT INTO albums (id, position, title, artist, genre, year, cover_url, external_id, created_at, updated_at, match_key) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// Binds one album to the parameters of row `row` of an insert (`insertSQL`), with its id
    /// (`nil`: SQLite's choice) and match key (computed unless given).
    static func bind(
        _ draft: AlbumDraft, id: Int64?, position: Int64, created: Int64, updated: Int64, matchKey: Int64? = nil,
        to statement: Statement, row: Int
    ) throws {
        let base = Int32(row * 11)
        try statement.bind(id, at: base + 1)
        try statement.bind(position, at: base + 2)
        try statement.bind(draft.title, at: base + 3)
        try statement.bind(draft.artist, at: base + 4)
        try statement.bind(draft.genre, at: base + 5)
        try statement.bind(draft.year, at: base + 6)
        try statement.bind(draft.coverURL, at: base + 7)
        try statement.bind(draft.externalID, at: base + 8)
        try statement.bind(created, at: base + 9)
        try statement.bind(updated, at: base + 10)
        try statement.bind(matchKey ?? MatchKey.of(artist: draft.artist, title: draft.title), at: base + 11)
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
        if let existing = try owner(ofExternalID: externalID, except: id, in: connection) {
            throw AlbumError.duplicateExternalID(externalID, existing: existing)
        }
    }

    /// The album other than `id` that has `externalID`, if any.
    static func owner(ofExternalID externalID: String, except id: Album.ID? = nil, in connection: Connection) throws -> Album.ID? {
        try connection.scalar("SELECT id FROM albums WHERE external_id = ? AND id IS NOT ?", externalID, id, as: Int64.self)
    }

    /// `index` as an index from the front of `valid` (which starts at 0): a negative one counts
    /// back from its end.
    /// - Throws: `AlbumError.indexOutOfRange` when it is outside `valid` either way.
    private static func resolved(_ index: Int, in valid: Range<Int>) throws -> Int {
        let resolved = index < 0 ? valid.upperBound + index : index
        guard valid.contains(resolved) else {
            throw AlbumError.indexOutOfRange(index: index, valid: valid.isEmpty ? nil : valid.lowerBound...(valid.upperBound - 1))
        }
        return resolved
    }

    /// A position key for a new album at `index`, between the keys of its future neighbours.
    private static func position(forInsertAt index: Int, order: OrderStatistics, in connection: Connection) throws -> Int64 {
        let neighbours = try order.keys(from: max(0, index - 1), limit: index == 0 ? 1 : 2)
            .map(\.position)
        let expected = order.count == 0 ? 0 : (index == 0 || index == order.count ? 1 : 2)
        guard neighbours.count >= expected else { throw OrderStatistics.Stale() }
        let lower = index == 0 ? nil : neighbours.first
        let upper = index == order.count ? nil : neighbours.last
        if let key = PositionKey.between(lower, upper) { return key }
        return try spread(around: index, order: order, in: connection)
    }

    /// Gives the albums around `index` evenly spaced keys, leaving a free key for index `index`,
    /// and returns it. The window doubles until its outer neighbours leave enough room; at the
    /// ends of the list the window may reach to the limits of the key range.
    private static func spread(around index: Int, order: OrderStatistics, in connection: Connection) throws -> Int64 {
        let count = order.count
        var reach = 16
        while true {
            let lower = max(0, index - reach), upper = min(count, index + reach)
            // The window's rows plus one outer neighbour on each side, where there is one.
            let first = max(0, lower - 1), last = min(count, upper + 1)
            let rows = try order.keys(from: first, limit: last - first)
            guard rows.count == last - first else { throw OrderStatistics.Stale() }
            let window = rows[(lower - first)..<(upper - first)]
            let span = Int128(PositionKey.gap) * Int128(reach)
            let low = lower > 0 ? Int128(rows[0].position)
                : max(PositionKey.floor, Int128(window.first?.position ?? 0) - span)
            let high = upper < count ? Int128(rows[rows.count - 1].position)
                : min(PositionKey.ceiling, Int128(window.last?.position ?? 0) + span)
            let wholeList = lower == 0 && upper == count
            if let spread = PositionKey.spread(
                count: window.count, between: low, and: high, freeAt: index - lower, minimumStep: wholeList ? 1 : 2) {
                for (row, key) in zip(window, spread.keys) {
                    try connection.run("UPDATE albums SET position = ? WHERE id = ?", key, row.id)
                }
                return spread.free
            }
            guard !wholeList else {
                throw AlbumError.invalid(field: "position", reason: "no free position key is left in the list")
            }
            reach *= 2
        }
    }
}

/// An album with its index in the list, as `page` hands it out.
struct IndexedAlbum: Sendable {
    var index: Int
    var album: Album
}

extension Album {
    /// “Title” by Artist, for messages and history entries; a title or artist over 80
    /// characters is cut there with an ellipsis, so a 100 KB title (another program's) gives a
    /// line a terminal can show, not 100 KB of message and of history description.
    public var quoted: String { Self.quoted(title: title, artist: artist) }

    /// “Title” by Artist, as `quoted` says it, for an album not yet stored.
    static func quoted(title: String, artist: String) -> String { "“\(shortened(title))” by \(shortened(artist))" }

    private static func shortened(_ text: String, to limit: Int = 80) -> String {
        text.utf8.count <= limit || text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
