import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a command prints its records: a readable table, or data for other programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson, csv, tsv
}

/// `--format` and `--wide`, shared by every command that prints albums or history.
struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: table, json (one array), ndjson (one object a line), csv or tsv (with a header).")
    var format: OutputFormat = .table

    @Flag(help: "Table: show every cell whole, even when stdout is a terminal (which otherwise cuts long cells with … to its width).")
    var wide = false

    /// How the table meets its width: cut to the terminal's when stdout is one and `--wide` is not
    /// given; whole otherwise (a pipe or a file gets everything).
    var tableFit: TableLayout.Fit { Self.tableFit(wide: wide) }

    /// The table's fit with or without `--wide`.
    static func tableFit(wide: Bool) -> TableLayout.Fit { wide ? .whole : stdoutFit }

    /// Cut to the terminal's width when stdout is one, else whole.
    static var stdoutFit: TableLayout.Fit {
        guard Terminal.isTerminal(STDOUT_FILENO) else { return .whole }
        return .terminal(columns: Terminal.columns(of: STDOUT_FILENO))
    }
}
