import AlbumStore
import Foundation
import Testing

/// `list` streams: on a long list the first line comes at once, a reader that stops early ends
/// it quietly, and memory does not grow with the list.
@Suite(.serialized)
struct StreamingOutputTests {
    let cli: CLI

    init() throws { cli = try CLI() }

    static let firstLines: [(format: String, starts: String)] = [
        ("csv", "index,id,title,artist,genre,year,cover_url,external_id,created_at,updated_at"),
        ("tsv", "index\tid\ttitle\tartist\tgenre\tyear\tcover_url\texternal_id\tcreated_at\tupdated_at"),
        ("ndjson", #"{"index":0,"id":1,"title":"Album Title 0","artist":"Artist 0","genre":"Rock","year":1950,"#),
        ("json", #"[{"index":0,"id":1,"title":"Album Title 0","artist":"Artist 0","genre":"Rock","year":1950,"#),
        // `#` as wide as the last index, 199999, from the first line on: the count tells it.
        ("table", "#       Artist  "),
    ]

    @Test(.tags(.slow), .disabledInQuickSuite, arguments: firstLines)
    func listPipedIntoHeadPrintsTheFirstLineAndEndsQuietly(format: String, starts: String) throws {
        let db = try LargeLibrary.path()
        // A real pipeline: `head -1` exits after one line, and albumstore's next write finds no reader.
        let pipeline = try BackgroundProcess(
            binary: URL(fileURLWithPath: "/bin/bash"),
            arguments: ["-c", #""$0" list --format "$1" | head -1; exit "${PIPESTATUS[0]}""#, cli.binary.path, format],
            environment: cli.environment.merging(["ALBUMSTORE_DB": db]) { $1 }, directory: cli.directory)

        let status = pipeline.exitStatus(timeout: .seconds(120))
        #expect(pipeline.wait { !pipeline.stdoutLines.isEmpty })

        #expect(status == 0)
        #expect(pipeline.stdoutLines.count == 1)
        #expect(pipeline.stdoutLines.first?.hasPrefix(starts) == true, "\(pipeline.stdoutLines.first ?? "nothing")")
        #expect(pipeline.stderrText == "")
    }

    @Test(.tags(.slow), .disabledInQuickSuite,
          .enabled(if: FileManager.default.isExecutableFile(atPath: CLI.time), "needs GNU time (apt-get install time)"))
    func listOfALongLibraryAsJSONKeepsItsMemoryBounded() throws {
        let db = try LargeLibrary.path()

        let run = try cli.runMeasuringPeakMemory(["list", "--format", "json"], environment: ["ALBUMSTORE_DB": db])

        #expect(run.status == 0)
        // About 25 MB here whatever the list's length (20 MB of it the Swift runtime and Foundation,
        // as for `--version`); the list held in memory took 450 MB for 1,000,000 albums.
        #expect(run.maxRSSKiB > 0)
        #expect(run.maxRSSKiB < 60 * 1024, "peak RSS \(run.maxRSSKiB) KiB")
    }

    @Test(.tags(.slow), .disabledInQuickSuite,
          .enabled(if: FileManager.default.isExecutableFile(atPath: CLI.time), "needs GNU time (apt-get install time)"))
    func theTableOfALongLibraryKeepsItsColumnsAndItsMemoryBounded() throws {
        let db = try LargeLibrary.path()

        let run = try cli.runMeasuringPeakMemory(["list"], environment: ["ALBUMSTORE_DB": db])
        let table = try cli.run(["list"], environment: ["ALBUMSTORE_DB": db])

        #expect(run.status == 0)
        #expect(run.maxRSSKiB < 60 * 1024, "peak RSS \(run.maxRSSKiB) KiB")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == LargeLibrary.albumCount + 1)
        // Rows long after the first 1,000 keep the `#` column the heading set.
        #expect(lines.first?.hasPrefix("#       Artist  ") == true)
        #expect(lines.last?.hasPrefix("199999  Artist 4999  Album Title 199999") == true, "\(lines.last ?? "")")
    }
}
