import FoundationEssentials
internal import AlbumSQLite

/// One import in progress: reads a catalog in one streaming pass inside the command's write
/// transaction, and adds, updates, skips or rejects each row.
///
/// Memory stays bounded whatever the file's size: rows go to the table in batches of
/// `AlbumRepository.rowsPerInsert` (one multi-row INSERT each, a cached statement), the new ids
/// are kept as ranges, and the duplicate finder's filter of the keys seen is of a fixed size
/// (`KeyFilter`); what grows is only what the file's repeats leave (about 16 bytes each). The
/// inserts run with the table's insert triggers aside (`BulkInsert`, run by the caller: ranges
/// in the change log, followers caught up in bulk) and are kept by the history
/// as ids; in-place updates are recorded by a `ChangeRecorder` that is on only while
/// an update runs, so the inserts cost it nothing.
///
/// Atomic by default: at the first invalid row writing stops, and the rest of the file is still
/// read and checked so that every error is listed; the caller then rolls back.
final class AlbumImport {
    private let connection: Connection
    private let options: ImportOptions
    private(set) var summary: ImportSummary
    private var converter: RecordConverter
    private var duplicates: DuplicateFinder
    private let rejects: RejectsFile?
    /// Records the in-place updates (only under `ConflictPolicy.update`).
    private let recorder: ChangeRecorder?
    private var pending: [PendingRow] = []
    private(set) var ids = RowIDs()
    private var nextPosition: Int64
    /// The id of the first row inserted, when SQLite's own choice would give a deleted album's.
    private var firstID: Int64?
    private let now: Int64
    /// Whether rows are still written: false once an invalid row dooms an atomic import.
    private var writing = true
    /// The bulk insert the rows go through (`run`): told of each batch, and caught up before
    /// any row is updated or deleted.
    private var bulk: BulkInsert?
    /// The INSERT of a full batch, kept: the connection's statement cache would hash its long
    /// text on every batch.
    private var fullBatchInsert: Statement?
    /// The secondary indexes, set aside for an import into an empty library or one the file
    /// outgrows (see `DeferredIndexes`); `nil` when they are kept up to date row by row.
    private let deferred: DeferredIndexes?
    /// With the indexes set aside the library is not asked during the pass: a row whose key or
    /// external id an earlier row had is written, and checked once the pass is over (`resolve`).
    private var suspects: [Suspect] = []

    /// A row waiting for the next multi-row INSERT.
    private struct PendingRow {
        var row: ImportedRow
        var matchKey: Int64
        /// What it may repeat of an earlier row (checked at the end; see `suspects`): none for
        /// a row surely new.
        var suspicion: Suspect.Flags
    }

    /// A row written that may repeat an earlier row of the file (or, when the library's keys
    /// were loaded, an album already there): 16 bytes, as a file that repeats itself whole
    /// makes a million of them.
    private struct Suspect {
        var id: Album.ID
        private var storedLine: UInt32
        var supplied: FieldSet
        var flags: Flags

        struct Flags: OptionSet {
            var rawValue: UInt8
            /// An earlier row may have had its match key (the filter's maybe).
            static let key = Flags(rawValue: 1)
            /// An earlier row may have had its external id.
            static let externalID = Flags(rawValue: 2)
            /// The row gave `updated_at`.
            static let updatedAtGiven = Flags(rawValue: 4)
        }

        init(id: Album.ID, line: Int, supplied: FieldSet, flags: Flags) {
            self.id = id
            storedLine = UInt32(clamping: line)
            self.supplied = supplied
            self.flags = flags
        }

        /// The row's line (past 4,294,967,295: that line, for messages).
        var line: Int { Int(storedLine) }
    }
    /// The rows converted since the last progress report.
    private static let progressInterval = 4096

    /// Bytes a catalog row takes at least, to estimate the rows of a file from its size
    /// (CSV rows of a title, an artist and a year take about 50).
    static let bytesPerRowEstimate = 100
    /// Bytes of a file per key it gives the duplicate check at most, to size its filter: a
    /// short CSV row with an external id (two keys) takes some 60.
    static let bytesPerKeyEstimate = 30

