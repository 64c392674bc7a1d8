import Foundation
import Synchronization
import TestSupport
import Testing
@testable import AlbumStore

/// `Library.enrich` against `MusicBrainzStandIn` on 127.0.0.1, paced by a clock that moves only
/// when slept on: nothing leaves the machine and no test waits out the one-a-second rule.
struct EnrichTests {
    let directory: TemporaryDirectory
    static let cover = TestImages.png(width: 500, height: 500, padding: 3000)

    static let low = MusicBrainzStandIn.Release(
        id: "9e0fe8c8-6e0a-4a7e-9b9e-111111111111", title: "Low", artist: "David Bowie", date: "1991-08-27",
        firstReleaseDate: "1977-01-14", genres: [("art rock", 7), ("electronic", 3)])
    static let heroes = MusicBrainzStandIn.Release(
        id: "9e0fe8c8-6e0a-4a7e-9b9e-222222222222", title: "\"Heroes\"", artist: "David Bowie", date: "1977-10-14",
        genres: [("art rock", 2)])
    static let kindOfBlue = MusicBrainzStandIn.Release(
        id: "9e0fe8c8-6e0a-4a7e-9b9e-333333333333", title: "Kind of Blue", artist: "Miles Davis", date: "1959-08-17",
        genres: [("modal jazz", 4)])

    init() throws { directory = try TemporaryDirectory() }

    /// A clock that moves only when slept on, by the time asked.
    final class SteppingClock: PacingClock {
        private let time = Mutex(Duration.zero)
        var now: Duration { time.withLock { $0 } }
        var seconds: Double { Double(now.components.seconds) + Double(now.components.attoseconds) / 1e18 }
        func sleep(for duration: Duration) async throws {
            try Task.checkCancellation()
            time.withLock { $0 += duration }
        }
    }

    private func library(_ drafts: [AlbumDraft]) throws -> (Library, [Int64]) {
        let library = try Library.open(at: directory.file("library.sqlite"))
        return (library, try drafts.map { try library.albums.append($0).id })
    }

    private func options(_ standIn: MusicBrainzStandIn, _ clock: SteppingClock) -> EnrichOptions {
        var options = EnrichOptions(musicBrainzURL: standIn.url, coverArtURL: standIn.url, timeout: .seconds(5),
                                    contact: "mailto:tests@example.org")
        options.clock = clock
        return options
    }

    private func standIn(_ releases: [MusicBrainzStandIn.Release], busyFirst: Bool = false, clock: SteppingClock) throws -> MusicBrainzStandIn {
        try MusicBrainzStandIn(releases: releases, cover: Self.cover, busyFirst: busyFirst) { clock.seconds }
    }

