import Foundation

/// A folder of tagged audio files made by `scripts/make-music-tree` (ffmpeg and mutagen), with
/// the albums a correct import makes (`expected.json`), in a temporary folder of its own.
public final class MusicTree {
    public let directory: TemporaryDirectory
    /// The tree's root.
    public var root: URL { directory.file("Music") }
    public let expected: Expected

    public struct Expected: Decodable, Sendable {
        public struct Album: Decodable, Sendable {
            public var title: String
            public var artist: String
            public var year: Int?
            public var genre: String?
            public var tracks: Int
            public var discs: Int
            public var cover: String?
            public var cover_sha256: String?
            public var musicbrainz_release_id: String?
            public var paths: [String]
        }
        public struct Rejected: Decodable, Sendable {
            public var path: String
            public var why: String
        }
        public struct Path: Decodable, Sendable {
            public var hex: String
            public var display: String
        }
        public var albums: [Album]
        public var rejected: [Rejected]
        public var untagged: [String]
        public var non_utf8_paths: [Path]
    }

    /// The repository's root, where scripts/ is.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Where the cases tree is made, once per test process (about 3 s), removed at exit.
    private static let casesFolder = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-music-\(getpid())")

    private static let cases: Result<URL, Error> = Result {
        try? FileManager.default.removeItem(at: casesFolder)
        atexit { try? FileManager.default.removeItem(at: MusicTree.casesFolder) }
        try run(["python3", repository.appendingPathComponent("scripts/make-music-tree").path, "cases", casesFolder.path])
        return casesFolder
    }

    /// A copy of the cases tree.
    public init() throws {
        directory = try TemporaryDirectory()
        let source = try Self.cases.get()
        try Self.run(["cp", "-a", source.path, directory.file("Music").path])
        expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: source.appendingPathComponent("expected.json")))
    }

    /// A file or folder of the tree.
    public func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Sets tags of the files (mutagen's easy keys: genre, date, album, ...), as a tagger would.
    public func retag(_ files: [String], _ tags: [String: String]) throws {
        let script = """
            import json, sys, mutagen
            tags = json.loads(sys.argv[1])
            for path in sys.argv[2:]:
                f = mutagen.File(path, easy=True)
                for key, value in tags.items():
                    f[key] = value
                f.save()
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: tags), as: UTF8.self)
        try Self.run(["python3", "-c", script, json] + files.map(path))
    }

    /// Runs a command and waits; throws when it fails.
    public static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MusicTreeError(command: arguments.joined(separator: " "), output: String(decoding: message, as: UTF8.self))
        }
    }
}

public struct MusicTreeError: Error, CustomStringConvertible {
    let command: String
    let output: String
    public var description: String { "\(command) failed: \(output)" }
}
