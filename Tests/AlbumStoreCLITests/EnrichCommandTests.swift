import Foundation
import TestSupport
import Testing

/// `albumstore enrich` on the real binary against `MusicBrainzStandIn` on 127.0.0.1, at the
/// real pace of one MusicBrainz request a second.
struct EnrichCommandTests {
    let store: AlbumStoreFixture
    let standIn: MusicBrainzStandIn
    static let cover = TestImages.png(width: 500, height: 500, padding: 1000)

    init() throws {
        store = try AlbumStoreFixture()
        standIn = try MusicBrainzStandIn(releases: [
            .init(id: "9e0fe8c8-6e0a-4a7e-9b9e-111111111111", title: "Low", artist: "David Bowie",
                  firstReleaseDate: "1977-01-14", genres: [("art rock", 7)]),
        ], cover: Self.cover) { Date().timeIntervalSince1970 }
    }

    private var servers: [String] { ["--musicbrainz-url", standIn.url, "--coverart-url", standIn.url] }

    @Test func aDryRunPrintsTheProposalsThenTheRunFillsOnlyTheEmptyFieldsAndUndoTakesItBack() throws {
        let low = try store.add("Low", by: "David Bowie", "--genre", "Krautrock")
        let missing = try store.add("No Such Album", by: "Nobody")
        let before = try store.albums()

        let dry = try store.run(["enrich", "--dry-run", "--format", "json", "--interval", "0"] + servers)
        #expect(dry.status == 0, "\(dry.stderr)")
        let proposals = try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(proposals.map { $0["field"] as? String } == ["year", "musicbrainz_id", "cover"])
        #expect(proposals.first?["proposed"] as? String == "1977")
        #expect(proposals.first?["score"] as? Int == 100)
        #expect(dry.stderr.contains("Would fill 3 fields of 1 album (year 1, musicbrainz_id 1, cover 1)"))
        #expect(try store.albums() == before)

        let run = try store.run(["enrich"] + servers)   // the default pace: one request a second
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("Looking up 2 albums on MusicBrainz: about 4 s at its pace."))
        #expect(run.stderr.contains("Not found (1):\n  #\(missing.id) No Such Album — Nobody\n"))
        let times = standIn.requestTimes.suffix(3)   // the run's: a search and a lookup, a search
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= 1.0) }
        let filled = try store.album(id: low.id)
        #expect(filled.year == 1977 && filled.genre == "Krautrock" && filled.externalID == "9e0fe8c8-6e0a-4a7e-9b9e-111111111111")
        let saved = store.cli.path("cover.png")
        #expect(try store.run("covers", "get", String(low.id), "-o", saved).status == 0)
        #expect(FileManager.default.contents(atPath: saved) == Self.cover)

        #expect(try store.run("undo").status == 0)
        #expect(try store.albums() == before)
        #expect(try store.run("covers", "get", String(low.id), "-o", saved).status != 0)
    }

    @Test func ctrlCAppliesWhatWasFoundAndTheSameCommandGoesOn() throws {
        let releases: [MusicBrainzStandIn.Release] = [
            .init(id: "9e0fe8c8-6e0a-4a7e-9b9e-222222222222", title: "Heroes", artist: "David Bowie", date: "1977", genres: [("art rock", 1)]),
            .init(id: "9e0fe8c8-6e0a-4a7e-9b9e-333333333333", title: "Lodger", artist: "David Bowie", date: "1979", genres: [("art rock", 1)]),
        ]
        let paced = try MusicBrainzStandIn(releases: standIn.releases + releases, cover: Self.cover)
        let first = try store.add("Low", by: "David Bowie", "--genre", "Rock", "--external-id", standIn.releases[0].id)
        let second = try store.add("Heroes", by: "David Bowie")
        let third = try store.add("Lodger", by: "David Bowie")
        let arguments = ["enrich", "--musicbrainz-url", paced.url, "--coverart-url", paced.url]
        let run = try BackgroundProcess(
            binary: store.cli.binary, arguments: arguments, environment: store.cli.environment, directory: store.cli.directory)
        // The first album looked up (one request) and the second begun: Ctrl-C.
        #expect(run.wait(timeout: .seconds(30)) { paced.musicBrainzRequests >= 2 })

        #expect(run.interrupt() == 130)
        #expect(run.stderrText.contains("Interrupted; filled"))
        #expect(try store.album(id: first.id).year == 1977)
        #expect(try store.album(id: third.id).year == nil)

        let rerun = try store.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.hasPrefix("Looking up 2 albums on MusicBrainz"))   // the first is done
        #expect(try store.album(id: second.id).year == 1977 && store.album(id: third.id).year == 1979)
    }

    @Test func aBaseURLThatIsNotHTTPIsOneLineAndNothingChanges() throws {
        try store.add("Low", by: "David Bowie")
        let result = try store.run("enrich", "--musicbrainz-url", "ftp://example.org")
        #expect(result.status != 0)
        #expect(result.stderr == "albumstore: musicbrainz-url: \"ftp://example.org\" is not an http or https URL\n")
        #expect(standIn.musicBrainzRequests == 0)
    }
}