    /// The duplicate check's filter: sized from the file (16 to 32 bits a key), at most
    /// `KeyFilter.defaultMaxBytes`, the most for standard input, whose size is unknown.
    private static func keyFilter(options: ImportOptions, totalBytes: Int?) -> KeyFilter {
        if let bytes = options.keyFilterBytes { return KeyFilter(bytes: bytes) }
        return KeyFilter(expectedKeys: totalBytes.map { $0 / bytesPerKeyEstimate } ?? .max)
    }

    init(summary: ImportSummary, options: ImportOptions, rejects: RejectsFile?, totalBytes: Int?,
         in connection: Connection) throws {
        self.connection = connection
        self.options = options
        self.summary = summary
        self.rejects = rejects
        converter = RecordConverter(mapping: options.mapping)
        let last = try connection.scalar("SELECT max(position) FROM albums", as: Int64.self)
        duplicates = DuplicateFinder(libraryWasEmpty: last == nil, filter: Self.keyFilter(options: options, totalBytes: totalBytes))
        nextPosition = last.map { $0 &+ PositionKey.gap } ?? 0
        firstID = try AlbumRepository.firstNewID(in: connection)
        if let last, Int128(last) + Int128(PositionKey.gap) >= PositionKey.ceiling {
            throw AlbumError.invalid(field: "position", reason: "no room for albums after the last one")
        }
        now = Date().millisecondsSince1970
        if options.onConflict == .update {
            let recorder = try ChangeRecorder(connection: connection, tables: TableDescription.undoable)
            recorder.isEnabled = false
            self.recorder = recorder
        } else {
            recorder = nil
        }
        pending.reserveCapacity(AlbumRepository.rowsPerInsert)
        // The indexes are set aside for an empty library, and for a file estimated to hold more
        // rows than the library (and many): rebuilding them then costs less than the rows'
        // random inserts. The library's keys go into the sets, so rows are checked as for an
        // empty one. Position stays: new rows go to its end, in order, which costs nothing.
        var setsAside = last == nil
        if !setsAside, let totalBytes {
            let estimate = totalBytes / Self.bytesPerRowEstimate
            let stored = try connection.scalar("SELECT count(*) FROM albums", as: Int.self) ?? 0
            setsAside = estimate >= options.indexesAsideFromRows && estimate >= stored
        }
        if setsAside && last != nil {
            if options.keyFilterBytes == nil, let totalBytes {
                // Sized for the library's keys too.
                let stored = try connection.scalar("SELECT count(*) FROM albums", as: Int.self) ?? 0
                duplicates = DuplicateFinder(libraryWasEmpty: false, filter: KeyFilter(
                    expectedKeys: totalBytes / Self.bytesPerKeyEstimate + stored * 2))
            }
            try duplicates.loadLibraryKeys(in: connection)
        }
        deferred = setsAside ? try DeferredIndexes(table: "albums", keeping: ["albums_position"], in: connection) : nil
    }

    /// Whether the import must be rolled back for its invalid rows.
    var isRefused: Bool { options.invalidRows == .rejectFile && summary.rejected > 0 }

    /// The changes made in place, for the history (empty when there were none).
    func updates() throws -> Changeset {
        try recorder?.changeset() ?? Changeset(data: Data())
    }

    /// Reads `reader` to its end.
    /// - Throws: `ImportError.unreadable` when the file cannot be read on, `.conflict` under
    ///   `ConflictPolicy.fail`, or a storage error.
    func run<Reader: CatalogReader>(_ reader: inout Reader, totalBytes: Int?, through bulk: BulkInsert) throws {
        self.bulk = bulk
        var sinceReport = 0
        while true {
            let record: CatalogRecord?
            do {
                record = try reader.next()
            } catch let error as CatalogError {
                throw ImportError.unreadable(file: summary.file, line: error.line, reason: error.reason)
            }
            guard let record else { break }
            summary.rows += 1
            switch converter.convert(record, columns: reader.columns) {
            case .success(let row):
                if writing { try take(row) }
            case .failure(let problem):
                try reject(ImportRejection(file: summary.file, line: record.line, field: problem.field, reason: problem.reason),
                           record: record, columns: reader.columns)
            }
            sinceReport += 1
            if sinceReport == Self.progressInterval {
                sinceReport = 0
                try checkCancellation()
                options.progress?(ImportProgress(rows: summary.rows, bytesRead: reader.bytesRead, totalBytes: totalBytes))
            }
        }
        try checkCancellation()
        if writing {
            try flush()
            if let deferred, !isRefused { try resolveSuspects(indexes: deferred) }
            try checkCancellation()
        }
        summary.ignoredColumns = converter.unknownColumns
        summary.skippedNotMusic = reader.skippedNotMusic
        try rejects?.close()
        options.progress?(ImportProgress(rows: summary.rows, bytesRead: reader.bytesRead, totalBytes: totalBytes))
    }

