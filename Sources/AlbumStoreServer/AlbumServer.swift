import AlbumStore
import Hummingbird
import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The album browser's server: the page, the JSON API under `/api/` and the live events, over
/// one library.
package struct AlbumServer: Sendable {
    package let library: Library
    package let configuration: ServerConfiguration
    /// The import that holds the writes, if any: one at a time.
    let imports = ImportSlot()

    package init(library: Library, configuration: ServerConfiguration) {
        self.library = library
        self.configuration = configuration
    }

    /// Serves until SIGINT or SIGTERM, then ends the open event streams and returns.
    /// - Throws: `ServeError.addressInUse` when another program listens on the port.
    package func run(onRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void) async throws {
        do {
            try await application(onRunning: onRunning).runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ServeError.addressInUse(host: configuration.host, port: configuration.port)
        }
    }

    /// The application: run it with `runService()` (stops on SIGINT and SIGTERM), or test it.
    /// `onRunning` gets the address it listens on, port included.
    package func application(onRunning: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in })
        -> some ApplicationProtocol
    {
        let hub = EventHub(library: library)
        let router = Router(context: BasicRequestContext.self)
        let boundPort = BoundPort(configuration.port)
        router.add(middleware: RequestGuard(configuration: configuration, boundPort: boundPort))
        router.add(middleware: ImportGuard(imports: imports))
        PageRoutes(configuration: configuration).add(to: router)
        AlbumRoutes(library: library, imports: imports).add(to: router)
        QueryRoutes(library: library).add(to: router)
        HistoryRoutes(library: library).add(to: router)
        StateRoutes(library: library).add(to: router)
        SnapshotRoutes(library: library).add(to: router)
        CoverRoutes(library: library).add(to: router)
        JobRoutes(library: library, hub: hub, imports: imports).add(to: router)
        FolderScanRoutes(library: library, hub: hub, imports: imports).add(to: router)
        EnrichRoutes(library: library, hub: hub, configuration: configuration).add(to: router)
        EventRoutes(hub: hub).add(to: router)
        var logger = Logger(label: "albumstore.serve")
        logger.logLevel = .warning
        return Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            services: [hub],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                boundPort.set(port)
                await onRunning(configuration.host, port)
            },
            logger: logger)
    }
}

/// Why the server could not start.
package enum ServeError: Error, CustomStringConvertible {
    case addressInUse(host: String, port: Int)

    package var description: String {
        switch self {
        case let .addressInUse(host, port): "port \(port) is in use on \(host) (--port picks another, --port 0 any free one)"
        }
    }
}
