import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// The order statistics (`album_blocks`) equal a full count of the albums after every kind of
/// change, whoever makes it, and counts that may have missed writes are never used.
struct OrderStatisticsTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// A library of `count` albums "a0", "a1", ... appended in bulk: several blocks.
    func library(_ count: Int = 20_000, name: String = "library.sqlite") throws -> Library {
        let library = try Library.open(at: directory.file(name))
        try library.albums.append(contentsOf: (0..<count).map { AlbumDraft(title: "a\($0)", artist: "Artist \($0 % 13)") })
        return library
    }

    /// Expects `album(at:)`, `index(of:)` and `page(offset:limit:)` to agree with `titles`, at
    /// indexes spread over the list and at both ends.
    func expectLookups(_ library: Library, match titles: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try library.albums.count() == titles.count, sourceLocation: sourceLocation)
        for index in Array(stride(from: 0, to: titles.count, by: 1_777)) + [titles.count - 1] {
            let album = try library.albums.album(at: index)
            #expect(album.title == titles[index], sourceLocation: sourceLocation)
            #expect(try library.albums.index(of: album.id) == index, sourceLocation: sourceLocation)
        }
        let middle = titles.count / 2
        #expect(try library.albums.page(offset: middle, limit: 3).map(\.album.title) == Array(titles[middle..<middle + 3]),
                sourceLocation: sourceLocation)
    }

    @Test func theIDsFromAnIndexAreFoundFromEitherEndOfItsBlock() throws {
        let library = try library()
        // Blocks of different sizes: inserts into the second, deletes from the third.
        for number in 0..<300 { try library.albums.insert(.sample("in \(number)"), at: 5_000 + number) }
        for _ in 0..<200 { try library.albums.delete(at: 10_000) }
        let ids = try library.albums.page().map(\.album.id)
        let blocks = try BlockCounts(path: library.path).stored
        #expect(blocks.count >= 4 && Set(blocks.map(\.count)).count > 1)
        // Every block's first and last rows, the rows around its middle, and a stride.
        var starts: [Int] = [0]
        for block in blocks.dropLast() { starts.append(starts.last! + block.count) }
        var indexes = Array(stride(from: 0, to: ids.count, by: 997)) + [ids.count - 1]
        for (start, block) in zip(starts, blocks) {
            indexes += [start, start + 1, start + block.count / 2 - 1, start + block.count / 2, start + block.count / 2 + 1,
                        start + block.count - 2, start + block.count - 1]
        }
        for exact in [false, true] {
            let found = try library.read { connection in
                let order = try OrderStatistics(in: connection, exact: exact)
                return try indexes.map { try order.id(at: $0) }
            }
            #expect(found == indexes.map { ids[$0] }, "exact: \(exact)")
            // Runs of one to three rows, also those that reach into the next block or past the end.
            for limit in 1...3 {
                let runs = try library.read { connection in
                    let order = try OrderStatistics(in: connection, exact: exact)
                    return try indexes.map { try order.keys(from: $0, limit: limit).map(\.id) }
                }
                #expect(runs == indexes.map { Array(ids[$0..<min(ids.count, $0 + limit)]) }, "exact: \(exact), limit \(limit)")
            }
        }
    }

    @Test func aBulkAppendIsCutIntoBlocksOfTheirSize() throws {
        let library = try library()
        try expectOrderStatisticsMatchTheTable(library)
        #expect(try BlockCounts(path: library.path).stored.count == 20_000 / OrderBlocks.size + 1)
        try expectLookups(library, match: (0..<20_000).map { "a\($0)" })
    }

    @Test(.tags(.slow), .disabledInQuickSuite)
    func everyKindOfChangeAndItsUndoAndRedoKeepTheCountsEqualToAFullCount() throws {
        let library = try library()
        var titles = (0..<20_000).map { "a\($0)" }
        var states = [titles]
        let changes: [(String, () throws -> Void)] = [
            ("append", { try library.albums.append(.sample("end")); titles.append("end") }),
            ("insert at the front", { try library.albums.insert(.sample("front"), at: 0); titles.insert("front", at: 0) }),
            ("insert in the middle", { try library.albums.insert(.sample("mid"), at: 9_000); titles.insert("mid", at: 9_000) }),
            ("move forward across blocks", {
                let album = try library.albums.album(at: 100)
                try library.albums.move(id: album.id, to: 15_000)
                titles.insert(titles.remove(at: 100), at: 15_000)
            }),
            ("move back", {
                let album = try library.albums.album(at: -1)
                try library.albums.move(id: album.id, to: 3)
                titles.insert(titles.remove(at: titles.count - 1), at: 3)
            }),
            ("delete at", { try library.albums.delete(at: 12_345); titles.remove(at: 12_345) }),
            ("delete by id", {
                let album = try library.albums.album(at: 4_096)
                try library.albums.delete(id: album.id)
                titles.remove(at: 4_096)
            }),
            ("edit", {
                let album = try library.albums.album(at: 7)
                try library.albums.update(id: album.id) { $0.title = "edited" }
                titles[7] = "edited"
            }),
            ("bulk append", {
                try library.albums.append(contentsOf: (0..<9_000).map { AlbumDraft(title: "b\($0)", artist: "B") })
                titles += (0..<9_000).map { "b\($0)" }
            }),
        ]
        for (name, change) in changes {
            try change()
            states.append(titles)
            try expectOrderStatisticsMatchTheTable(library, "after \(name)")
            try expectLookups(library, match: titles)
        }
        for (name, _) in changes.reversed() {
            try library.undo()
            states.removeLast()
            try expectOrderStatisticsMatchTheTable(library, "after undoing \(name)")
            #expect(try library.titles() == states.last, "after undoing \(name)")
        }
        try expectLookups(library, match: states[0])
        for (name, _) in changes {
            try library.redo()
            try expectOrderStatisticsMatchTheTable(library, "after redoing \(name)")
        }
        try expectLookups(library, match: titles)
    }

    @Test func manyInsertsAtOneIndexSpreadKeysAndKeepTheCounts() throws {
        let library = try library(9_000)
        var titles = (0..<9_000).map { "a\($0)" }
        // 32 halvings use up a gap, then a window around it is spread out again.
        for number in 0..<80 {
            try library.albums.insert(.sample("n\(number)"), at: 4_100)
            titles.insert("n\(number)", at: 4_100)
        }
        try expectOrderStatisticsMatchTheTable(library)
        try expectLookups(library, match: titles)
    }

    @Test(.tags(.slow), .disabledInQuickSuite)
    func anImportItsUndoAndRedoKeepTheCounts() throws {
        let library = try library(5_000)
        let csv = "title,artist\n" + (0..<12_000).map { "i\($0),Importer \($0 % 17)\n" }.joined()
        try library.importText(csv)
        // The import set the insert trigger aside and counted the rows in bulk: it is back as generated.
        #expect(try ChangeLogTriggerInstaller().plan(in: Connection(path: library.path)).isEmpty)
        try expectOrderStatisticsMatchTheTable(library, "after the import")
        try expectLookups(library, match: (0..<5_000).map { "a\($0)" } + (0..<12_000).map { "i\($0)" })
        try library.undo()
        try expectOrderStatisticsMatchTheTable(library, "after its undo")
        try expectLookups(library, match: (0..<5_000).map { "a\($0)" })
        try library.redo()
        try expectOrderStatisticsMatchTheTable(library, "after its redo")
    }

    @Test func anOutsideWriterIsCountedByTheTriggersAndTheNextCommandTidiesTheBlocks() throws {
        let library = try library()
        // The sqlite3 shell, with SQLite's defaults: a block grows past its size, most of the
        // list goes, a move across blocks.
        try SQLiteShell.run("""
            INSERT INTO albums (position, title, artist, created_at, updated_at)
                SELECT position + 1, 'shell ' || id, 'Shell', 0, 0 FROM albums WHERE id <= 10000;
            DELETE FROM albums WHERE id BETWEEN 12000 AND 19000;
            UPDATE albums SET position = -5 WHERE id = 11000;
            """, on: library.path)
        try expectOrderStatisticsMatchTheTable(library, balanced: false)
        let titles = try library.albums.page().map(\.album.title)
        #expect(titles.count == 22_999)
        try expectLookups(library, match: titles)

        try library.albums.append(.sample("end"))
        try expectOrderStatisticsMatchTheTable(library)
        try expectLookups(library, match: titles + ["end"])
    }

    @Test func countsThatMissedWritesBehindADroppedTriggerAreNotUsedThenRebuilt() throws {
        let library = try library()
        // Dropped, written around, and put back exactly as generated: only the schema version shows it.
        let insertTrigger = OrderStatisticsTriggers(table: "albums", order: .albums).trigger(for: .insert).sql
        try SQLiteShell.run("""
            DROP TRIGGER albums_order_insert;
            INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (-1, 'sneaked in', 'Shell', 0, 0);
            \(insertTrigger);
            """, on: library.path)
        let titles = ["sneaked in"] + (0..<20_000).map { "a\($0)" }
        #expect(try !BlockCounts(path: library.path).areChecked)

        // The open library, a read-only one, and a fresh process all answer from the table.
        try expectLookups(library, match: titles)
        let reader = try Library.open(at: URL(fileURLWithPath: library.path), configuration: .init(access: .readOnly))
        try expectLookups(reader, match: titles)
        #expect(try !BlockCounts(path: library.path).areChecked)

        // The next command rebuilds them, and uses them at once.
        try library.albums.insert(.sample("end"), at: 20_001)
        try expectOrderStatisticsMatchTheTable(library)
        try expectLookups(library, match: titles + ["end"])
    }

    @Test func aCommandRebuildsUncheckedCountsBeforeItsBodyAndUsesThem() throws {
        let library = try library()
        try SQLiteShell.run("DROP TRIGGER albums_order_update; UPDATE albums SET position = -1 WHERE id = 20000;", on: library.path)
        #expect(try library.read { try OrderStatistics(in: $0).isExact })

        let usesTheCounts = try library.perform { command in (try !command.order().isExact, "") }
        #expect(usesTheCounts)
        #expect(try library.albums.album(at: 0).title == "a19999")
        // The dropped trigger is back: later moves are counted.
        #expect(try ChangeLogTriggerInstaller().plan(in: Connection(path: library.path)).isEmpty)
        let album = try library.albums.album(at: 5)
        try library.albums.move(id: album.id, to: 15_000)
        try expectOrderStatisticsMatchTheTable(library)
        #expect(try library.albums.index(of: album.id) == 15_000)
    }

    @Test func openingForWritingRebuildsCountsThatMissedWrites() throws {
        let url = directory.file("library.sqlite")
        _ = try library()
        try SQLiteShell.run("""
            DROP TRIGGER albums_order_delete;
            DELETE FROM albums WHERE id % 3 = 0;
            """, on: url.path)
        let reopened = try Library.open(at: url)
        #expect(try ChangeLogTriggerInstaller().plan(in: Connection(path: url.path)).isEmpty, "the trigger is back")
        try expectOrderStatisticsMatchTheTable(reopened)
        try expectLookups(reopened, match: (0..<20_000).filter { ($0 + 1) % 3 != 0 }.map { "a\($0)" })
    }

    @Test func theMigrationBuildsTheCountsOfAnExistingLibrary() throws {
        let url = directory.file("former.sqlite")
        let former = Array(Migration.embedded.prefix { $0.version < 6 })
        let old = try Library.open(at: url, migrator: Migrator(migrations: former))
        let connection = try Connection(path: url.path)
        try connection.transaction {
            for number in 0..<10_000 {
                try connection.run(
                    "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (?, ?, 'A', 0, 0)",
                    Int64(number) << 32, "a\(number)")
            }
        }
        _ = old

        let library = try Library.open(at: url)
        try expectOrderStatisticsMatchTheTable(library)
        try expectLookups(library, match: (0..<10_000).map { "a\($0)" })
    }

    /// Whether the ids held for blocks (`BlockIDs`, as navigation writes use them, here with room
    /// for `limit` ids) find every album at its index, and every index of an album.
    @Test(.tags(.slow), .disabledInQuickSuite, arguments: [BlockIDs.init(), BlockIDs(limit: 5_000)])
    func heldBlockIDsFindEveryRowAndEveryIndexAsTheTableHasThem(ids: BlockIDs) throws {
        // Runs of shared keys (another program's), one longer than a block, a text key and a real one.
        let library = try library(12_000)
        try SQLiteShell.run("""
            UPDATE albums SET position = (SELECT position FROM albums WHERE id = 3000) WHERE id BETWEEN 3000 AND 3100;
            UPDATE albums SET position = (SELECT position FROM albums WHERE id = 5000) WHERE id BETWEEN 5000 AND 9500;
            UPDATE albums SET position = 'text' WHERE id = 11000;
            UPDATE albums SET position = position + 0.5 WHERE id = 700;
            """, on: library.path)
        try library.albums.insert(.sample("in between"), at: 100)   // the next command tidies the blocks
        let rows = try library.read { connection in
            // The text key's index is not asked for: a key is an integer.
            try connection.query("""
                SELECT id, CASE typeof(position) WHEN 'integer' THEN position END FROM albums ORDER BY position, id
                """) {
                (id: try $0[0, as: Int64.self], position: try $0[1, as: Int64?.self])
            }
        }
        let scattered = rows.indices.map { $0 * 7_919 % rows.count }
        let (found, indexes) = try library.read { connection in
            let (blocks, count) = try #require(try OrderStatistics.load(in: connection))
            #expect(blocks.count >= 3)
            let order = OrderStatistics(in: connection, loaded: blocks, count: count, ids: ids)
            // Forwards, from the end, and 7,919 rows apart (each block read from both ends until
            // they meet): each block read, and (with little room) dropped, three times.
            let found = try (rows.indices.map { try order.id(at: $0) }, rows.indices.reversed().map { try order.id(at: $0) },
                             scattered.map { try order.id(at: $0) })
            let indexes = try rows.compactMap { row in try row.position.map { try order.index(of: $0, id: row.id) } }
            return (found, indexes)
        }
        #expect(found.0 == rows.map(\.id))
        #expect(found.1 == rows.reversed().map(\.id))
        #expect(found.2 == scattered.map { rows[$0].id })
        #expect(indexes == rows.indices.filter { rows[$0].position != nil })
    }

    @Test func keysAtTheLimitsOfTheRangeAndSharedKeysAreCounted() throws {
        // 8,401 albums on one key: a block that cannot be cut below twice its size.
        let library = try library(9_000)
        try SQLiteShell.run("""
            INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES
                (9223372036854775807, 'top', 'S', 0, 0), (-9223372036854775808, 'bottom', 'S', 0, 0);
            UPDATE albums SET position = 7 WHERE id BETWEEN 100 AND 8500;
            """, on: library.path)
        try library.albums.append(.sample("after the top"))   // no key after the top: the end is spread
        let titles = try library.albums.page().map(\.album.title)
        #expect(titles.first == "bottom")
        #expect(titles.last == "after the top")
        try expectOrderStatisticsMatchTheTable(library, balanced: false)
        try expectLookups(library, match: titles)
    }
}

