import AlbumStore
import ArgumentParser
import FoundationEssentials

struct Fields: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fields",
        abstract: "List the fields a query, --sort and --template can use.",
        discussion: """
            One line per field: its name, what a query can ask of it, whether --sort takes it, \
            and the other names it answers to (any of them works in a query, a sort or a template).

            Example: albumstore fields
            """)

    @Option(help: "Output format: table, or tsv (with a header).") var format: Format = .table

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, tsv }

    func run() throws {
        let rows = AlbumField.allCases.map { field in
            [field.name, Self.queries(field), field.isSortable ? "yes" : "no", field.aliases.joined(separator: ", ")]
        }
        let heading = ["Field", "Query", "Sort", "Also"]
        switch format {
        case .table: try TablePrinter.print(heading: heading, rows: rows, fit: FormatOptions.stdoutFit)
        case .tsv: print(([heading] + rows).map { $0.joined(separator: "\t") }.joined(separator: "\n"))
        }
    }

    /// What a query can ask of `field`.
    private static func queries(_ field: AlbumField) -> String {
        switch field.queryKind {
        case .text: "\(field.name):text  :=exact  ::regex  \(field.name):(empty)"
        case .number: field == .year ? "year:1994  1990..1999  ..1980  2000..  year:(empty)" : "\(field.name):42  10..20  ..20  10..  \(field.name):(empty)"
        case nil: field == .index ? "(template only: the place among the results)" : "(sort and template only)"
        }
    }
}