    @Test func aDryRunProposesEveryEmptyFieldAndChangesNothing() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low], clock: clock)
        let (library, ids) = try library([AlbumDraft(title: "Low", artist: "David Bowie")])
        var options = options(standIn, clock)
        options.dryRun = true

        let summary = try await library.enrich(options: options)

        let proposed = Dictionary(uniqueKeysWithValues: summary.proposals.map { ($0.field, $0) })
        #expect(proposed[.year]?.proposed == "1977")   // the release group's first release, not this edition's
        #expect(proposed[.genre]?.proposed == "Art Rock")
        #expect(proposed[.musicBrainzID]?.proposed == Self.low.id)
        #expect(proposed[.cover]?.proposed == "PNG 500x500, \(Self.cover.count) bytes")
        #expect(proposed[.cover]?.source == standIn.url + "/release/\(Self.low.id)/front-500")
        #expect(proposed[.year]?.source == standIn.url + "/release/\(Self.low.id)")
        #expect(summary.proposals.allSatisfy { $0.score == 100 && $0.current == nil && $0.albumID == ids[0] })
        #expect(summary.applied.isEmpty)
        let album = try #require(try await library.albums.album(id: ids[0]))
        #expect(album.year == nil && album.genre == nil && album.externalID == nil)
        #expect(try library.covers.info(albumID: ids[0]) == nil)
        #expect(try await library.historyEntries().count == 1)   // the append only
    }

    @Test func fillsOnlyWhatIsEmptyKeepsTheUsersGenreNamesTheMissingAndUndoesAsOne() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low, Self.kindOfBlue], clock: clock)
        let (library, ids) = try library([
            AlbumDraft(title: "Low", artist: "David Bowie", genre: "Krautrock"),
            AlbumDraft(title: "No Such Album", artist: "Nobody"),
            AlbumDraft(title: "Kind of Blue", artist: "Miles Davis", year: 1959),
        ])
        let before = try await library.albums.albums(matching: .all)

        let summary = try await library.enrich(options: options(standIn, clock))

        let low = try #require(try await library.albums.album(id: ids[0]))
        #expect(low.year == 1977 && low.genre == "Krautrock" && low.externalID == Self.low.id)
        #expect(try library.covers.data(albumID: ids[0]) == Self.cover)
        let blue = try #require(try await library.albums.album(id: ids[2]))
        #expect(blue.year == 1959 && blue.genre == "Modal Jazz" && blue.externalID == Self.kindOfBlue.id)
        #expect(summary.notFound.map(\.id) == [ids[1]])
        #expect(summary.applied.count == 6)
        #expect(!summary.applied.contains { $0.albumID == ids[0] && $0.field == .genre })
        #expect(try await library.historyEntries().last?.description == "enrich 2 albums from MusicBrainz")

        _ = try library.undo()
        #expect(try await library.albums.albums(matching: .all) == before)
        #expect(try library.covers.info(albumID: ids[0]) == nil && library.covers.info(albumID: ids[2]) == nil)
    }

    @Test func overwriteReplacesOnlyTheFieldsItNames() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low], clock: clock)
        let (library, ids) = try library([AlbumDraft(title: "Low", artist: "David Bowie", genre: "Krautrock", year: 1978)])
        var options = options(standIn, clock)
        options.overwrite = [.genre]

        _ = try await library.enrich(options: options)

        let album = try #require(try await library.albums.album(id: ids[0]))
        #expect(album.genre == "Art Rock" && album.year == 1978)
    }

    @Test func requestsToMusicBrainzAreAtLeastASecondApartAndNameTheClient() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low, Self.heroes, Self.kindOfBlue], clock: clock)
        let (library, _) = try library([
            AlbumDraft(title: "Low", artist: "David Bowie"), AlbumDraft(title: "\"Heroes\"", artist: "David Bowie"),
            AlbumDraft(title: "Kind of Blue", artist: "Miles Davis"),
        ])

        let summary = try await library.enrich(options: options(standIn, clock))

        #expect(summary.musicBrainzRequests == 6)   // a search and a lookup each
        #expect(standIn.musicBrainzRequests == 6)
        let times = standIn.requestTimes
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= 1.0) }
        let agents = standIn.requestHeads.compactMap { head in
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("user-agent:") }.map(String.init)
        }
        #expect(agents.count == standIn.requestHeads.count)
        #expect(Set(agents) == ["User-Agent: albumstore/\(Library.version) ( mailto:tests@example.org )"])
    }

    @Test func aKnownReleaseIDIsOneRequestAndNoSearch() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low], clock: clock)
        let (library, ids) = try library([AlbumDraft(title: "Low (Remaster)", artist: "Bowie", externalID: Self.low.id)])

        let summary = try await library.enrich(options: options(standIn, clock))

        #expect(summary.musicBrainzRequests == 1)
        #expect(!standIn.requestHeads.contains { $0.contains("query=") })
        #expect(try await library.albums.album(id: ids[0])?.year == 1977)
    }

    @Test func aFirstAnswerOf503IsWaitedOutAsRetryAfterSays() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low], busyFirst: true, clock: clock)
        let (library, ids) = try library([AlbumDraft(title: "Low", artist: "David Bowie")])

        let summary = try await library.enrich(options: options(standIn, clock))

        #expect(summary.failures.isEmpty)
        #expect(try await library.albums.album(id: ids[0])?.year == 1977)
        let times = standIn.requestTimes
        #expect(times.count == 3)   // 503, the search again, the lookup
        #expect(times[1] - times[0] >= 2.0)
    }

    @Test func releasesOfDifferentAlbumsScoringAlikeAreAmbiguousAndNothingIsGuessed() async throws {
        let clock = SteppingClock()
        var other = Self.low
        other.id = "9e0fe8c8-6e0a-4a7e-9b9e-444444444444"
        other.releaseGroupID = "another-group"
        var edition = Self.low
        edition.id = "9e0fe8c8-6e0a-4a7e-9b9e-555555555555"   // same release group: an edition, not ambiguous
        let standIn = try standIn([Self.low, other], clock: clock)
        let (library, ids) = try library([AlbumDraft(title: "Low", artist: "David Bowie")])

        let summary = try await library.enrich(options: options(standIn, clock))

        #expect(summary.ambiguous.map(\.album.id) == [ids[0]])
        #expect(summary.ambiguous.first?.reason.hasPrefix("2 albums score 100") == true)
        #expect(summary.applied.isEmpty && summary.musicBrainzRequests == 1)

        let editions = try MusicBrainzStandIn(releases: [Self.low, edition], cover: Self.cover) { clock.seconds }
        let found = try await library.enrich(options: options(editions, clock))
        #expect(found.ambiguous.isEmpty && found.applied.count == 4)
    }

    @Test func anEditMadeAfterTheDryRunIsNeverOverwrittenWhenTheProposalsAreApplied() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low], clock: clock)
        let (library, ids) = try library([AlbumDraft(title: "Low", artist: "David Bowie")])
        var options = options(standIn, clock)
        options.dryRun = true
        let proposals = try await library.enrich(options: options).proposals
        try library.albums.update(id: ids[0]) { $0.genre = "Ambient" }

        let applied = try library.applyEnrichment(proposals)

        #expect(Set(applied.map(\.field)) == [.year, .musicBrainzID, .cover])
        #expect(try await library.albums.album(id: ids[0])?.genre == "Ambient")
    }

    @Test func cancellingAppliesWhatWasFoundAndARerunGoesOnFromThere() async throws {
        let clock = SteppingClock()
        let standIn = try standIn([Self.low, Self.kindOfBlue], clock: clock)
        let (library, ids) = try library([
            AlbumDraft(title: "Low", artist: "David Bowie"), AlbumDraft(title: "Kind of Blue", artist: "Miles Davis"),
        ])
        var options = options(standIn, clock)
        options.progress = { progress in
            if progress.albumsDone == 1 { withUnsafeCurrentTask { $0?.cancel() } }
        }

        let first = try await library.enrich(options: options)

        #expect(first.interrupted && first.albumsLookedUp == 1)
        #expect(Set(first.applied.map(\.albumID)) == [ids[0]])
        #expect(try await library.albums.album(id: ids[1])?.year == nil)
        #expect(try await library.historyEntries().last?.description == "enrich “Low” by David Bowie from MusicBrainz")

        options.progress = nil
        let second = try await library.enrich(options: options)
        #expect(second.albumsLookedUp == 1 && Set(second.applied.map(\.albumID)) == [ids[1]])
    }

    /// Slow: the slow server is waited on for the timeout.
    @Test(.tags(.slow), .disabledInQuickSuite)
    func eachBadAnswerIsOneLineLeavesItsAlbumAsItWasAndTheRunGoesOn() async throws {
        let clock = SteppingClock()
        let cases: [(String, MusicBrainzStandIn.Behaviour, String)] = [
            ("malformed", .malformedJSON, "not JSON"),
            ("html", .wrongContentType, "content type text/html is not JSON"),
            ("huge", .hugeCover, "larger than the cover size cap of 5000000 bytes"),
            ("broken", .brokenCover, "not a complete PNG image"),
            ("loop", .coverRedirectLoop, "too many redirects"),
            ("slow", .slow(seconds: 30), "timed out"),
        ]
        let releases = cases.enumerated().map { index, bad in
            MusicBrainzStandIn.Release(
                id: "9e0fe8c8-6e0a-4a7e-9b9e-00000000000\(index)", title: bad.0, artist: "Bad", date: "2001",
                genres: [("noise", 1)], behaviour: bad.1)
        } + [Self.kindOfBlue]
        let standIn = try standIn(releases, clock: clock)
        let (library, ids) = try library(releases.map { AlbumDraft(title: $0.title, artist: $0.artist, externalID: $0.id) })
        var options = options(standIn, clock)
        options.timeout = .milliseconds(400)
        options.attempts = 1

        let summary = try await library.enrich(options: options)

        #expect(summary.failures.map(\.album.id) == Array(ids.prefix(cases.count)))
        for (failure, bad) in zip(summary.failures, cases) {
            #expect(failure.reason.contains(bad.2), "\(bad.0): \(failure.reason)")
            #expect(!failure.reason.contains("\n"))
        }
        for id in ids.prefix(cases.count) {
            let album = try #require(try await library.albums.album(id: id))
            #expect(album.year == nil && album.genre == nil)
            #expect(try library.covers.info(albumID: id) == nil)
        }
        #expect(try await library.albums.album(id: ids.last!)?.genre == "Modal Jazz")
    }

    @Test func aBaseURLThatIsNotHTTPIsRefusedBeforeAnyRequest() async throws {
        let (library, _) = try library([AlbumDraft(title: "Low", artist: "David Bowie")])
        await #expect(throws: EnrichmentError.badURL(setting: "musicbrainz-url", value: "file:///etc")) {
            try await library.enrich(options: EnrichOptions(musicBrainzURL: "file:///etc"))
        }
    }
}
