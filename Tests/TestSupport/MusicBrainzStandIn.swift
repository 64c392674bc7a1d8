import Foundation
import Synchronization

/// MusicBrainz's web service and the Cover Art Archive as a `LocalHTTPServer` on 127.0.0.1,
/// answering with their JSON shapes (musicbrainz.org/doc/MusicBrainz_API: a release lookup with
/// `inc=artist-credits+release-groups+genres`, a release search with scores) from a few releases
/// a test makes, and misbehaving as a test asks.
public final class MusicBrainzStandIn: Sendable {
    /// A release the stand-in knows.
    public struct Release: Sendable {
        public var id: String
        public var title: String
        public var artist: String
        public var date: String?
        public var releaseGroupID: String
        public var firstReleaseDate: String?
        public var genres: [(name: String, count: Int)]
        public var hasFrontCover: Bool
        /// How the stand-in answers for this release.
        public var behaviour: Behaviour

        public init(id: String, title: String, artist: String, date: String? = nil, releaseGroupID: String? = nil,
                    firstReleaseDate: String? = nil, genres: [(name: String, count: Int)] = [], hasFrontCover: Bool = true,
                    behaviour: Behaviour = .normal) {
            self.id = id
            self.title = title
            self.artist = artist
            self.date = date
            self.releaseGroupID = releaseGroupID ?? "group-" + id
            self.firstReleaseDate = firstReleaseDate
            self.genres = genres
            self.hasFrontCover = hasFrontCover
            self.behaviour = behaviour
        }
    }

    /// Ways to answer badly, each on this release's lookup or its cover.
    public enum Behaviour: Sendable {
        case normal
        case malformedJSON
        case wrongContentType
        case hugeCover
        case brokenCover
        case coverRedirectLoop
        /// The lookup answers after `seconds`.
        case slow(seconds: Double)
    }

    private let server: LocalHTTPServer
    /// The time of each MusicBrainz request, as the test's clock said when it arrived.
    private let times = TimeLog()
    public let releases: [Release]

    /// - Parameters:
    ///   - busyFirst: Answer the first MusicBrainz request with 503 and `Retry-After: 2`.
    ///   - now: The test's clock, read at each MusicBrainz request.
    public init(releases: [Release], cover: Data, busyFirst: Bool = false, now: @escaping @Sendable () -> Double = { 0 }) throws {
        self.releases = releases
        let times = times
        let busy = Mutex(busyFirst)
        server = try LocalHTTPServer { path, _ in
            if path.hasPrefix("/ws/2/") {
                times.values.withLock { $0.append(now()) }
                if busy.withLock({ busy in
                    defer { busy = false }
                    return busy
                }) {
                    return .init(status: 503, headers: [("Retry-After", "2")], body: Data("slow down".utf8))
                }
            }
            return Self.answer(path, releases: releases, cover: cover)
        }
    }

    deinit { server.stop() }

    /// The base URL of both services.
    public var url: String { server.url("") }

    /// The test clock's time at each MusicBrainz request, in order.
    public var requestTimes: [Double] { times.values.withLock { $0 } }

    /// Requests to MusicBrainz (`/ws/2/`) so far.
    public var musicBrainzRequests: Int { requestTimes.count }

    /// Every request's head, in order.
    public var requestHeads: [String] { server.requestHeads }

