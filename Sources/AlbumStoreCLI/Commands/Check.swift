import AlbumStore
import ArgumentParser
import FoundationEssentials

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify the library file: SQLite's integrity and AlbumStore's own rules.",
        discussion: """
            Runs SQLite's integrity and foreign-key checks, then checks that every album has a \
            position key of its own, every history entry can be read back, the change log is \
            numbered consistently and the change-log triggers are all there. Reads only, and \
            also works on a file other commands refuse (damaged, older).

            A sound library prints `PATH: ok` and exits 0. Otherwise each problem is one line on \
            stdout, `PATH: AREA: PROBLEM`, and a count goes to stderr, exit 1. A problem in area \
            `file` means the file is damaged: restore a backup. Missing or edited triggers are \
            reinstalled by any writing command.

            Examples:
              albumstore check
              albumstore check --db ~/music/library.sqlite && albumstore backup ~/backups/library.sqlite
            """)

    @OptionGroup var store: StoreOptions

    func run() throws {
        let path = store.path
        let problems = try Library.check(at: URL(fileURLWithPath: path), busyTimeout: try store.busyTimeout)
        // The path and a problem (which may quote a key) are shown as tables show data.
        let shown = TerminalEscaping.escaped(path)
        guard !problems.isEmpty else { return print("\(shown): ok") }
        for problem in problems { print("\(shown): \(TerminalEscaping.escaped("\(problem)"))") }
        throw ProblemsFound(path: path, count: problems.count)
    }

    /// The one line on stderr after the problems, on stdout, and exit 1.
    struct ProblemsFound: Error, CustomStringConvertible {
        var path: String
        var count: Int
        var description: String { "\(path): \(Counted(count, "problem")) found (listed on stdout)" }
    }
}
