import ArgumentParser

/// How a command prints its records: a readable table, or data for other programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson, csv, tsv
}

/// `--format`, shared by every command that prints albums.
struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: table, json (one array), ndjson (one object a line), csv or tsv (with a header).")
    var format: OutputFormat = .table
}