    /// Throws `CancellationError` once `ImportOptions.isCancelled` says so: the caller rolls back.
    private func checkCancellation() throws {
        if options.isCancelled?() == true { throw CancellationError() }
    }

    // MARK: Rows

    private func take(_ row: ImportedRow) throws {
        let matchKey = MatchKey.of(artist: row.draft.artist, title: row.draft.title)
        let keys = duplicates.keys(of: row.draft, matchKey: matchKey)
        if deferred != nil {
            // Nothing to look up without the indexes: a possible repeat is checked at the end.
            var suspicion: Suspect.Flags = []
            if keys.maySeenKey { suspicion.insert(.key) }
            if keys.maySeenExternalID { suspicion.insert(.externalID) }
            pending.append(PendingRow(row: row, matchKey: matchKey, suspicion: suspicion))
            summary.inserted += 1
            if pending.count == AlbumRepository.rowsPerInsert { try flush() }
            return
        }
        // An earlier row may still wait in the batch: write it before looking.
        if keys.mayRepeatFile { try flush() }
        let match = try duplicates.match(row.draft, keys: keys, in: connection) { ids.contains($0) }
        if match != nil { duplicates.rememberRepeat(keys) }
        guard let match else {
            pending.append(PendingRow(row: row, matchKey: matchKey, suspicion: []))
            summary.inserted += 1
            if pending.count == AlbumRepository.rowsPerInsert { try flush() }
            return
        }
        switch options.onConflict {
        case .skip:
            countDuplicate(match)
        case .fail:
            throw ImportError.conflict(conflict(line: row.line, with: match), existing: ids.contains(match.album.id) ? nil : match.album.id)
        case .update:
            if try update(match.album, with: row) { summary.updated += 1 } else { countDuplicate(match) }
        }
    }

