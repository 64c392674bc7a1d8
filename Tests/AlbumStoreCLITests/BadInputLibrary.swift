import Foundation
import Testing

/// The library the bad-input corpus runs against: three albums, a cover, the current album, a
/// tab order, a key and a snapshot, made once by the CLI and copied for each entry.
enum BadInputLibrary {
    /// A 1×1 PNG, complete: what `covers set` stores.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
        0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xF8, 0xCF, 0xC0, 0x00,
        0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xDD, 0x8D, 0xB0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E,
        0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    private static let made: Result<Data, any Error> = Result {
        let cli = try CLI()
        let db = cli.path("library.sqlite")
        try Data(png).write(to: URL(fileURLWithPath: cli.path("cover.png")))
        let commands = [
            ["add", "--title", "Low", "--artist", "David Bowie", "--year", "1977"],
            ["add", "--title", "Heroes", "--artist", "David Bowie", "--year", "1977"],
            ["add", "--title", "Lodger", "--artist", "David Bowie", "--year", "1979", "--genre", "Rock"],
            ["covers", "set", "1", "cover.png"],
            ["state", "current", "--index", "1"],
            ["state", "tabs", "covers", "details"],
            ["state", "set", "volume", "0.8"],
            ["state", "snapshot", "party"],
        ]
        for command in commands {
            let result = try cli.run(["--db", db] + command)
            guard result.status == 0 else { throw SQLiteShell.Failure(message: "\(command): \(result.stderr)") }
        }
        return try Data(contentsOf: URL(fileURLWithPath: db))
    }

    /// Writes the library to `path`.
    static func copy(to path: String) throws {
        try made.get().write(to: URL(fileURLWithPath: path))
    }

    /// Gives `paths` to the user an unprivileged run runs as, so that it may write the library.
    static func handOver(_ paths: String...) throws {
        guard Unprivileged.isRoot else { return }
        for path in paths {
            try FileManager.default.setAttributes([.ownerAccountID: Unprivileged.user], ofItemAtPath: path)
        }
    }
}
