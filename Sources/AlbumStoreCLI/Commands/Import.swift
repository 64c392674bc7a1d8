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
        abstract: "Add the albums of a music folder or a catalog file (CSV, TSV, JSON, NDJSON, Discogs, Library.xml) as one undoable command.",
        discussion: """
            A FOLDER of audio files (MP3, FLAC, M4A, Ogg Vorbis, Opus, WAV, AIFF, ...) is scanned \
            recursively and its tracks are grouped into albums: by MusicBrainz release id, else by \
            album artist and album title, else by album title within one folder (several track \
            artists there make one album by Various Artists). Discs in CD1/Disc 2 subfolders or \
            tagged with disc numbers are one album. A file with no tags takes its folder's name. \
            The cover is the embedded front cover, else cover.*, folder.* or front.* in the \
            album's folder. Importing the same folder again is a rescan: only new or changed files \
            are read, albums are updated in place, a field you edited keeps your value, a cover \
            you set stays; albums whose files are all gone are reported (--prune deletes them). \
            Broken files and unreadable folders are named and skipped. --dry-run lists the albums \
            and why their tracks were grouped so.

            FILE is read as a stream (- reads standard input). Its format comes from the name's \
            extension, else from its first bytes; its encoding from a byte-order mark, else UTF-8, \
            else Windows-1252 (a guess, said in the summary). In a UTF-8 file, the few lines that \
            are not UTF-8 are read as Windows-1252, and a warning names them. Columns and keys map \
            to album fields by name, ignoring case, spaces and underscores, with aliases (album or \
            name: title; album artist, artist or band: artist; released or date: year); --map \
            names the rest. index and id are ignored (ids are the library's); other unknown \
            columns are ignored and listed once. A CSV or TSV file whose columns give no title or \
            no artist is refused before any row is read, naming the columns found.

            CSV fields are separated by commas, or by semicolons when the first line has \
            semicolons and no comma; --delimiter names another. A file without a header line \
            needs --no-header: its columns are then 1, 2, 3, ... for --map.

            An album the library or an earlier row already has (the same external id, else the \
            same artist and title ignoring case, accents and spacing, with the same year or none) \
            is skipped, updated in place (--on-conflict update: only the fields the file has), or \
            refuses the import (--on-conflict fail). Importing a file twice adds nothing the \
            second time.

            An invalid row refuses the whole file (nothing changes, every error is listed: the \
            first 20 here, all with --rejects) unless --skip-invalid imports the others. \
            `albumstore undo` removes what an import added and restores what it updated.

            Examples:
              albumstore import ~/Music
              albumstore import ~/Music --dry-run
              albumstore import ~/Music --prune --rejects problems.csv
              albumstore import albums.csv
              albumstore import collection.csv --format discogs --on-conflict update
              albumstore import Library.xml --dry-run
              cat albums.ndjson | albumstore import - --format ndjson
              albumstore import old.csv --encoding windows-1252
              albumstore import shop.csv --map 'Disc Title=title' --map Band=artist
              albumstore import messy.csv --skip-invalid --rejects rejects.csv
              albumstore import export.csv --delimiter ';'
              albumstore import bare.csv --no-header --map 1=title --map 2=artist --map 3=year

            Ctrl-C stops an import: nothing is imported, and the exit status is 130.
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: ArgumentHelp("The music folder, the catalog file, or - for standard input.", valueName: "folder-or-file"))
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
    @Option(help: ArgumentHelp(
        "The CSV field separator: one character such as ';' or '|', or tab (default: ',', or ';' when the first line has semicolons and no comma).",
        valueName: "char"))
    var delimiter: String?
    @Flag(help: "The CSV or TSV file has no header line: its first line is an album, its columns are 1, 2, 3, ... for --map.")
    var noHeader = false
    @Flag(help: "Read and check everything and say what would be done, without changing the library (or creating one).")
    var dryRun = false
    @Flag(help: "A music folder: delete the albums a previous scan made whose files are all gone (undoable).")
    var prune = false
    @Option(help: ArgumentHelp("A music folder: put new albums at this 0-based index (default: the end).", valueName: "index"))
    var at: Int?

    func validate() throws {
        _ = try catalogEncoding
        _ = try mapping
        _ = try delimiterCharacter
        if let format, format != .csv && format != .tsv && (delimiter != nil || noHeader) {
            throw ValidationError("--delimiter and --no-header apply to csv and tsv, not \(format.rawValue)")
        }
    }

    /// `--delimiter` as a character: itself, or a tab for `tab` or `\t`.
    private var delimiterCharacter: Character? {
        get throws {
            guard let delimiter else { return nil }
            if delimiter.lowercased() == "tab" || delimiter == "\\t" { return "\t" }
            guard delimiter.count == 1, let character = delimiter.first, let byte = character.asciiValue,
                  byte != UInt8(ascii: "\""), byte != 0x0A, byte != 0x0D, byte != 0 else {
                throw ValidationError("--delimiter takes one ASCII character other than a quote, such as ';' or '|', or tab (got \(delimiter))")
            }
            return character
        }
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

    /// Whether the argument names a folder (a music folder import).
    private var isFolder: Bool {
        var info = stat()
        return file != "-" && stat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    func run() throws {
        Interruption.start()
        if isFolder { return try importFolder() }
        if prune || at != nil {
            throw ImportError.unreadable(file: file, line: 0, reason: "is a file: --prune and --at apply to a music folder")
        }
        let library = try openLibrary()
        let progress = Terminal.isTerminal(STDERR_FILENO) ? ImportProgressLine() : nil
        var report: (@Sendable (ImportProgress) -> Void)?
        if let progress { report = { progress.show($0) } }
        let options = ImportOptions(
            encoding: try catalogEncoding, mapping: try mapping, onConflict: onConflict,
            invalidRows: skipInvalid ? .skip : .rejectFile, rejectsPath: rejects, dryRun: dryRun,
            progress: report, delimiter: try delimiterCharacter, hasHeader: !noHeader,
            isCancelled: { Interruption.isRequested })
        let source: ImportSource = file == "-" ? .standardInput : .file(file)
        do {
            let summary = try library.importAlbums(from: source, format: format, options: options)
            progress?.clear()
            let report = ImportReport(summary: summary, rejectsPath: rejects)
            report.warnings.forEach(inform)
            report.printRejections()
            inform(report.line)
        } catch is CancellationError {
            throw interruption(progress, library)
        } catch let ImportError.missingFields(file, fields, columns, unmapped) {
            progress?.clear()
            throw MissingFieldsRefusal(
                file: file, fields: fields, columns: columns, unmapped: unmapped, hasHeader: !noHeader)
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

    /// Ctrl-C: the import rolled back; closing the library now (the last connection) removes its log.
    private func interruption(_ progress: ImportProgressLine?, _ library: Library) -> ExitCode {
        progress?.clear()
        library.close()
        inform("albumstore: import interrupted; nothing was imported")
        return ExitCode(Interruption.exitStatus)
    }

    private func importFolder() throws {
        let catalogOnly: [(String, Bool)] = [
            ("--format", format != nil), ("--encoding", encoding != nil), ("--map", !mappings.isEmpty),
            ("--on-conflict", onConflict != .skip), ("--skip-invalid", skipInvalid), ("--delimiter", delimiter != nil),
            ("--no-header", noHeader),
        ]
        if let (option, _) = catalogOnly.first(where: \.1) {
            throw ImportError.unreadable(file: file, line: 0, reason: "is a music folder: \(option) applies to a catalog file")
        }
        let library = try openLibrary()
        let progress = Terminal.isTerminal(STDERR_FILENO) ? ImportProgressLine() : nil
        var report: (@Sendable (FolderScanProgress) -> Void)?
        if let progress { report = { progress.show($0) } }
        let options = FolderImportOptions(
            dryRun: dryRun, prune: prune, index: at, rejectsPath: rejects, progress: report,
            isCancelled: { Interruption.isRequested })
        do {
            let summary = try library.importFolder(file, options: options)
            progress?.clear()
            let report = FolderImportReport(summary: summary, rejectsPath: rejects)
            report.printProblems()
            if dryRun { try report.printAlbums() }
            inform(report.line)
        } catch is CancellationError {
            throw interruption(progress, library)
        } catch {
            progress?.clear()
            throw error
        }
    }

    /// The library to import into; for a dry run, an empty one in memory when there is none
    /// yet: a dry run creates nothing.
    private func openLibrary() throws -> Library {
        guard dryRun else { return try store.openLibrary(.create) }
        do {
            return try store.openLibrary(.readWrite)
        } catch let error as StorageError where error.reason == .notFound {
            return try Library.inMemory()
        }
    }
}

extension CatalogFormat: ExpressibleByArgument {}
extension ImportOptions.ConflictPolicy: ExpressibleByArgument {}
