import AlbumStore
import ArgumentParser
import Foundation

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the changes any process commits to the library, as they happen.",
        discussion: """
            Each line starts with its cursor: `--since CURSOR` resumes right after it, missing and \
            repeating nothing. Stops with Ctrl-C or when the reader of its output goes away (exit 0).

            Examples:
              albumstore watch
              albumstore watch --since 1200 --format ndjson | jq .tables.albums
              albumstore watch --since 1200 --once    # what came after 1200, then exit
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: "Print the changes after this cursor first (default: only new changes).") var since: Int64?
    @Option(help: "Output format: table (one readable line a change set) or ndjson.") var format: WatchFormat = .table
    @Flag(help: "Exit after printing what is there after --since, or else the next change set.") var once = false

    func run() async throws {
        let library = try store.openLibrary(.readOnly)
        Output.exitQuietlyOnInterruptAndClosedPipe()
        var feed = library.changeFeed(since: since).makeAsyncIterator()
        if once {
            let backlog = try feed.backlog()
            if !backlog.isEmpty { return try backlog.forEach(write) }
        } else {
            inform("Watching \(library.path) (Ctrl-C to stop)")
        }
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
