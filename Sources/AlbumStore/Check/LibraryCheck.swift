import FoundationEssentials
internal import AlbumSQLite

extension Library {
    /// Checks this library's file: SQLite's structure and AlbumStore's own rules (see
    /// `check(at:)`). Reads only, on one snapshot; writers go on meanwhile.
    /// - Returns: The problems found, none for a sound library.
    public func check() throws -> [LibraryProblem] {
        let check = LibraryCheck(migrator: migrator)
        let path = path
        return try read { try check.problems(in: $0, path: path) }
    }

    /// Checks the library file at `url` without opening it as a library, so it also works on a
    /// file `open` refuses (damaged, older, another program's). It reads only, as `.readOnly`
    /// does, and never migrates or repairs.
    ///
    /// What it checks, in order: SQLite's `PRAGMA integrity_check` (b-trees, indexes against
    /// their tables, NOT NULL) and `PRAGMA foreign_key_check`; that the file is an AlbumStore
    /// library this version knows; then AlbumStore's own rules: every album has an integer
    /// position key of its own (the list order and the order statistics depend on it), the order
    /// statistics equal a full count of the albums, block by block, every history
    /// entry can be read back (its changeset parses, its appended ids parse), the change log is
    /// numbered consistently (one `change_control` row, no bulk write left open, entries above
    /// `pruned_through`, transaction numbers never going back), no undoable table has a column
    /// its rows do not store (a virtual generated one), and, at the current schema version, the
    /// generated change-log triggers are all there as generated.
    ///
    /// - Returns: The problems found, none for a sound library. A file SQLite cannot read at all
    ///   is one problem (`.file`).
    /// - Throws: `StorageError` when the path cannot be read (`.notFound`, `.emptyFile`,
    ///   `.isADirectory`, `.permissionDenied`, ...) or another process keeps it locked (`.busy`).
    public static func check(at url: URL, busyTimeout: Duration = .seconds(5)) throws -> [LibraryProblem] {
        let path = url.path
        let plan = try LibraryFile.plan(for: path, access: .readOnly)
        return try mappingStorageErrors(path: path, busyTimeout: busyTimeout) {
            try plan.reading(plan.options(busyTimeout: busyTimeout)) { options, _ in
                let connection = try Connection(path: plan.filename, options: options)
                var problems: [LibraryProblem] = []
                do {
                    // One snapshot, so that concurrent writers cannot make the areas disagree.
                    try connection.read { problems = try LibraryCheck(migrator: Migrator()).problems(in: connection, path: path) }
                } catch let error as SQLiteError where (error.code == 11 || error.code == 26) && !problems.isEmpty {
                    // Ending the read on a file whose schema cannot be parsed reports the damage
                    // again: the problems say it already.
                }
                return problems
            }
        }
    }
}

/// The queries of `Library.check`, one method per area. Each area's failure to read (a damaged
/// page, a missing column) becomes a problem of that area, and the others still run.
struct LibraryCheck {
    let migrator: Migrator
    /// How many examples (ids, keys) one problem names.
    static let examples = 5

    func problems(in connection: Connection, path: String) throws -> [LibraryProblem] {
        var problems: [LibraryProblem] = []
        do {
            let lines: [String] = try connection.query("PRAGMA integrity_check") { try $0[0] }
            if lines != ["ok"] { problems += lines.map { LibraryProblem(.file, $0) } }
        } catch let error as SQLiteError where error.code == 26 {  // SQLITE_NOTADB
            return [LibraryProblem(.file, "not a SQLite database")]
        } catch let error as SQLiteError where error.code == 11 {  // SQLITE_CORRUPT
            return [LibraryProblem(.file, "damaged: \(error.message)")]
        }
        problems += try area(.foreignKeys) { try foreignKeys(in: connection) }

        let applied: [AppliedMigration]
        do {
            applied = try migrator.inspect(connection, path: path)
        } catch let error as SchemaError {
            return problems + [LibraryProblem(.schema, Self.explain(error))]
        } catch let error as SQLiteError where !error.isBusy {
            return problems + [LibraryProblem(.schema, "cannot be read: \(error.message)")]
        }
        guard let version = applied.last?.version else {
            return problems + [LibraryProblem(.schema, "no AlbumStore schema: the database is empty")]
        }
        let tables = try Set(connection.query("SELECT lower(name) FROM sqlite_schema WHERE type = 'table'") {
            try $0[0, as: String.self]
        })
        for (table, since) in Self.tables.sorted(by: { $0.key < $1.key }) where version >= since && !tables.contains(table) {
            problems.append(LibraryProblem(.schema, "table \(table) is missing"))
        }
        if tables.contains("albums") { problems += try area(.albums) { try albums(in: connection) } }
        if tables.isSuperset(of: ["albums", "album_blocks"]) {
            problems += try area(.albums) { try orderStatistics(in: connection) }
        }
        if tables.contains("history") { problems += try area(.history) { try history(in: connection) } }
        problems += try area(.history) { try unrecordableColumns(in: connection, tables: tables) }
        if tables.isSuperset(of: ["change_log", "change_control"]) {
            problems += try area(.changeLog) { try changeLog(in: connection) }
        }
        // Older files carry an older generator's triggers, which a writing open replaces.
        if version == migrator.latestVersion { problems += try area(.triggers) { try triggers(in: connection) } }
        return problems
    }

