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

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count the albums a query matches (all by default): artists, genres, the top ones, decades.",
        discussion: """
            Artists and genres are counted as spelled. The tops list the \(AlbumStats.topCount) \
            genres and artists with the most albums (ties by name); decades are those with albums, \
            oldest first. The query is that of `albumstore query`.

            Examples:
              albumstore stats
              albumstore stats genre:jazz year:1950..1969
              albumstore stats artist:bowie --format json
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var store: StoreOptions
    @OptionGroup var terms: QueryTerms
    @Option(help: "table, or json (one object, snake_case keys).") var format: Format = .table

    func run() throws {
        let query = try terms.query()
        let stats = try store.openLibrary(.readOnly).albums.stats(matching: query)
        let stdout = FileDescriptorSink(fileDescriptor: STDOUT_FILENO)
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try stdout.write(Array(try encoder.encode(stats)) + [0x0A])
            try stdout.flush()
        case .table:
            let fit = FormatOptions.stdoutFit
            try TablePrinter.print(
                heading: ["Count", "Albums"], printsHeading: false,
                rows: [["albums", "\(stats.albums)"], ["artists", "\(stats.artists)"], ["genres", "\(stats.genres)"],
                       ["without a year", "\(stats.withoutYear)"]], fit: fit)
            for (heading, entries) in [("Top genres", stats.topGenres), ("Top artists", stats.topArtists)] where !entries.isEmpty {
                try stdout.write("\n")
                try stdout.flush()
                try TablePrinter.print(heading: [heading, "Albums"], rows: entries.map { [$0.name, "\($0.albums)"] }, fit: fit)
            }
            if !stats.decades.isEmpty {
                try stdout.write("\n")
                try stdout.flush()
                try TablePrinter.print(heading: ["Decade", "Albums"], rows: stats.decades.map { ["\($0.decade)s", "\($0.albums)"] }, fit: fit)
            }
        }
    }
}
