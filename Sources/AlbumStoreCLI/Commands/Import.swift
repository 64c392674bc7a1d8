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

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the albums of a catalog file (CSV, TSV, JSON, NDJSON, Discogs, Library.xml) as one undoable command.",
        discussion: """
            FILE is read as a stream (- reads standard input). Its format comes from the name's \
            extension, else from its first bytes; its encoding from a byte-order mark, else UTF-8, \
            else Windows-1252 (a guess, said in the summary). Columns and keys map to album fields \
            by name, ignoring case, spaces and underscores, with aliases (album or name: title; \
            album artist, artist or band: artist; released or date: year); --map names the rest. \
            index and id are ignored (ids are the library's); other unknown columns are ignored \
            and listed once.

            An album the library or an earlier row already has (the same external id, else the \
            same artist and title ignoring case, accents and spacing, with the same year or none) \
            is skipped, updated in place (--on-conflict update: only the fields the file has), or \
            refuses the import (--on-conflict fail). Importing a file twice adds nothing the \
            second time.

            An invalid row refuses the whole file (nothing changes, every error is listed: the \
            first 20 here, all with --rejects) unless --skip-invalid imports the others. \
            `albumstore undo` removes what an import added and restores what it updated.

            Examples:
              albumstore import albums.csv
              albumstore import collection.csv --format discogs --on-conflict update
              albumstore import Library.xml --dry-run
              cat albums.ndjson | albumstore import - --format ndjson
              albumstore import old.csv --encoding windows-1252
              albumstore import shop.csv --map 'Disc Title=title' --map Band=artist
              albumstore import messy.csv --skip-invalid --rejects rejects.csv
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The catalog file, or - for standard input.", valueName: "file"))
    var file: String
    @Option(help: "The file's format: csv, tsv, json, ndjson, discogs or library-xml (default: from the name, else the content).")
    var format: CatalogFormat?
    @Option(help: "The file's encoding: utf-8, utf-16, utf-16le, utf-16be, windows-1252 or latin-1 (default: detected).")
    var encoding: String?
    @Option(name: .customLong("map"), help: ArgumentHelp(
        "Read column or key SOURCE as album field FIELD (title, artist, genre, year, cover_url, external_id, created_at, updated_at); repeatable.",
        valueName: "SOURCE=FIELD"))
    var mappings: [String] = []
    @Option(help: "What to do with an album already there: skip (default), update or fail.")
    var onConflict: ImportOptions.ConflictPolicy = .skip
    @Flag(help: "Import the valid rows and leave out the invalid ones (instead of refusing the file).")
    var skipInvalid = false
    @Option(help: ArgumentHelp("Write every rejected row, with its reasons, to this CSV file.", valueName: "file"))
    var rejects: String?
    @Flag(help: "Read and check everything and say what would be done, without changing the library.")
    var dryRun = false

    func validate() throws {
        _ = try catalogEncoding
        _ = try mapping
    }

    private var catalogEncoding: CatalogEncoding? {
        get throws {
            guard let encoding else { return nil }
            guard let known = CatalogEncoding(name: encoding) else {
                let names = CatalogEncoding.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("unknown encoding \(encoding): use one of \(names)")
            }
            return known
        }
    }

    private var mapping: [String: AlbumField] {
        get throws {
            var mapping: [String: AlbumField] = [:]
            for item in mappings {
                guard let equals = item.lastIndex(of: "="), equals != item.startIndex else {
                    throw ValidationError("--map takes SOURCE=FIELD, e.g. 'Disc Title=title' (got \(item))")
                }
                let name = String(item[item.index(after: equals)...])
                guard let field = AlbumField(name: name), field != .index, field != .id else {
                    throw ValidationError("--map \(item): \(name) is not an album field (title, artist, genre, year, cover_url, external_id, created_at, updated_at)")
                }
                mapping[String(item[..<equals])] = field
            }
            return mapping
        }
    }

    func run() throws {
        let library = try store.openLibrary(dryRun ? .readWrite : .create)
        let progress = Terminal.isTerminal(STDERR_FILENO) ? ImportProgressLine() : nil
        var report: (@Sendable (ImportProgress) -> Void)?
        if let progress { report = { progress.show($0) } }
        let options = ImportOptions(
            encoding: try catalogEncoding, mapping: try mapping, onConflict: onConflict,
            invalidRows: skipInvalid ? .skip : .rejectFile, rejectsPath: rejects, dryRun: dryRun,
            progress: report)
        let source: ImportSource = file == "-" ? .standardInput : .file(file)
        do {
            let summary = try library.importAlbums(from: source, format: format, options: options)
            progress?.clear()
            ImportReport(summary: summary, rejectsPath: rejects).printRejections()
            inform(ImportReport(summary: summary, rejectsPath: rejects).line)
        } catch ImportError.invalidRows(let summary) {
            progress?.clear()
            if let refusal = OneRowRefusal(summary) { throw refusal }
            ImportReport(summary: summary, rejectsPath: rejects).printRejections()
            throw ImportError.invalidRows(summary)
        } catch {
            progress?.clear()
            throw error
        }
    }
}

extension CatalogFormat: ExpressibleByArgument {}
extension ImportOptions.ConflictPolicy: ExpressibleByArgument {}
