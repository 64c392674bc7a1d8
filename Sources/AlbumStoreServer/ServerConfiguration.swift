import AlbumStore
import FoundationEssentials

/// Where `albumstore serve` listens and what it asks of a request.
package struct ServerConfiguration: Sendable {
    /// The address to listen on: loopback unless the user says otherwise.
    package var host: String
    /// The port; 0 picks a free one.
    package var port: Int
    /// The secret every write needs, and off loopback every request; new at each start.
    package let token: String
    /// A folder to serve the page's three files from instead of the binary's copies, so that the
    /// page can be changed without a build (`ALBUMSTORE_SERVE_PAGE`).
    package var pageFolder: String?
    /// Where the page's enrichment asks: MusicBrainz and the Cover Art Archive, or stand-ins.
    package var musicBrainzURL: String
    package var coverArtURL: String

    package init(
        host: String = "127.0.0.1", port: Int = 8080, token: String = Self.newToken(), pageFolder: String? = nil,
        musicBrainzURL: String = EnrichOptions.musicBrainz, coverArtURL: String = EnrichOptions.coverArtArchive
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.pageFolder = pageFolder
        self.musicBrainzURL = musicBrainzURL
        self.coverArtURL = coverArtURL
    }

    /// Whether only this machine can reach the server: then reads need no token.
    package var isLoopback: Bool { Self.loopbackNames.contains(host) }

    static let loopbackNames: Set<String> = ["127.0.0.1", "::1", "localhost"]

    /// 128 random bits, as hex.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
