import AlbumStore
import ArgumentParser
import Foundation

@main
struct AlbumStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albumstore",
        abstract: "A fast, scriptable music-album catalog in SQLite.",
        discussion: """
            Every command works on one library file: --db PATH, else $ALBUMSTORE_DB, else \
            $XDG_DATA_HOME/albumstore/library.sqlite (~/.local/share/albumstore/library.sqlite). \
            Only init and add create a missing library (and its folders, private: 0700). Commands \
            that only read (list, show, info, history, watch, check, backup) never write the file \
            and work on a read-only one.

            A failure is one plain line on stderr; --verbose (before or after the command name) \
            adds what SQLite said. Writers wait up to 5 s for another process's lock, or \
            $ALBUMSTORE_BUSY_TIMEOUT_MS milliseconds.

            Exit status: 0 on success, 1 on bad input or a failed operation, 2 on usage errors.
            """,
        version: AlbumStoreVersion.current,
        subcommands: [
            Init.self, Info.self, Add.self, Edit.self, Remove.self, Move.self, List.self, Show.self, Undo.self,
            Redo.self, History.self, Watch.self, Check.self, Backup.self,
        ]
    )

    /// Parses, runs, and maps failures to the exit codes the help promises.
    static func main() async {
        // A closed stdout then fails the write (EPIPE) instead of killing the process, and the
        // command ends quietly (see below).
        signal(SIGPIPE, SIG_IGN)
        var verbose = false
        do {
            var command = try parseAsRoot(arguments(CommandLine.arguments.dropFirst()))
            verbose = (command as? LibraryCommand)?.store.verbose ?? false
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(reporting: error, verbose: verbose)
        }
    }

    /// The arguments with a `--verbose` given before the command name moved after it, where
    /// the command's options take it: `albumstore --verbose list` is `albumstore list --verbose`.
    static func arguments(_ given: ArraySlice<String>) -> [String] {
        guard given.first == "--verbose", given.count > 1 else { return Array(given) }
        let rest = given.dropFirst()
        return [rest[rest.startIndex], "--verbose"] + rest.dropFirst()
    }

    /// Help, --version and a closed stdout exit 0; usage errors print the usage and exit 2;
    /// anything else is one line on stderr (two with `verbose` and SQLite's detail) and exit 1.
    static func exit(reporting error: Error, verbose: Bool) -> Never {
        // The reader of the output went away (`albumstore list | head -1`): it has what it wanted.
        if let error = error as? ByteSinkError, error == .brokenPipe { Foundation.exit(0) }
        let code = exitCode(for: error)
        if code == .success || error is ExitCode { exit(withError: error) }
        if code == .validationFailure {
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
        let lines = ErrorReport(error).lines(verbose: verbose)
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        Foundation.exit(1)
    }
}
