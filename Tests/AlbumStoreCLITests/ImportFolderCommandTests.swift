import Foundation
import TestSupport
import Testing

/// `albumstore import FOLDER` on a music folder made by ffmpeg and mutagen: what it prints, what
/// it refuses, and its rejects file.
struct ImportFolderCommandTests {
    let store: AlbumStoreFixture
    let tree: MusicTree

    init() throws {
        store = try AlbumStoreFixture()
        tree = try MusicTree()
    }

    @Test func aDryRunListsTheAlbumsAndWhyOnStdoutAndChangesNothing() throws {
        let before = try store.snapshot()
        let result = try store.cli.run(["import", tree.root.path, "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Grouped by"))
        #expect(result.stdout.contains("2 discs in subfolders CD1, CD2"))
        #expect(result.stdout.contains("a compilation (its flag): Various Artists"))
        #expect(result.stderr.contains("Dry run of \(tree.root.path), nothing changed"))
        #expect(try store.snapshot() == before)
    }

    @Test func anImportNamesEachBadFileOnStderrAndInTheRejectsFile() throws {
        let rejects = store.cli.path("rejects.csv")
        let result = try store.cli.run(["import", tree.root.path, "--rejects", rejects])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: rejects, encoding: .utf8)
        for rejected in tree.expected.rejected {
            #expect(result.stderr.contains(tree.path(rejected.path) + ": "), "\(rejected.path) not named")
            #expect(written.contains(tree.path(rejected.path)), "\(rejected.path) not in the rejects file")
        }
        #expect(result.stderr.contains("\(tree.expected.albums.count + 1) albums added"))
        let again = try store.cli.run(["import", tree.root.path])
        #expect(again.stderr.contains("(0 read), 0 albums added, \(tree.expected.albums.count + 1) unchanged"))
    }

    @Test func catalogOptionsAreRefusedForAFolder() throws {
        let result = try store.cli.run(["import", tree.root.path, "--format", "csv"])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("\(tree.root.path): is a music folder: --format applies to a catalog file\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func folderOptionsAreRefusedForAFile() throws {
        let file = store.cli.path("albums.csv")
        try "title,artist\nLow,David Bowie\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try store.cli.run(["import", file, "--prune"])
        #expect(result.status == 1)
        #expect(result.stderr.hasSuffix("\(file): is a file: --prune and --at apply to a music folder\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func undoTakesTheWholeImportBack() throws {
        try store.add("Homogenic", by: "Björk")
        let before = try store.cli.run(["list", "--format", "json"]).stdout
        #expect(try store.cli.run(["import", tree.root.path]).status == 0)
        let undo = try store.cli.run(["undo"])
        #expect(undo.status == 0)
        #expect(undo.stderr.contains("import folder Music"))
        #expect(try store.cli.run(["list", "--format", "json"]).stdout == before)
    }
}