    /// The tables AlbumStore's rules read, with the schema version that creates each.
    static let tables = [
        "albums": 1, "history": 2, "change_control": 3, "change_log": 3, "album_blocks": 6, "album_blocks_checked": 6,
        "album_blocks_total": 10, "album_id_floor": 12,
    ]

    /// Runs one area's queries; an error reading them (other than a lock) is that area's problem.
    private func area(_ area: LibraryProblem.Area, _ body: () throws -> [LibraryProblem]) throws -> [LibraryProblem] {
        do {
            return try body()
        } catch let error as SQLiteError where !error.isBusy {
            return [LibraryProblem(area, "cannot be read: \(error.message)")]
        }
    }

    /// Columns of undoable tables that their rows do not store (virtual generated ones, added by
    /// another program): SQLite's pre-update hook has no value for them, so no command that
    /// changes the table can record its undo, and each fails (`ChangeRecorder`).
    private func unrecordableColumns(in connection: Connection, tables: Set<String>) throws -> [LibraryProblem] {
        try TableDescription.undoable.filter { tables.contains($0) }.flatMap { table in
            try connection.query("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 2", table) { row in
                let column: String = try row[0]
                return LibraryProblem(.history, """
                    \(table).\(column) is a virtual generated column: commands that change \(table) fail, as their undo \
                    cannot be recorded (drop the column to use them again)
                    """)
            }
        }
    }

    private func foreignKeys(in connection: Connection) throws -> [LibraryProblem] {
        try connection.query("PRAGMA foreign_key_check") { row in
            let table: String = try row[0]
            let rowID: Int64? = try row[1]
            let parent: String = try row[2]
            return LibraryProblem(.foreignKeys, "\(table) row \(rowID.map(String.init) ?? "?") refers to a missing row of \(parent)")
        }
    }

    private func albums(in connection: Connection) throws -> [LibraryProblem] {
        var problems: [LibraryProblem] = []
        let unkeyed = try connection.scalar(
            "SELECT count(*) FROM albums WHERE typeof(position) <> 'integer'", as: Int.self) ?? 0
        if unkeyed > 0 {
            let ids: [Int64] = try connection.query(
                "SELECT id FROM albums WHERE typeof(position) <> 'integer' ORDER BY id LIMIT ?", Self.examples) { try $0[0] }
            problems.append(LibraryProblem(.albums, "\(Self.count(unkeyed, "album")) without an integer position key "
                + "(ids \(Self.list(ids, of: unkeyed))): their place in the list is undefined"))
        }
        let shared = try connection.scalar("""
            SELECT count(*) FROM (SELECT 1 FROM albums WHERE typeof(position) = 'integer'
                                  GROUP BY position HAVING count(*) > 1)
            """, as: Int.self) ?? 0
        if shared > 0 {
            let examples: [String] = try connection.query("""
                SELECT position, group_concat(id, ', ') FROM albums WHERE typeof(position) = 'integer'
                GROUP BY position HAVING count(*) > 1 ORDER BY position LIMIT ?
                """, Self.examples) { "key \(try $0[0, as: Int64.self]): albums \(try $0[1, as: String.self])" }
            problems.append(LibraryProblem(.albums, "\(Self.count(shared, "position key")) shared by several albums "
                + "(\(examples.joined(separator: "; "))\(shared > examples.count ? "; …" : "")): "
                + "indexes near them may be off; moving one of each gives it a key of its own"))
        }
        problems += try matchKeys(in: connection)
        return problems
    }

