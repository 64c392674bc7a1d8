import Foundation
import Testing

/// A library on a full disk: a write says the disk is full, naming the file, and the commands
/// that only read still work (SQLite cannot grow its shared-memory file there).
@Suite(.enabled(if: FullDisk.isAvailable, FullDisk.reason))
struct FullDiskTests {
    @Test func aWriteSaysTheDiskIsFullAndReadsStillWork() throws {
        let cli = try CLI()
        let folder = cli.path("disk")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let db = folder + "/library.sqlite"

        let results = try FullDisk.run(
            cli, folder: folder, size: "8m",
            setUp: #""$ALBUMSTORE" --db "$FOLDER/library.sqlite" add --title Low --artist "David Bowie" >/dev/null"#,
            commands: [
                ["--db", db, "add", "--title", "Heroes", "--artist", "David Bowie"],
                ["--db", db, "list"],
                ["--db", db, "info"],
                ["--db", db, "check"],
                ["--db", db, "query", "artist:bowie", "--format", "ndjson"],
            ])

        expectRefused(results[0], saying: "cannot write to \(db): the disk is full")
        for result in results.dropFirst() {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr == "" || !result.stderr.contains("disk I/O error"), "\(result.stderr)")
        }
        #expect(results[1].stdout.contains("David Bowie  Low"), "\(results[1].stdout)")
        #expect(results[2].stdout.contains("Albums"), "\(results[2].stdout)")
        #expect(try decodeJSON(PrintedAlbum.self, from: results[4].stdout).title == "Low")
    }
}
