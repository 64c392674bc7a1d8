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

extension EnrichField: ExpressibleByArgument {}

struct Enrich: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrich",
        abstract: "Fill the empty year, genre, MusicBrainz id and cover of albums from MusicBrainz.",
        discussion: """
            Only what is empty is filled: a field that has a value (yours, an import's or a scan's) \
            is never replaced unless --overwrite names it. Without terms, every album missing one \
            of the four is looked up; with terms, those of the albums they match. An album whose \
            external id is a MusicBrainz release id is looked up by it (one request); any other \
            by a search on its title and artist (two), which needs --min-score; several albums \
            scoring as high are "ambiguous" and nothing is guessed. The front cover (500 px) \
            comes from the Cover Art Archive.

            The whole run is one undoable command (albumstore undo takes it all back). MusicBrainz \
            asks for at most one request a second, which the run keeps: 1,000 albums take about \
            half an hour. Ctrl-C applies what was found so far; run the same command again to go \
            on. --dry-run prints every proposal (album, field, current, proposed, score, source) \
            and changes nothing. Albums not found, ambiguous or answered badly are listed at the \
            end; the exit status is 1 when an answer was bad.

            Examples:
              albumstore enrich --dry-run
              albumstore enrich artist:bowie
              albumstore enrich --overwrite genre year:1970..1979
              albumstore enrich --musicbrainz-url http://mirror.local:5000 --interval 0
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var query: QueryTerms
    @Flag(help: "Print the proposals; change nothing.") var dryRun = false
    @Option(help: ArgumentHelp(
        "A field whose value may be replaced: year, genre, musicbrainz_id or cover (repeatable).", valueName: "field"))
    var overwrite: [EnrichField] = []
    @Option(parsing: .unconditional, help: "The lowest search score (0-100) a match may have.") var minScore = 90
    @Option(help: ArgumentHelp("The MusicBrainz server.", valueName: "url")) var musicbrainzURL = EnrichOptions.musicBrainz
    @Option(help: ArgumentHelp("The Cover Art Archive.", valueName: "url")) var coverartURL = EnrichOptions.coverArtArchive
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Seconds between MusicBrainz requests; under 1 only for a server other than musicbrainz.org.", valueName: "seconds"))
    var interval = 1.0
    @Option(parsing: .unconditional, help: "Seconds a request may wait for data.") var timeout = 30.0
    @Option(help: ArgumentHelp("Your URL or e-mail address, for the User-Agent MusicBrainz asks for.", valueName: "contact"))
    var contact = EnrichOptions.defaultContact
    @OptionGroup var output: FormatOptions

    func validate() throws {
        guard (0...100).contains(minScore) else { throw ValidationError("--min-score must be between 0 and 100.") }
        guard interval >= 0 else { throw ValidationError("--interval must not be negative.") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive.") }
    }

    func run() async throws {
        let library = try store.openLibrary(.readWrite)
        let albumQuery = try query.query()
        let showProgress = Terminal.isTerminal(STDERR_FILENO)
        let options = EnrichOptions(
            musicBrainzURL: musicbrainzURL, coverArtURL: coverartURL, overwrite: Set(overwrite), dryRun: dryRun,
            minimumScore: minScore, requestInterval: .milliseconds(Int(interval * 1000)),
            timeout: .milliseconds(Int(timeout * 1000)), contact: contact,
            progress: { progress in Self.show(progress, onTerminal: showProgress) })
        let run = Task { try await library.enrich(matching: albumQuery.matchesEverything ? nil : albumQuery, options: options) }
        Interruption.start("enrich") { run.cancel() }
        let summary = try await run.value
        if showProgress { writeToStandardError("\r\u{1B}[K") }
        if dryRun { try printProposals(summary.proposals) }
        report(summary)
        if summary.interrupted { throw ExitCode(Interruption.exitStatus) }
        if !summary.failures.isEmpty { throw ExitCode(1) }
    }

    /// Before the first request, how long the run should take; then a line that keeps itself
    /// up to date on a terminal.
    private static func show(_ progress: EnrichProgress, onTerminal: Bool) {
        if progress.albumsDone == 0 {
            guard progress.albumsTotal > 0 else { return }
            inform("Looking up \(Counted(progress.albumsTotal, "album")) on MusicBrainz: about "
                + "\(duration(progress.remaining)) at its pace. Ctrl-C applies what was found so far.")
        } else if onTerminal {
            writeToStandardError("\r\u{1B}[KEnriching: \(progress.albumsDone)/\(progress.albumsTotal) albums, "
                + "\(Counted(progress.requests, "request")), about \(duration(progress.remaining)) left")
        }
    }

    /// "45 s", "12 min", "3 h 20 min".
    static func duration(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds < 90 { return "\(seconds) s" }
        if seconds < 5400 { return "\((seconds + 30) / 60) min" }
        return "\(seconds / 3600) h \((seconds % 3600 + 30) / 60) min"
    }

    private func printProposals(_ proposals: [EnrichProposal]) throws {
        let header = ["Album", "Title", "Artist", "Field", "Current", "Proposed", "Score", "Source"]
        let rows = proposals.map { proposal in
            ["\(proposal.albumID)", proposal.albumTitle, proposal.albumArtist, proposal.field.rawValue,
             proposal.current ?? "", proposal.proposed, "\(proposal.score)", proposal.source]
        }
        let json = JSONValue.array(proposals.map { proposal in
            .object([
                "album_id": .integer(proposal.albumID), "title": .string(proposal.albumTitle),
                "artist": .string(proposal.albumArtist), "field": .string(proposal.field.rawValue),
                "current": proposal.current.map(JSONValue.string) ?? .null, "proposed": .string(proposal.proposed),
                "score": .integer(Int64(proposal.score)), "source": .string(proposal.source),
            ])
        })
        try StateOutput.print(header: header, rows: rows, json: json, as: output)
    }

    private func report(_ summary: EnrichSummary) {
        let changes = summary.dryRun ? summary.proposals : summary.applied
        let fields = EnrichField.allCases.compactMap { field in
            let count = changes.filter { $0.field == field }.count
            return count > 0 ? "\(field) \(count)" : nil
        }
        let albums = Set(changes.map(\.albumID)).count
        let verb = summary.dryRun ? "Would fill" : summary.interrupted ? "Interrupted; filled" : "Filled"
        inform("\(verb) \(Counted(changes.count, "field")) of \(Counted(albums, "album"))"
            + (fields.isEmpty ? "" : " (\(fields.joined(separator: ", ")))")
            + "; \(Counted(summary.albumsLookedUp, "album")) looked up with \(Counted(summary.musicBrainzRequests, "request"))"
            + (summary.dryRun || changes.isEmpty ? "." : ". albumstore undo takes it back."))
        if !summary.notFound.isEmpty {
            inform("Not found (\(summary.notFound.count)):")
            for album in summary.notFound { inform("  \(album)") }
        }
        if !summary.ambiguous.isEmpty {
            inform("Ambiguous (\(summary.ambiguous.count)), left as they are:")
            for skipped in summary.ambiguous { inform("  \(skipped.album): \(skipped.reason)") }
        }
        if !summary.failures.isEmpty {
            inform("Bad answers (\(summary.failures.count)), albums left as they are:")
            for skipped in summary.failures { inform("  \(skipped.album): \(skipped.reason)") }
        }
    }
}
