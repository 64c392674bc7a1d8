import Hummingbird
import ServiceLifecycle

/// `/api/events`: the hub's events as Server-Sent Events, for as long as the browser listens and
/// the server runs (stopping it ends the stream, so that Ctrl-C never waits for a browser).
struct EventRoutes {
    let hub: EventHub

    func add(to router: Router<some RequestContext>) {
        router.get("/api/events") { _, _ in
            let subscription = hub.subscribe()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    // A first comment sends the headers at once: the browser knows it is listening.
                    try await writer.write(ByteBuffer(string: ServerEvent.keepAlive.text))
                    for await bytes in subscription.events.cancelOnGracefulShutdown() {
                        if subscription.tookLoss() { try await writer.write(ByteBuffer(string: ServerEvent.resync.text)) }
                        try await writer.write(bytes)
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
