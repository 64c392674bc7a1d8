import AlbumStore
import Foundation
import Testing

/// An album as `--format json` / `ndjson` prints it, decoded with the documented keys.
struct PrintedAlbum: Decodable, Equatable {
    var index: Int
    var id: Int64
    var title: String
    var artist: String
    var genre: String?
    var year: Int?
    var coverURL: String?
    var externalID: String?
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case index, id, title, artist, genre, year
        case coverURL = "cover_url", externalID = "external_id", createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// A history entry as `history --format json` prints it.
struct PrintedHistoryEntry: Decodable, Equatable {
    var id: Int64
    var description: String
    var date: Date
    var undone: Bool

    enum CodingKeys: String, CodingKey {
        case id, description, date, undone = "is_undone"
    }
}

/// JSON as the CLI prints it: dates as ISO 8601 UTC strings with milliseconds, which read back
/// as exactly the dates stored.
func decodeJSON<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = ISO8601Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 date: \(text)")
        }
        return date
    }
    return try decoder.decode(type, from: Data(text.utf8))
}

/// How every date the CLI prints looks: `2026-11-22T01:51:30.123Z`.
var printedDate: Regex<Substring> { /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/ }

/// A CLI whose runs all use one library file (through ALBUMSTORE_DB), with shortcuts for the
/// album commands.
final class AlbumStoreFixture {
    let cli: CLI
    let db: String

    init() throws {
        cli = try CLI()
        db = cli.path("library.sqlite")
        cli.environment["ALBUMSTORE_DB"] = db
    }

    @discardableResult
    func run(_ arguments: String...) throws -> CLI.Result { try cli.run(arguments) }

    @discardableResult
    func run(_ arguments: [String]) throws -> CLI.Result { try cli.run(arguments) }

    /// Adds an album through `add --format json` and returns what the command printed.
    @discardableResult
    func add(_ title: String, by artist: String = "Artist", _ more: String...,
             sourceLocation: SourceLocation = #_sourceLocation) throws -> PrintedAlbum {
        let result = try cli.run(["add", "--title", title, "--artist", artist, "--format", "json"] + more)
        try #require(result.status == 0, "add failed: \(result.stderr)", sourceLocation: sourceLocation)
        let printed = try decodeJSON([PrintedAlbum].self, from: result.stdout)
        return try #require(printed.first, sourceLocation: sourceLocation)
    }

    /// Adds albums with these titles, in order, and returns them.
    @discardableResult
    func add(titles: [String]) throws -> [PrintedAlbum] {
        try titles.map { try add($0) }
    }

    /// Every album, in list order, from `list --format json`.
    func albums(sourceLocation: SourceLocation = #_sourceLocation) throws -> [PrintedAlbum] {
        let result = try cli.run(["list", "--format", "json"])
        try #require(result.status == 0, "list failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try decodeJSON([PrintedAlbum].self, from: result.stdout)
    }

    /// The titles in list order.
    func titles() throws -> [String] { try albums().map(\.title) }

    /// The album with `id`, from `show ID --format json`.
    func album(id: Int64, sourceLocation: SourceLocation = #_sourceLocation) throws -> PrintedAlbum {
        let result = try cli.run(["show", String(id), "--format", "json"])
        try #require(result.status == 0, "show failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try #require(try decodeJSON([PrintedAlbum].self, from: result.stdout).first, sourceLocation: sourceLocation)
    }

    /// The history, oldest first, from `history --format json`.
    func history(sourceLocation: SourceLocation = #_sourceLocation) throws -> [PrintedHistoryEntry] {
        let result = try cli.run(["history", "--format", "json"])
        try #require(result.status == 0, "history failed: \(result.stderr)", sourceLocation: sourceLocation)
        return try decodeJSON([PrintedHistoryEntry].self, from: result.stdout)
    }

    /// Everything a command could change: the albums (every field, in order) and the history.
    func snapshot() throws -> String {
        let albums = try cli.run(["list", "--format", "json"])
        let history = try cli.run(["history", "--format", "json"])
        return albums.stdout + "\n---\n" + history.stdout
    }
}

/// Checks the contract for bad input: exit 1, nothing on stdout, and exactly one line on stderr,
/// `albumstore: <message>`.
func expectRefused(_ result: CLI.Result, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == 1, sourceLocation: sourceLocation)
    #expect(result.stdout == "", sourceLocation: sourceLocation)
    #expect(result.stderr == "albumstore: \(message)\n", sourceLocation: sourceLocation)
}

/// Checks a usage error: exit 2 and the reason on stderr.
func expectUsageError(_ result: CLI.Result, saying message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == 2, sourceLocation: sourceLocation)
    #expect(result.stdout == "", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("Error: \(message)\n"), sourceLocation: sourceLocation)
}

/// The year after this one, the newest the library accepts.
var nextYear: Int { Calendar(identifier: .gregorian).component(.year, from: Date()) + 1 }
