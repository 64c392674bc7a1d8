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

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every album (or those a query matches), in list order, as CSV, TSV, JSON or NDJSON (what import reads back).",
        discussion: """
            Albums are written as they are read, in memory that does not grow with the library. \
            Without --output they go to stdout. --output writes a file atomically: a temporary \
            file beside it, renamed over it only once complete, so a failed export leaves no \
            half-written file. The format is --format, else --output's extension (.csv, .tsv, \
            .json, .ndjson or .jsonl; another extension needs --format), else csv. Query terms \
            (those of `albumstore query`) and --sort export only the albums they match, in that \
            order.

            `albumstore import` reads an export back as it is: into an empty library it gives \
            the same albums, with the same fields and dates, in the same order.

            Examples:
              albumstore export > albums.csv
              albumstore export --output albums.json
              albumstore export --format ndjson | gzip > albums.ndjson.gz
              albumstore export --output albums.csv --bom     # for spreadsheet programs that want one
              albumstore export artist:bowie year:1970..1979 --output bowie-70s.json
              albumstore export genre:jazz --sort year > jazz.csv
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, tsv, json, ndjson
    }

    @OptionGroup var store: StoreOptions
    @OptionGroup var terms: QueryTerms
    @OptionGroup var sort: SortOption
    @Option(help: "csv, tsv, json (one array) or ndjson (one object a line); default: from --output's extension, else csv.")
    var format: Format?
    @Option(help: ArgumentHelp("Write to this file (atomically) instead of stdout.", valueName: "file"))
    var output: String?
    @Flag(help: "Start with a UTF-8 byte-order mark, for spreadsheet programs that need one.")
    var bom = false

    /// The format asked for, else the one `--output`'s extension names, else (no `--output`, or
    /// one without an extension) CSV.
    /// - Throws: `ValidationError` for an extension that names no format export writes (`.xlsx`):
    ///   writing CSV under it would give a file its name misdescribes. Asked once the output is
    ///   known not to be the library's own file, which is refused first, as such.
    var chosenFormat: Format {
        get throws {
            if let format { return format }
            switch output.map({ URL(fileURLWithPath: $0).pathExtension.lowercased() }) {
            case "tsv", "tab": return .tsv
            case "json": return .json
            case "ndjson", "jsonl": return .ndjson
            case "csv", "", nil: return .csv
            case let other?:
                throw ValidationError(
                    "--output \(output ?? ""): export writes csv, tsv, json or ndjson, not .\(other); name the format with --format")
            }
        }
    }

    func run() throws {
        let query = try terms.query()
        let sort = try sort.parsed()
        let albums = try store.openLibrary(.readOnly).albums
        guard let output else {
            try write(albums, query, sort, to: FileDescriptorSink(fileDescriptor: STDOUT_FILENO))
            return
        }
        try AtomicFile.write(to: output) { sink in try write(albums, query, sort, to: sink) }
    }

    private func write(_ albums: AlbumRepository, _ query: AlbumQuery, _ sort: AlbumSort, to sink: FileDescriptorSink) throws {
        if bom { try sink.write([0xEF, 0xBB, 0xBF]) }
        let format = try chosenFormat
        let writer: any AlbumWriter = switch format {
        case .csv: CSVWriter(to: sink)
        case .tsv: TSVWriter(to: sink)
        case .json: JSONWriter(to: sink)
        case .ndjson: NDJSONWriter(to: sink)
        }
        // The whole list keeps each album's index in it; a query's results are numbered among themselves.
        if query.matchesEverything && sort == .listOrder {
            try albums.write(to: writer)
        } else {
            try albums.write(matching: query, sortedBy: sort, to: writer)
        }
    }
}