    /// Checks the rows written as possible repeats against the rows before them, once the
    /// match-key index and (when a suspect's external id may repeat) a temporary external-id
    /// one are built, and then builds the rest.
    ///
    /// A repeat goes as it would have gone row by row: skipped, merged into the earlier row
    /// (`update`), or refusing the import (`fail`). Skipped and merged rows are deleted again
    /// before anyone saw them, all at the end: by id ranges. When they are many (a file
    /// repeating itself), with only the table and its position index (both in id order) left
    /// to keep, which then makes the bulk of the work; when few (the filter's false positives
    /// find none), the match-key index stays.
    ///
    /// A suspect is looked up only by what the filter says may repeat: a key or external id it
    /// surely lacks no earlier row had (nor, loaded, the library), so that lookup would find
    /// nothing.
    private func resolveSuspects(indexes: DeferredIndexes) throws {
        guard !suspects.isEmpty else {
            try indexes.restore(except: [], in: connection)
            return
        }
        try indexes.restore("albums_match_key", in: connection)
        // Not the unique index yet: the repeats are still there. For a few suspects (the
        // filter's rare false positives, a file with a repeat or two) a scan of the rows before
        // each costs less than building an index over the whole table.
        let externalIDIndex = suspects.count { $0.flags.contains(.externalID) } > Self.externalIDScansAtMost
        if externalIDIndex {
            try connection.execute(
                "CREATE INDEX albumstore_import_external_id ON albums(external_id) WHERE external_id IS NOT NULL")
        }
        var repeats = RowIDs()
        var repeatCount = 0
        // Albums already there that a row repeated: a later row repeating one again repeats a
        // row of the file too.
        var matchedStored = KeySet()
        for suspect in suspects {
            guard let row = try AlbumRepository.album(id: suspect.id)(connection) else { continue }
            // The earliest row still standing that it repeats (a repeat found earlier is no
            // longer there, as it would never have been written row by row).
            var earlier: Album?
            if suspect.flags.contains(.externalID), let externalID = row.externalID {
                earlier = try connection.query(
                    externalIDIndex
                        ? "SELECT \(Album.columns) FROM albums INDEXED BY albumstore_import_external_id WHERE external_id = ? AND id < ? ORDER BY id"
                        : "SELECT \(Album.columns) FROM albums WHERE external_id = ? AND id < ? ORDER BY id",
                    externalID, suspect.id, as: { try Album(row: $0) }
                ).first { !repeats.contains($0.id) }
            }
            if earlier == nil && suspect.flags.contains(.key) {
                let artist = FoldedText.fold(row.artist), title = FoldedText.fold(row.title)
                earlier = try connection.query(
                    "SELECT \(Album.columns) FROM albums WHERE match_key = ? AND id < ? ORDER BY id",
                    MatchKey.of(artist: row.artist, title: row.title), suspect.id, as: { try Album(row: $0) }
                ).first { !repeats.contains($0.id) && DuplicateFinder.isSame(row.draft, artist: artist, title: title, as: $0) }
            }
            guard let earlier else { continue }
            let added = ids.contains(earlier.id)
            let match = DuplicateFinder.Match(album: earlier, withinFile: added || matchedStored.contains(earlier.id))
            if !added { matchedStored.insert(earlier.id) }
            switch options.onConflict {
            case .fail:
                throw ImportError.conflict(conflict(line: suspect.line, with: match), existing: added ? nil : earlier.id)
            case .skip:
                countDuplicate(match)
            case .update:
                let given = ImportedRow(line: suspect.line, draft: row.draft, supplied: suspect.supplied, createdAt: nil,
                                        updatedAt: suspect.flags.contains(.updatedAtGiven) ? ISO8601Timestamp.milliseconds(of: row.updatedAt) : nil)
                if try update(earlier, with: given) { summary.updated += 1 } else { countDuplicate(match) }
            }
            summary.inserted -= 1
            repeats.insert(suspect.id...suspect.id)
            repeatCount += 1
        }
        suspects = []
        if externalIDIndex { try connection.execute("DROP INDEX albumstore_import_external_id") }
        // Many repeats: cheaper to delete them without the index and build it again (a sort)
        // than to take each out of it.
        let rebuildsKeyIndex = repeatCount > 0 && repeatCount >= max(1, ids.count / Self.repeatsToRebuildKeyIndex)
        if rebuildsKeyIndex { try connection.execute("DROP INDEX albums_match_key") }
        // Deleted while the change log is in bulk mode: no one ever sees them.
        try bulk?.catchUp()
        for range in repeats.ranges {
            try connection.run("DELETE FROM albums WHERE id BETWEEN ? AND ?", range.lowerBound, range.upperBound)
        }
        try indexes.restore(except: rebuildsKeyIndex ? [] : ["albums_match_key"], in: connection)
        if !repeats.isEmpty { ids = ids.removing(Array(repeats)) }
        try refreshPlannerStatistics()
    }

    /// Statistics for the indexes just built again: the catch-up before the deletions analyzed
    /// the table while they were set aside (without suspects the bulk insert's last catch-up
    /// comes after them), and without statistics SQLite takes the year index for a page of
    /// `year:1970..1979` in list order, sorting every match (measured on a million albums:
    /// 0.3 s, against 30 ms with them).
    private func refreshPlannerStatistics() throws {
        try PlannerStatistics().catchUp(inserted: ids, in: connection)
    }

    /// Suspects whose external id may repeat up to which each is looked up by a scan of the
    /// rows before it rather than through a temporary index.
    private static let externalIDScansAtMost = 4

    /// Repeats among the rows written from which the match-key index is dropped for their
    /// deletion and built again: one in 64.
    private static let repeatsToRebuildKeyIndex = 64

    /// Where and why a row refuses the import under `ConflictPolicy.fail`.
    private func conflict(line: Int, with match: DuplicateFinder.Match) -> ImportRejection {
        ImportRejection(
            file: summary.file, line: line, field: nil,
            reason: ids.contains(match.album.id)
                ? "repeats an earlier row (\(match.album.quoted))"
                : "the library already has \(match.album.quoted) (album \(match.album.id))")
    }

