import Dispatch
import AlbumStore
import AlbumStoreServer
import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Browse the library in a web browser: covers, details, search, stats, history.",
        discussion: """
            Serves the album browser at http://127.0.0.1:8080/ (the page and its JSON API under \
            /api/, see docs/serve.md) until Ctrl-C. Changes made on the page are the library's \
            own (undoable, saved in the session state); changes made anywhere else show on the \
            page within a second.

            Only this machine can reach it unless --bind says otherwise; then every request \
            needs the token in the printed address. Writes always need the token the page holds.

            Examples:
              albumstore serve --open
              albumstore serve --port 0          # any free port
              albumstore serve --bind 0.0.0.0    # reachable from the network, with a token
            """)

    @OptionGroup var store: StoreOptions
    @Option(parsing: .unconditional, help: "The port to listen on (0: any free one).") var port: Int = 8080
    @Option(help: "The address to listen on (default: 127.0.0.1, this machine only).") var bind: String = "127.0.0.1"
    @Flag(help: "Open the page in the default browser.") var open = false
    @Option(help: ArgumentHelp("The MusicBrainz server the page's enrichment asks.", valueName: "url"))
    var musicbrainzURL = EnrichOptions.musicBrainz
    @Option(help: ArgumentHelp("The Cover Art Archive the page's enrichment asks.", valueName: "url"))
    var coverartURL = EnrichOptions.coverArtArchive

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port: \(port) is not between 0 and 65535") }
    }

    func run() async throws {
        let library = try store.openLibrary(.readWrite)
        let configuration = ServerConfiguration(
            host: bind, port: port, pageFolder: ProcessInfo.processInfo.environment["ALBUMSTORE_SERVE_PAGE"],
            musicBrainzURL: musicbrainzURL, coverArtURL: coverartURL)
        let server = AlbumServer(library: library, configuration: configuration)
        let open = open
        try await server.run { host, port in
            let shownHost = host.contains(":") ? "[\(host)]" : host
            let address = "http://\(shownHost):\(port)/" + (configuration.isLoopback ? "" : "?token=\(configuration.token)")
            Output.writeLine("Serving \(library.path) at \(address) (Ctrl-C stops it)")
            if open { Browser.open(address) }
        }
        await library.closeAfterWatch()
    }
}

/// Opening an address in the user's browser: `xdg-open` (Linux) or `open` (macOS). Its own
/// output is dropped (without a desktop, xdg-open explains itself in eight lines); if it fails,
/// or there is no desktop to open on, one line says where the page is.
enum Browser {
    static func open(_ address: String) {
        #if os(macOS)
        let tool = "open"
        #else
        let tool = "xdg-open"
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else {
            inform("No desktop to open a browser on (no DISPLAY or WAYLAND_DISPLAY): the page is at \(address)")
            return
        }
        #endif
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        }
        var pid = pid_t()
        let arguments = [tool, address]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawnp(&pid, tool, &actions, nil, &argv, environ) == 0 else {
            inform("Could not start \(tool): the page is at \(address)")
            return
        }
        // Not waited for by the server: a thread of its own says so if it failed.
        let child = pid
        DispatchQueue.global().async {
            var status: Int32 = 0
            guard waitpid(child, &status, 0) == child, status != 0 else { return }
            inform("\(tool) could not open a browser: the page is at \(address)")
        }
    }
}
