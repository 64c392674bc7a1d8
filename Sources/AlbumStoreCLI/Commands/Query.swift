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

struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List the albums a query matches.",
        discussion: """
            Terms (all must match; OR or a lone , between groups of terms gives alternatives):
              bowie  "low fi"  bow*    words of the title or artist (full-text search), a
                                       phrase, a prefix
              坂本  音楽               Japanese, Chinese, Korean, Thai: a part of the title
                                       or artist
              artist:bowie             the field holds the text (substring)
              artist:=Low              the field is exactly the text
              title::'^L.w$'           the field matches a regular expression (as grep -E)
              year:1977  year:1990..1999  year:..1980  year:2000..    a year or a range
              genre:                   the field is empty
              ^genre:jazz              not (also -genre:jazz after --)
            Case and accents are ignored everywhere but := and :: (Björk, BJÖRK and bjork are \
            one; a query with accents matches the same as without, so dröge finds Droge too). \
            A colon in a value is \\: (title:AC\\:DC, or in quotes); a * in a word is \\*. A \
            query that does not parse is shown with a caret under the problem, exit 2. \
            `albumstore fields` lists the fields.

            Results come in the library's order unless --sort says otherwise; the # column (and \
            json's index) is the place among the results.

            Examples:
              albumstore query artist:bowie year:1970..1979
              albumstore query bowie --sort year:desc,title --limit 10
              albumstore query genre:jazz OR genre:blues --count
              albumstore query -- -genre:rock year:2000..
              albumstore query beyonce --template '{artist} — {title} ({year})'
              albumstore query 'artist:david bowie' --format json

            \(TableLayout.help)
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var terms: QueryTerms
    @OptionGroup var sort: SortOption
    @Option(parsing: .unconditional, help: "Skip this many results first.") var offset = 0
    @Option(parsing: .unconditional, help: "Show at most this many albums.") var limit: Int?
    @Flag(help: "Print only how many albums match.") var count = false
    @Option(
        help: ArgumentHelp(
            "Print a line per album from this template: {field} is a field's value (albumstore fields), {{ and }} braces.",
            valueName: "text"))
    var template: String?
    @OptionGroup var output: FormatOptions

    /// - Throws: `ValidationError` (a usage error) for a negative --offset or --limit, or a
    ///   template that does not compile.
    func validate() throws {
        guard offset >= 0 else { throw ValidationError("--offset must not be negative.") }
        guard (limit ?? 0) >= 0 else { throw ValidationError("--limit must not be negative.") }
        if let template {
            do { _ = try AlbumTemplate(template) } catch { throw ValidationError(error.description) }
        }
    }

    func run() throws {
        let query = try terms.query()
        let sort = try sort.parsed()
        let albums = try store.openLibrary(.readOnly).albums
        if count {
            // Not `print`: a full disk would go unnoticed.
            let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
            try stdout.write(String(try albums.count(matching: query)) + "\n")
            try stdout.flush()
            return
        }
        let limit = limit ?? .max
        let writer: any AlbumWriter
        if let template {
            writer = TemplateWriter(try AlbumTemplate(template), to: FileDescriptorSink(fileDescriptor: STDOUT_FILENO))
        } else {
            var lastIndex: Int?
            // As `list`: the `#` column is as wide as the last index, which only the count tells
            // when there are more results than the table measures.
            if output.format == .table && limit > TableLayout.sampleSize {
                let total = try albums.count(matching: query) - offset
                lastIndex = total > 0 ? offset + min(total, limit) - 1 : nil
            }
            writer = AlbumPrinter.writer(format: output.format, wide: output.wide, lastIndex: lastIndex)
        }
        try albums.write(matching: query, sortedBy: sort, offset: offset, limit: limit, to: writer)
    }
}