    /// Blocks of the order statistics whose count is not the number of albums in their range:
    /// another program edited `album_blocks`, or went around the triggers without the schema
    /// version showing it (lookups by index may then be off). One pass over the position index:
    /// each block's range but the last is bounded on both sides (the last takes every key after
    /// its first, keys of another type than integer too, as the triggers count them).
    private func orderStatistics(in connection: Connection) throws -> [LibraryProblem] {
        let blocks = try connection.query("""
            SELECT first, count, CASE WHEN b.next IS NULL THEN (SELECT count(*) FROM albums WHERE position >= b.first)
                ELSE (SELECT count(*) FROM albums WHERE position >= b.first AND position < b.next) END
            FROM (SELECT first, count, lead(first) OVER (ORDER BY first) AS next FROM album_blocks) AS b
            ORDER BY first
            """) { (first: try $0[0, as: Int64.self], stored: try $0[1, as: Int64.self], counted: try $0[2, as: Int64.self]) }
        var problems: [LibraryProblem] = []
        if blocks.first?.first != OrderBlocks.origin {
            problems.append(LibraryProblem(.albums, "the order statistics have no first block (key \(OrderBlocks.origin)): "
                + "they are not used until a writing command rebuilds them"))
        }
        // The total (migration 0010), against the albums themselves: a sum of wrong blocks
        // would only repeat their error.
        if let total = try OrderBlocks.albums.storedTotal(in: connection),
           let albums = try connection.scalar("SELECT count(*) FROM albums", as: Int.self), total != albums {
            problems.append(LibraryProblem(.albums, "the order statistics' total is \(total) but there are \(albums) albums: "
                + "indexes may be off; `UPDATE album_blocks_checked SET schema_version = 0` in the sqlite3 shell makes "
                + "the next command count them again"))
        }
        let wrong = blocks.filter { $0.stored != $0.counted }
        guard !wrong.isEmpty else { return problems }
        let examples = wrong.prefix(Self.examples).map { "from key \($0.first): \($0.stored) counted, \($0.counted) there" }
        problems.append(LibraryProblem(.albums, "\(Self.count(wrong.count, "block")) of the order statistics disagree with the albums "
            + "(\(examples.joined(separator: "; "))\(wrong.count > examples.count ? "; …" : "")): indexes may be off; "
            + "`UPDATE album_blocks_checked SET schema_version = 0` in the sqlite3 shell makes the next command count them again"))
        return problems
    }

    /// Albums whose `match_key` is missing or not the key of their artist and title: written by
    /// another program (which does not know the fold), they escape the import's duplicate check.
    /// Computed here rather than in SQL: the key's function is registered on writers only.
    private func matchKeys(in connection: Connection) throws -> [LibraryProblem] {
        guard try connection.scalar(
            "SELECT 1 FROM pragma_table_info('albums') WHERE name = 'match_key'", as: Int.self) != nil else { return [] }
        var stale = 0
        var ids: [Int64] = []
        try connection.cachedStatement("SELECT id, artist, title, match_key FROM albums ORDER BY id").forEach { row in
            let key: Int64? = try row[3]
            let artist: String? = try row[1], title: String? = try row[2]
            guard let artist, let title, key == MatchKey.of(artist: artist, title: title) else {
                stale += 1
                if ids.count < Self.examples { ids.append(try row[0]) }
                return
            }
        }
        guard stale > 0 else { return [] }
        return [LibraryProblem(.albums, "\(Self.count(stale, "album")) with a missing or stale match key "
            + "(ids \(Self.list(ids, of: stale))), written by another program: an import does not find them as "
            + "duplicates; editing one through AlbumStore stores its key")]
    }

    private func history(in connection: Connection) throws -> [LibraryProblem] {
        var problems: [LibraryProblem] = []
        try connection.cachedStatement("SELECT id, changeset, appended_ids FROM history ORDER BY id").forEach { row in
            let id: Int64 = try row[0]
            if let data = try row[1, as: Data?.self] {
                // The shape first: SQLite's own reader loops forever on some malformed changesets.
                if let problem = ChangesetFormat.problem(in: data) {
                    problems.append(LibraryProblem(.history, "entry \(id): its changeset cannot be read (\(problem))"))
                } else {
                    do {
                        try Changeset(data: data).forEach { _ in }
                    } catch let error as SQLiteError {
                        problems.append(LibraryProblem(.history, "entry \(id): its changeset cannot be read (\(error.message))"))
                    }
                }
            } else {
                problems.append(LibraryProblem(.history, "entry \(id): it has no changeset"))
            }
            if let ids = try row[2, as: String?.self], RowIDs(rangeList: ids) == nil {
                problems.append(LibraryProblem(.history, "entry \(id): its appended ids cannot be read (\(ids.debugDescription))"))
            }
        }
        return problems
    }