    private func countDuplicate(_ match: DuplicateFinder.Match) {
        summary.skippedDuplicates += 1
        if match.withinFile { summary.duplicatesWithinFile += 1 }
    }

    /// Changes `album` to the fields `row` supplies, in place; `false` when they are as stored.
    private func update(_ album: Album, with row: ImportedRow) throws -> Bool {
        var draft = album.draft
        let given = row.draft, supplied = row.supplied
        if supplied.contains(.title) { draft.title = given.title }
        if supplied.contains(.artist) { draft.artist = given.artist }
        if supplied.contains(.genre) { draft.genre = given.genre }
        if supplied.contains(.year) { draft.year = given.year }
        if supplied.contains(.coverURL) { draft.coverURL = given.coverURL }
        if supplied.contains(.externalID) { draft.externalID = given.externalID }
        let updatedAt = row.updatedAt ?? now
        guard draft != album.draft || (row.updatedAt != nil && row.updatedAt != ISO8601Timestamp.milliseconds(of: album.updatedAt)) else {
            return false
        }
        let matchKey = MatchKey.of(artist: draft.artist, title: draft.title)
        // An album this import added needs no record: undo deletes it whatever it holds.
        let recording = !ids.contains(album.id)
        if !recording { duplicates.rememberReplaced(of: album) }
        try bulk?.catchUp()
        if recording { recorder?.isEnabled = true }
        defer { if recording { recorder?.isEnabled = false } }
        try connection.run("""
            UPDATE albums SET title = ?, artist = ?, genre = ?, year = ?, cover_url = ?, external_id = ?,
                updated_at = max(?, created_at), match_key = ? WHERE id = ?
            """, draft.title, draft.artist, draft.genre, draft.year, draft.coverURL, draft.externalID,
            updatedAt, matchKey, album.id)
        duplicates.remember(matchKey: matchKey)
        return true
    }

    private func reject(_ rejection: ImportRejection, record: CatalogRecord, columns: [String]) throws {
        summary.rejected += 1
        if summary.rejections.count < ImportSummary.rejectionsKept { summary.rejections.append(rejection) }
        try rejects?.write(rejection, record: record, columns: columns)
        if options.invalidRows == .rejectFile {
            // The import will be rolled back: stop writing, keep reading for the other errors.
            writing = false
            pending.removeAll()
        }
    }

    // MARK: Writing

    private func batchInsert(rows: Int) throws -> Statement {
        guard rows == AlbumRepository.rowsPerInsert else {
            return try connection.cachedStatement(AlbumRepository.insertSQL(rows: rows))
        }
        if let fullBatchInsert { return fullBatchInsert }
        let statement = try connection.cachedStatement(AlbumRepository.insertSQL(rows: rows))
        fullBatchInsert = statement
        return statement
    }

    /// Writes the waiting rows with one multi-row INSERT.
    private func flush() throws {
        guard !pending.isEmpty else { return }
        guard Int128(nextPosition) + Int128(PositionKey.gap) * Int128(pending.count) < PositionKey.ceiling else {
            throw AlbumError.invalid(field: "position", reason: "no room for \(pending.count) albums after the last one")
        }
        let insert = try batchInsert(rows: pending.count)
        for (offset, pendingRow) in pending.enumerated() {
            let row = pendingRow.row
            let created = row.createdAt ?? now
            try AlbumRepository.bind(
                row.draft, id: firstID, position: nextPosition, created: created, updated: row.updatedAt ?? now,
                matchKey: pendingRow.matchKey, to: insert, row: offset)
            nextPosition += PositionKey.gap
            firstID = nil
        }
        try insert.run()
        // New rowids count up from the largest one, one statement at a time.
        let last = connection.lastInsertRowID
        let first = last - Int64(pending.count) + 1
        ids.insert(first...last)
        bulk?.inserted(first...last)
        for (offset, pendingRow) in pending.enumerated() where !pendingRow.suspicion.isEmpty {
            let row = pendingRow.row
            var flags = pendingRow.suspicion
            if row.updatedAt != nil { flags.insert(.updatedAtGiven) }
            suspects.append(Suspect(id: first + Int64(offset), line: row.line, supplied: row.supplied, flags: flags))
        }
        pending.removeAllKeepingCapacity()
    }
}

