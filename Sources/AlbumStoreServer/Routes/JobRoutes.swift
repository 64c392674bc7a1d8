import AlbumStore
import FoundationEssentials
import Hummingbird

/// The long jobs: importing a catalog sent as the body, and fetching the missing covers. Each
/// answers with its summary when done and tells its progress to `/api/events` meanwhile.
struct JobRoutes {
    let library: Library
    let hub: EventHub
    let imports: ImportSlot

    /// The largest catalog a request may send.
    static let catalogSizeLimit = 256 * 1024 * 1024

    func add(to router: Router<some RequestContext>) {
        router.post("/api/import") { request, _ in
            let name = request.uri.queryParameters.get("name").map { String($0) }
            return try await imports.run(.catalog(name: name), announcingTo: hub) { try await self.importCatalog(request, name: name) }
        }
        router.post("/api/covers/fetch") { request, _ in
            let query = try await JSONBody.decodeIfPresent(FetchBody.self, from: request)?.q ?? ""
            return try await self.fetchCovers(matching: try AlbumQuery(parsing: query))
        }
    }

    private struct FetchBody: Decodable { var q: String? }

    private func importCatalog(_ request: Request, name: String?) async throws -> Response {
        let format = try request.uri.queryParameters.get("format").map { text in
            guard let format = CatalogFormat(rawValue: String(text)) else {
                throw APIError(.badRequest, "format: \"\(text.prefix(40))\" is not one of "
                    + CatalogFormat.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return format
        }
        let body = try await JSONBody.collect(request, upTo: Self.catalogSizeLimit, what: "a catalog")
        let source = ImportSource.data(body.data, name: name ?? "upload")
        let progress = ProgressReporter(hub: hub, job: .import)
        let options = ImportOptions(progress: { step in
            progress.report(done: step.bytesRead, total: step.totalBytes, rows: step.rows)
        })
        let library = library
        let summary = try await library.offCooperativeThreads {
            try library.importAlbums(from: source, format: format, options: options)
        }
        return try JSONBody.response(ImportReport(summary))
    }

    private func fetchCovers(matching query: AlbumQuery) async throws -> Response {
        let library = library
        let ids = query.matchesEverything ? nil : try await library.offCooperativeThreads {
            var ids: [Int64] = []
            try library.albums.forEach(matching: query) { _, album in ids.append(album.id) }
            return ids
        }
        let progress = ProgressReporter(hub: hub, job: .fetch)
        let summary = try await library.covers.fetchMissing(among: ids) { done, total in
            progress.report(done: done, total: total, rows: nil)
        }
        return try JSONBody.response(FetchReport(summary))
    }
}

/// An import's summary as JSON.
struct ImportReport: Encodable {
    var file: String
    var format: String
    var rows: Int
    var inserted: Int
    var updated: Int
    var skippedDuplicates: Int
    var duplicatesWithinFile: Int
    var rejected: Int
    var skippedNotMusic: Int
    var ignoredColumns: [String]

    init(_ summary: ImportSummary) {
        file = summary.file
        format = summary.format.rawValue
        rows = summary.rows
        inserted = summary.inserted
        updated = summary.updated
        skippedDuplicates = summary.skippedDuplicates
        duplicatesWithinFile = summary.duplicatesWithinFile
        rejected = summary.rejected
        skippedNotMusic = summary.skippedNotMusicTotal
        ignoredColumns = summary.ignoredColumns
    }

    enum CodingKeys: String, CodingKey {
        case file, format, rows, inserted, updated, rejected
        case skippedDuplicates = "skipped_duplicates", duplicatesWithinFile = "duplicates_within_file"
        case skippedNotMusic = "skipped_not_music", ignoredColumns = "ignored_columns"
    }
}

/// A cover fetch's summary as JSON: `stored` (`album_id` and the cover's facts), `failures`
/// (`album_id`, `url`, `reason`), `without_url` (album ids).
struct FetchReport: Encodable {
    struct Failure: Encodable {
        var albumID: Int64
        var url: String
        var reason: String
        enum CodingKeys: String, CodingKey { case albumID = "album_id", url, reason }
    }

    var stored: [AlbumCover]
    var failures: [Failure]
    var withoutURL: [Int64]

    init(_ summary: CoverFetchSummary) {
        stored = summary.stored.map(AlbumCover.init)
        failures = summary.failures.map { Failure(albumID: $0.albumID, url: $0.url, reason: $0.reason) }
        withoutURL = summary.withoutURL
    }

    enum CodingKeys: String, CodingKey { case stored, failures, withoutURL = "without_url" }
}
