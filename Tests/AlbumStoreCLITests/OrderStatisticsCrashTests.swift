import AlbumStore
import Foundation
import Testing

/// A process killed in the middle of a transaction leaves the order statistics equal to a full
/// count: they are written in the same transaction as the rows, so they roll back together.
struct OrderStatisticsCrashTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    /// What the `sqlite3` shell says of the file: whether the counts are marked right at its
    /// schema version, how many blocks disagree with a full count, whether their sum is the
    /// number of albums, and how many order triggers there are. A sound file says "1|0|1|3".
    private func statistics() throws -> String {
        try SQLiteShell.run("""
            SELECT (SELECT schema_version FROM album_blocks_checked) = (SELECT schema_version FROM pragma_schema_version),
                (SELECT count(*) FROM (SELECT first, count, lead(first) OVER (ORDER BY first) AS next FROM album_blocks) AS b
                 WHERE count <> (SELECT count(*) FROM albums WHERE position >= b.first AND (b.next IS NULL OR position < b.next))),
                (SELECT total(count) FROM album_blocks) = (SELECT count(*) FROM albums),
                (SELECT count(*) FROM sqlite_schema WHERE type = 'trigger' AND name GLOB 'albums_order_*');
            """, on: store.db).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private var walSize: Int {
        ((try? FileManager.default.attributesOfItem(atPath: store.db + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test(.tags(.slow), .disabledInQuickSuite)
    func anImportKilledMidTransactionLeavesTheCountsRight() throws {
        do {
            let library = try Library.open(at: URL(fileURLWithPath: store.db))
            try library.albums.append(contentsOf: (0..<20_000).map { AlbumDraft(title: "Album \($0)", artist: "Artist") })
        }
        #expect(try statistics() == "1|0|1|3")
        let catalog = store.cli.path("big.csv")
        try Data(("title,artist\n" + (0..<400_000).map { "Imported \($0),Importer \($0 % 97)\n" }.joined()).utf8)
            .write(to: URL(fileURLWithPath: catalog))
        let walBefore = walSize

        let importer = try BackgroundProcess(
            binary: store.cli.binary, arguments: ["import", catalog, "--db", store.db],
            environment: store.cli.environment, directory: store.cli.directory)
        // Rows are going in (the log grows) but the one transaction has not committed.
        #expect(importer.wait(timeout: .seconds(60)) { walSize > walBefore + 4_000_000 })
        #expect(importer.killHard())

        #expect(try statistics() == "1|0|1|3")
        #expect(try store.run("info", "--format", "json").stdout.contains(#""album_count":20000"#))
        let last = try store.run("list", "--offset", "19999", "--format", "ndjson")
        #expect(last.stdout.contains(#""title":"Album 19999""#))
        #expect(last.stdout.split(separator: "\n").count == 1)
    }

    @Test(.tags(.slow), .disabledInQuickSuite)
    func anUndoOfAnImportKilledMidTransactionLeavesTheCountsRight() throws {
        try store.add("First")
        let catalog = store.cli.path("big.csv")
        try Data(("title,artist\n" + (0..<300_000).map { "Imported \($0),Importer \($0 % 97)\n" }.joined()).utf8)
            .write(to: URL(fileURLWithPath: catalog))
        #expect(try store.run("import", catalog).status == 0)
        #expect(try store.run("check").status == 0)   // a checkpoint: the log starts again
        let walBefore = walSize

        // The undo deletes the imported rows one by one through the delete triggers.
        let undo = try BackgroundProcess(
            binary: store.cli.binary, arguments: ["undo", "--db", store.db],
            environment: store.cli.environment, directory: store.cli.directory)
        #expect(undo.wait(timeout: .seconds(60)) { walSize > walBefore + 4_000_000 })
        #expect(undo.killHard())

        #expect(try statistics() == "1|0|1|3")
        #expect(try store.run("info", "--format", "json").stdout.contains(#""album_count":300001"#))
    }
}
