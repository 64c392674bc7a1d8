import Foundation
import Testing

/// Output that cannot be written is a failure, exit 1 with one line on stderr; a reader that went
/// away is not one: exit 0, quietly. For every command that prints, in every format.
struct OutputErrorTests {
    let store: AlbumStoreFixture

    static let formats = ["table", "json", "ndjson", "csv", "tsv"]
    /// Every command that writes to stdout, in each of its formats.
    static let printing: [[String]] =
        formats.map { ["list", "--format", $0] }
        + formats.map { ["show", "1", "--format", $0] }
        + formats.map { ["history", "--format", $0] }
        + formats.map { ["add", "--title", "New", "--artist", "Someone", "--format", $0] }
        + formats.map { ["edit", "1", "--year", "1999", "--format", $0] }
        + [["info"], ["info", "--format", "json"], ["init"], ["watch", "--since", "0", "--once"]]
        + [["--help"], ["query", "--help"], ["state", "--help"], ["--version"], ["help", "covers"]]

    init() throws {
        store = try AlbumStoreFixture()
        try store.add(titles: ["Low", "Heroes", "Lodger"])
    }

    @Test(.tags(.slow), .disabledInQuickSuite, .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")), arguments: printing)
    func aFullDiskIsExitOneWithOneLine(arguments: [String]) throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))

        let result = try store.cli.run(arguments, stdout: full)

        #expect(result.status == 1)
        #expect(result.stderr == "albumstore: cannot write the output: No space left on device (errno 28)\n")
    }

    @Test(.tags(.slow), .disabledInQuickSuite, arguments: printing)
    func aReaderThatIsGoneIsExitZeroAndQuiet(arguments: [String]) throws {
        // Nobody reads the pipe: its read end is closed before the command starts, so even a
        // short output finds no reader.
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()

        let result = try store.cli.run(arguments, stdout: pipe.fileHandleForWriting)

        #expect(result.status == 0)
        #expect(result.stderr == "")
    }
}