/// A bulk insert's catch-up counts its rows into their blocks, appended or not.
struct OrderStatisticsCatchUpTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Inserts `keys` with the insert trigger aside, as a bulk insert does, then catches up.
    func bulkInsert(_ keys: [Int64], into library: Library) throws {
        try library.database.write { connection in
            try connection.execute("DROP TRIGGER albums_order_insert")
            var ids = RowIDs()
            for key in keys {
                try connection.run(
                    "INSERT INTO albums (position, title, artist, created_at, updated_at) VALUES (?, 'bulk', 'B', 0, 0)", key)
                ids.insert(connection.lastInsertRowID...connection.lastInsertRowID)
            }
            try OrderBlocks.albums.catchUp(inserted: ids, in: connection)
            try connection.execute(OrderStatisticsTriggers(table: "albums", order: .albums).trigger(for: .insert).sql)
            try OrderBlocks.albums.finish(in: connection)
        }
    }

    @Test(.tags(.slow), .disabledInQuickSuite, arguments: ["appended", "in between", "appended out of order"])
    func theCountsEqualAFullCountAfterACatchUp(_ kind: String) throws {
        let library = try Library.open(at: directory.file("library.sqlite"))
        try library.albums.append(contentsOf: (0..<10_000).map { AlbumDraft(title: "a\($0)", artist: "A") })
        let top = Int64(10_000) << 32
        let keys: [Int64] = switch kind {
        case "appended": (1...9_000).map { top + Int64($0) }
        case "in between": (0..<9_000).map { Int64($0) << 32 + 5 }
        default: (1...9_000).reversed().map { top + Int64($0) }
        }
        try bulkInsert(keys, into: library)
        try expectOrderStatisticsMatchTheTable(library, "\(kind)")
        #expect(try library.albums.count() == 19_000)
    }
}

