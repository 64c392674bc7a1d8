import AlbumStore
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct AlbumStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albumstore",
        abstract: "A fast, scriptable music-album catalog in SQLite.",
        discussion: """
            Every command works on one library file: --db PATH, else $ALBUMSTORE_DB, else \
            $XDG_DATA_HOME/albumstore/library.sqlite (~/.local/share/albumstore/library.sqlite). \
            Only init, add and import (not --dry-run) create a missing library (and its folders, \
            private: 0700). Commands that only read (list, show, query, stats, export, info, history, watch, check, backup) never write the file \
            and work on a read-only one.

            Global options go before or after the command name: albumstore --db lib.sqlite list \
            is albumstore list --db lib.sqlite. A failure is one plain line on stderr; --verbose \
            adds what SQLite said. Writers wait up to 5 s for another process's lock, or \
            $ALBUMSTORE_BUSY_TIMEOUT_MS milliseconds.

            Exit status: 0 on success, 1 on bad input or a failed operation, 2 on usage errors.
            """,
        version: Library.version,
        subcommands: [
            Init.self, Info.self, Add.self, Edit.self, Remove.self, Move.self, List.self, Show.self, Undo.self,
            Redo.self, History.self, Watch.self, Check.self, Backup.self, Import.self, Export.self, Query.self, Fields.self, Stats.self,
            State.self, Covers.self, Enrich.self, Serve.self,
        ]
    )

    /// --db and --verbose before the command's name (`albumstore --db lib.sqlite list`): ArgumentParser
    /// reads the root's options anywhere on the line, and hands them to each command's own
    /// `StoreOptions`, which is the same type.
    @OptionGroup var store: StoreOptions

    /// Parses, runs, and maps failures to the exit codes the help promises.
    static func main() async {
        // The tool is the whole process: it may tune SQLite process-wide.
        Library.tuneSQLiteForThisProcess()
        // A closed stdout then fails the write (EPIPE) instead of killing the process, and the
        // command ends quietly (see below).
        signal(SIGPIPE, SIG_IGN)
        var verbose = false
        do {
            var command = try Self.command(parsing: Array(CommandLine.arguments.dropFirst()))
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

    /// ArgumentParser's reading of `arguments`, with amendments for lines it would refuse or
    /// misread: a word that names no command is a usage error with a suggestion (also after
    /// `help`, where ArgumentParser shows the general help), a query term negated with `-` is a
    /// usage error saying to write `^`, and a lone negative number where an argument is expected
    /// is read as that argument (`show -1`).
    static func command(parsing arguments: [String]) throws -> ParsableCommand {
        let command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch let error where exitCode(for: error) == .validationFailure {
            if let misnamed = MisnamedCommand(arguments) { throw ValidationError(misnamed.description) }
            // `query -genre:rock`: said how to write when that is all that is wrong with the line.
            if let term = QueryTermHint.negatedTerm(in: arguments),
               (try? parseAsRoot(arguments.map { $0 == term ? "^" + $0.dropFirst() : $0 })) != nil {
                let command = arguments.prefix(arguments.first == "covers" ? 2 : 1).joined(separator: " ")
                throw ValidationError(QueryTermHint.negatedTermNote(term, command: command))
            }
            let guess = NegativeNumberArguments.movedAfterTerminator(arguments)
            let flagGuess = NegativeNumberArguments.movedAfterTerminator(arguments, afterFlags: true)
            if let guess, let read = try? parseAsRoot(guess) {
                command = read
            } else if let flagGuess, let read = try? parseAsRoot(flagGuess) {
                command = read
            } else {
                // The first guess's error says what is wrong with the line as meant; a number
                // moved away from its option would only make that option "missing".
                guard let guess else { throw error }
                command = try parseAsRoot(guess)
            }
        }
        // ArgumentParser's own `help` command, which names no type of ours.
        if type(of: command).configuration.commandName == "help", let misnamed = MisnamedCommand(arguments) {
            throw ValidationError(misnamed.description)
        }
        return command
    }

    /// Help, --version and a closed stdout exit 0; usage errors print the usage and exit 2;
    /// anything else is one line on stderr (two with `verbose` and SQLite's detail) and exit 1.
    ///
    /// Both messages are escaped (`TerminalEscaping`), as they may echo input or data: a value
    /// the user typed, a title. A usage error keeps the line breaks of its usage text, but its
    /// reason, which quotes what was typed, is kept to one line.
    static func exit(reporting error: Error, verbose: Bool) -> Never {
        // The reader of the output went away (`albumstore list | head -1`): it has what it wanted.
        if let error = error as? ByteSinkError, error == .brokenPipe { processExit(0) }
        let code = exitCode(for: error)
        if code == .success && !(error is ExitCode) { printAndExit(fullMessage(for: error)) }
        if error is ExitCode { exit(withError: error) }
        if code == .validationFailure {
            writeToStandardError(usageMessage(for: error) + "\n")
            processExit(2)
        }
        // A query the library refused as it ran (too many terms, a condition on a field it does
        // not apply to, a pattern over its time): a query error, as one that does not parse.
        if let error = error as? QueryError {
            writeToStandardError(QueryErrorMessage.lines(for: error).map { $0 + "\n" }.joined())
            processExit(2)
        }
        let lines = ErrorReport(error).lines(verbose: verbose)
        writeToStandardError(lines.map { $0 + "\n" }.joined())
        processExit(1)
    }

    /// Prints help or the version as every command prints its output, then exits 0: a write that
    /// fails (a full disk) is exit 1 with one line, where ArgumentParser's own `print` would report
    /// success; a reader that went away is exit 0, quietly.
    private static func printAndExit(_ text: String) -> Never {
        do {
            let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
            try stdout.write(text.isEmpty ? text : text + "\n")
            try stdout.flush()
        } catch {
            exit(reporting: error, verbose: false)
        }
        processExit(0)
    }

    /// ArgumentParser's message for a usage error (`Error: <reason>`, then the usage), escaped.
    private static func usageMessage(for error: Error) -> String {
        let full = fullMessage(for: error)
        let reason = message(for: error)
        guard !reason.isEmpty, let range = full.firstRange(of: reason) else { return TerminalEscaping.escapedLines(full) }
        return TerminalEscaping.escapedLines(String(full[..<range.lowerBound])) + TerminalEscaping.escaped(reason)
            + TerminalEscaping.escapedLines(String(full[range.upperBound...]))
    }
}

/// `exit(3)`: inside `AlbumStoreCommand` the name `exit` is its own method's.
private func processExit(_ code: Int32) -> Never { exit(code) }
