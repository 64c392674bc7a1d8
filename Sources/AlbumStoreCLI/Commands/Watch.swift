import AlbumStore
import ArgumentParser
import FoundationEssentials

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print the changes any process commits to the library, as they happen.",
        discussion: """
            Each line starts with its cursor: `--since CURSOR` resumes right after it, missing and \
            repeating nothing. A negative --since counts change sets back from the newest: \
            `--since -1` prints the newest one first. A cursor the log has not reached is an error.

            Stops with Ctrl-C or when the reader of its output goes away, even while idle (exit 0); \
            when the library file is deleted or replaced by another, says so and exits 1. Idle, it \
            sleeps until a file of the library is written (Linux), else looks 10 times a second.

            Examples:
              albumstore watch
              albumstore watch --since 1200 --format ndjson | jq .tables.albums
              albumstore watch --since 1200 --once    # what came after 1200, then exit
              albumstore watch --since -5 --once      # the last 5 change sets
            """)

    @OptionGroup var store: StoreOptions
    // .unconditional: `--since -1` is a value, not an option named `-1`.
    @Option(parsing: .unconditional,
            help: "Print the changes after this cursor first (-N: the last N change sets; default: only new changes).")
    var since: Int64?
    @Option(help: "Output format: table (one readable line a change set) or ndjson.") var format: WatchFormat = .table
    @Flag(help: "Exit after printing what is there after --since, or else the next change set.") var once = false

    func run() async throws {
        let library = try store.openLibrary(.readOnly)
        Output.exitQuietlyOnInterruptAndClosedPipe()
        var feed = library.changeFeed(since: since).makeAsyncIterator()
        // First what is there already: a bad cursor fails here, before "Watching".
        let backlog = try feed.backlog()
        try backlog.forEach(write)
        if once && !backlog.isEmpty { return }
        if !once { inform("Watching \(library.path) (Ctrl-C to stop)") }
        StdoutReader.exitWhenGone()
        while let set = try await feed.next() {
            try write(set)
            if once { return }
        }
    }

    private func write(_ set: ChangeSet) throws {
        Output.writeLine(try ChangeSetLine.render(set, as: format))
    }
}

extension WatchFormat: ExpressibleByArgument {}