    private static func json(_ object: Any) -> LocalHTTPServer.Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return .init(headers: [("Content-Type", "application/json; charset=utf-8")], body: data)
    }

    private static func answer(_ path: String, releases: [Release], cover: Data) -> LocalHTTPServer.Response {
        let (route, query) = split(path)
        let parts = route.split(separator: "/").map(String.init)
        if parts.count == 4, parts[0] == "ws", parts[1] == "2", parts[2] == "release" {
            guard let release = releases.first(where: { $0.id == parts[3] }) else { return json(["error": "Not Found"]).with(status: 404) }
            switch release.behaviour {
            case .malformedJSON:
                return .init(headers: [("Content-Type", "application/json")], body: Data("{\"id\": \"\(release.id)\", \"title\":".utf8))
            case .wrongContentType:
                return .init(headers: [("Content-Type", "text/html")], body: Data("<html>maintenance</html>".utf8))
            case let .slow(seconds):
                var response = json(lookup(release))
                response.delay = seconds
                return response
            default:
                return json(lookup(release))
            }
        }
        if parts == ["ws", "2", "release"] {
            return json(search(query["query"] ?? "", releases))
        }
        if parts.count == 3, parts[0] == "release", parts[2] == "front-500" {
            guard let release = releases.first(where: { $0.id == parts[1] }), release.hasFrontCover else { return .init(status: 404) }
            if case .coverRedirectLoop = release.behaviour { return .init(status: 307, headers: [("Location", path)]) }
            return .init(status: 307, headers: [("Location", "/images/\(release.id)-500.png")])
        }
        if parts.count == 2, parts[0] == "images", let release = releases.first(where: { parts[1].hasPrefix($0.id) }) {
            let png = [("Content-Type", "image/png")]
            switch release.behaviour {
            case .hugeCover:
                return .init(headers: png, body: cover + Data(repeating: 0, count: 6_000_000), streamedInChunksOf: 64 * 1024)
            case .brokenCover: return .init(headers: png, body: cover.prefix(200))   // cut short: no IEND
            default: return .init(headers: png, body: cover)
            }
        }
        return .init(status: 404)
    }

    private static func artistCredit(_ release: Release) -> [[String: Any]] {
        [["name": release.artist, "joinphrase": "", "artist": ["id": "artist-" + release.id, "name": release.artist]]]
    }

    private static func lookup(_ release: Release) -> [String: Any] {
        var group: [String: Any] = ["id": release.releaseGroupID, "title": release.title, "primary-type": "Album"]
        group["first-release-date"] = release.firstReleaseDate ?? ""
        var object: [String: Any] = [
            "id": release.id, "title": release.title, "status": "Official", "artist-credit": artistCredit(release),
            "release-group": group, "genres": release.genres.map { ["name": $0.name, "count": $0.count, "id": "genre-\($0.name)"] },
            "cover-art-archive": ["front": release.hasFrontCover, "artwork": release.hasFrontCover, "count": release.hasFrontCover ? 1 : 0],
        ]
        object["date"] = release.date ?? ""
        return object
    }

    /// MusicBrainz's search answer: releases whose title is the phrase after `release:` score 100
    /// with the artist after `artist:` too, 70 without; others are not listed.
    private static func search(_ query: String, _ releases: [Release]) -> [String: Any] {
        let title = phrase(after: "release:", in: query), artist = phrase(after: "artist:", in: query)
        var found: [[String: Any]] = []
        for release in releases where release.title.lowercased() == title.lowercased() {
            let score = release.artist.lowercased() == artist.lowercased() ? 100 : 70
            var entry: [String: Any] = [
                "id": release.id, "score": score, "title": release.title, "artist-credit": artistCredit(release),
                "release-group": ["id": release.releaseGroupID, "primary-type": "Album"],
            ]
            entry["date"] = release.date ?? ""
            found.append(entry)
        }
        return ["created": "2026-11-29T00:00:00.000Z", "count": found.count, "offset": 0, "releases": found]
    }

    /// The quoted phrase after `field` in a Lucene query, unescaped.
    private static func phrase(after field: String, in query: String) -> String {
        guard let start = query.range(of: field + "\"") else { return "" }
        var text = "", escaped = false
        for character in query[start.upperBound...] {
            if escaped { text.append(character); escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { break } else { text.append(character) }
        }
        return text
    }

    private static func split(_ path: String) -> (String, [String: String]) {
        guard let mark = path.firstIndex(of: "?") else { return (path, [:]) }
        var query: [String: String] = [:]
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if halves.count == 2 { query[halves[0]] = halves[1] }
        }
        return (String(path[..<mark]), query)
    }
}

private final class TimeLog: Sendable {
    let values = Mutex<[Double]>([])
}

private extension LocalHTTPServer.Response {
    func with(status: Int) -> Self {
        var copy = self
        copy.status = status
        return copy
    }
}