    private func changeLog(in connection: Connection) throws -> [LibraryProblem] {
        var problems: [LibraryProblem] = []
        let rows = try connection.scalar("SELECT count(*) FROM change_control", as: Int.self) ?? 0
        guard let control = try connection.first(
            "SELECT bulk, pruned_through FROM change_control WHERE id = 1",
            as: { (bulk: try $0[0, as: Int64.self], prunedThrough: try $0[1, as: Int64.self]) })
        else {
            return [LibraryProblem(.changeLog, "change_control has no row 1: nothing can be logged")]
        }
        if rows != 1 { problems.append(LibraryProblem(.changeLog, "change_control holds \(rows) rows, not 1")) }
        if control.bulk != 0 {
            problems.append(LibraryProblem(.changeLog, "change_control.bulk is \(control.bulk) outside a write: "
                + "inserts and deletes go unlogged until it is 0"))
        }
        let bounds = try connection.first("SELECT min(seq), max(seq) FROM change_log") {
            (first: try $0[0, as: Int64?.self], last: try $0[1, as: Int64?.self])
        }
        if let first = bounds?.first, first <= control.prunedThrough {
            problems.append(LibraryProblem(.changeLog, "entries from seq \(first) are at or below pruned_through "
                + "\(control.prunedThrough): cursors around them are ambiguous"))
        } else if bounds?.last == nil && control.prunedThrough > 0 {
            problems.append(LibraryProblem(.changeLog, "the log is empty but pruned through \(control.prunedThrough): "
                + "new entries would reuse positions cursors have seen"))
        }
        if let seq = try connection.scalar("""
            SELECT seq FROM (SELECT seq, tx, lag(tx) OVER (ORDER BY seq) AS previous FROM change_log)
            WHERE tx < previous ORDER BY seq LIMIT 1
            """, as: Int64.self) {
            problems.append(LibraryProblem(.changeLog, "transaction numbers go back at seq \(seq)"))
        }
        if let seq = try connection.scalar(
            "SELECT seq FROM change_log WHERE last_row_id < row_id ORDER BY seq LIMIT 1", as: Int64.self) {
            problems.append(LibraryProblem(.changeLog, "range entry seq \(seq) ends before it starts"))
        }
        return problems
    }

    private func triggers(in connection: Connection) throws -> [LibraryProblem] {
        let plan: ChangeLogTriggerInstaller.Plan
        do {
            plan = try migrator.triggers.plan(in: connection)
        } catch let error as SchemaError {
            return [LibraryProblem(.triggers, Self.explain(error))]
        }
        let replaced = Set(plan.drop.map { $0.lowercased() })
        let created = Set(plan.create.map { $0.name.lowercased() })
        let fix = "; opening the library for writing "
        return plan.create.map { trigger in
            replaced.contains(trigger.name.lowercased())
                ? LibraryProblem(.triggers, "\(trigger.name) differs from the generated trigger\(fix)replaces it")
                : LibraryProblem(.triggers, "\(trigger.name) is missing\(fix)installs it")
        } + plan.drop.filter { !created.contains($0.lowercased()) }.map {
            LibraryProblem(.triggers, "\($0) belongs to a table no longer observed\(fix)drops it")
        }
    }

    /// A schema error as a problem's message: without the path, which the problem's reader has.
    static func explain(_ error: SchemaError) -> String {
        switch error {
        case let .notAnAlbumStore(_, reason): "not an AlbumStore library (\(reason))"
        case let .newerThanKnown(_, version, known):
            "schema version \(version) is newer than this version knows (\(known)); upgrade AlbumStore to check it"
        case let .migrationChanged(_, migration, applied, current):
            "migration \(migration) changed after it was applied (checksum \(applied), now \(current))"
        case let .cannotObserve(_, table, reason): "table \(table) cannot be observed: \(reason)"
        case let .needsUpgrade(_, version, current): "schema version \(version) is older than \(current)"
        case let .migrationFailed(_, migration, _, reason): "migration \(migration) failed: \(reason)"
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    private static func list(_ ids: [Int64], of total: Int) -> String {
        ids.map(String.init).joined(separator: ", ") + (total > ids.count ? ", …" : "")
    }
}
