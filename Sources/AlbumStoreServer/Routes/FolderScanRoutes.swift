import AlbumStore
import FoundationEssentials
import Hummingbird
import Synchronization

/// Importing a music folder on the server's machine (`POST /api/import-folder`, body
/// `{"folder": PATH, "prune": BOOL}`): answers with the summary when done; meanwhile
/// `/api/events` tells the files read (`progress`, job `scan`) and each album as its folder has
/// been read (`scanned`), its cover served from `GET /api/scan-covers/{n}` while it is recent.
/// The albums enter the list at the import's commit: a scan is one undoable command.
struct FolderScanRoutes {
    let library: Library
    let hub: EventHub
    let imports: ImportSlot
    let covers = RecentCovers()

    func add(to router: Router<some RequestContext>) {
        router.post("/api/import-folder") { request, _ in
            // The body is small (the cap of a JSON body): read before the slot, which names the folder.
            let body = try await JSONBody.decode(ScanBody.self, from: request)
            return try await imports.run(.folder(path: body.folder), announcingTo: hub) { try await self.scan(body) }
        }
        router.get("/api/scan-covers/{n}") { _, context in
            let name = context.parameters.get("n") ?? ""
            guard let (data, format) = covers.image(named: name) else {
                throw APIError(.notFound, "no recent scan cover named \(name.prefix(64))")
            }
            return Response(
                status: .ok, headers: [.contentType: format.mimeType, .cacheControl: "private, max-age=3600"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
    }

    private struct ScanBody: Decodable {
        var folder: String
        var prune: Bool?
    }

    private func scan(_ body: ScanBody) async throws -> Response {
        let progress = ProgressReporter(hub: hub, job: .scan)
        let hub = hub, covers = covers
        let options = FolderImportOptions(
            prune: body.prune ?? false,
            progress: { step in progress.report(done: step.filesRead, total: step.filesToRead, rows: nil) },
            albumFound: { album in hub.publish(.scanned(FoundAlbumEvent(album, cover: album.cover.flatMap(covers.keep)))) })
        let library = library
        let summary = try await library.offCooperativeThreads { try library.importFolder(body.folder, options: options) }
        return try JSONBody.response(FolderScanReport(summary))
    }
}

/// The covers of the albums a scan wrote last, by a number of their own: what the page shows
/// while the scan's albums are not yet in the library. Bounded, as a scan may set thousands.
final class RecentCovers: Sendable {
    static let capacity = 48
    private struct State {
        var images: [(number: Int, data: Data, format: ImageFormat)] = []
        var next = 1
    }
    private let state = Mutex(State())

    /// Keeps `data` when it is an image; returns the name it is served under.
    func keep(_ data: Data) -> String? {
        guard let format = ImageHeader.sniff(Array(data.prefix(ImageHeader.sniffLength)))?.format else { return nil }
        return state.withLock { state in
            let number = state.next
            state.next += 1
            state.images.append((number, data, format))
            if state.images.count > Self.capacity { state.images.removeFirst() }
            return String(number)
        }
    }

    func image(named name: String) -> (Data, ImageFormat)? {
        guard let number = Int(name) else { return nil }
        return state.withLock { state in state.images.first { $0.number == number }.map { ($0.data, $0.format) } }
    }
}

/// An album a scan found, as the `scanned` event tells it: `title`, `artist`, `year`, `tracks`,
/// `folder` and `cover` (a URL, or `null`).
struct FoundAlbumEvent: Sendable, Encodable {
    var title: String
    var artist: String
    var year: Int?
    var tracks: Int
    var folder: String
    var cover: String?

    init(_ album: FoundAlbum, cover: String?) {
        title = album.title
        artist = album.artist
        year = album.year
        tracks = album.trackCount
        folder = album.folder
        self.cover = cover.map { "/api/scan-covers/\($0)" }
    }
}

/// A folder import's summary as JSON, in the words of `albumstore import FOLDER`.
struct FolderScanReport: Encodable {
    struct Problem: Encodable {
        var path: String
        var reason: String
        var skipped: Bool
    }

    var folder: String
    var filesFound: Int
    var filesRead: Int
    var filesGone: Int
    var albumsAdded: Int
    var albumsUpdated: Int
    var albumsUnchanged: Int
    var albumsGone: Int
    var coversSet: Int
    var untaggedFiles: Int
    var problems: [Problem]

    init(_ summary: FolderImportSummary) {
        folder = summary.folder
        filesFound = summary.filesFound
        filesRead = summary.filesRead
        filesGone = summary.filesGone
        albumsAdded = summary.albumsAdded
        albumsUpdated = summary.albumsUpdated
        albumsUnchanged = summary.albumsUnchanged
        albumsGone = summary.albumsGone.count
        coversSet = summary.coversSet
        untaggedFiles = summary.untaggedFiles
        problems = summary.problems.map { Problem(path: $0.path, reason: $0.reason, skipped: $0.isSkipped) }
    }

    enum CodingKeys: String, CodingKey {
        case folder, problems
        case filesFound = "files_found", filesRead = "files_read", filesGone = "files_gone"
        case albumsAdded = "albums_added", albumsUpdated = "albums_updated", albumsUnchanged = "albums_unchanged"
        case albumsGone = "albums_gone", coversSet = "covers_set", untaggedFiles = "untagged_files"
    }
}