/// `check` compares the order statistics with a full count.
struct OrderStatisticsCheckTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    /// Migration 0010: the total of the counts, kept so a command reads one row instead of
    /// summing every block; a library migrated from schema 9 gets it right, and `check` tells
    /// a total another program edited.
    @Test func theKeptTotalIsRightAfterMigratingAndAnEditedOneIsAProblem() throws {
        let url = directory.file("library.sqlite")
        let older = Migrator(migrations: Array(Migration.embedded.prefix { $0.version < 10 }))
        do {
            // Albums written before the counts existed (schema 5), counted by migration 0006.
            _ = try Library.open(at: url, migrator: Migrator(migrations: Array(Migration.embedded.prefix { $0.version < 6 })))
            try FormerLibrary.append((0..<9_000).map { AlbumDraft(title: "a\($0)", artist: "A") }, to: url)
            try Connection(path: url.path).execute("""
                INSERT INTO albums (position, title, artist, created_at, updated_at, match_key)
                    VALUES (\(4_499 * PositionKey.gap + PositionKey.gap / 2), 'in the middle', 'Artist', 0, 0,
                            \(MatchKey.of(artist: "Artist", title: "in the middle")));
                DELETE FROM albums WHERE position = \(10 * PositionKey.gap);
                """)
            let library = try Library.open(at: url, migrator: older)
            #expect(try library.albums.count() == 9_000)
            #expect(try library.albums.album(at: 4_499).title == "in the middle")
            #expect(try BlockCounts(path: url.path).storedTotal == nil, "schema 9 keeps no total")
        }
        do {
            let library = try Library.open(at: url)
            try expectOrderStatisticsMatchTheTable(library, "after migrating")
            try library.albums.insert(.sample("another"), at: 100)
            try library.albums.move(id: try library.albums.album(at: 0).id, to: 8_000)
            try library.albums.delete(at: 5)
            try library.undo()
            try library.undo()
            try expectOrderStatisticsMatchTheTable(library, "after commands and undos")
            #expect(try library.albums.count() == 9_001)
        }
        #expect(try Library.check(at: url).isEmpty)

        try SQLiteShell.run("UPDATE album_blocks_total SET total = total + 2", on: url.path)
        let problems = try Library.check(at: url)
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("total is 9003 but there are 9001 albums") == true)
        try SQLiteShell.run("UPDATE album_blocks_checked SET schema_version = 0", on: url.path)
        let library = try Library.open(at: url)
        try library.albums.append(.sample("after"))
        #expect(try Library.check(at: url).isEmpty)
        try expectOrderStatisticsMatchTheTable(library, "after the counts were made again")
    }

    @Test func countsEditedByAnotherProgramAreAProblemAndTheAdviceRepairsThem() throws {
        let url = directory.file("library.sqlite")
        do {
            let library = try Library.open(at: url)
            try library.albums.append(contentsOf: (0..<9_000).map { AlbumDraft(title: "a\($0)", artist: "A") })
        }
        #expect(try Library.check(at: url).isEmpty)

        try SQLiteShell.run("UPDATE album_blocks SET count = count + 3 WHERE first = (SELECT max(first) FROM album_blocks)", on: url.path)
        let problems = try Library.check(at: url)
        #expect(problems.count == 1)
        #expect(problems.first?.area == .albums)
        #expect(problems.first?.message.contains("1 block of the order statistics disagree with the albums") == true)

        try SQLiteShell.run("UPDATE album_blocks_checked SET schema_version = 0", on: url.path)
        let library = try Library.open(at: url)
        try library.albums.append(.sample("after"))
        #expect(try Library.check(at: url).isEmpty)
        try expectOrderStatisticsMatchTheTable(library)
    }
}
