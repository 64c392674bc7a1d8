import Hummingbird

/// Refuses every write at once, 409 naming what runs, while an import holds the `ImportSlot`:
/// otherwise an undo would wait for the import's writer and then undo the import itself, and a
/// delete would fail after the busy timeout. Reads pass, and so do the imports themselves (the
/// slot refuses a second one in the same words) and an enrichment's lookup, which writes nothing.
///
/// The check is made as a request arrives: a write that passed it just before an import took the
/// slot runs first, as the import reads its body before it takes the writer.
struct ImportGuard<Context: RequestContext>: RouterMiddleware {
    let imports: ImportSlot

    /// The requests, besides reads, that may run during an import.
    static var allowed: Set<String> { ["/api/import", "/api/import-folder", "/api/enrich/proposals"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if ![.get, .head].contains(request.method), !Self.allowed.contains(request.uri.path), let job = imports.current {
            throw job.refusal
        }
        return try await next(request, context)
    }
}
