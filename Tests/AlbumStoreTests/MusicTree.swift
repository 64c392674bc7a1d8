import Foundation
import TestSupport

/// A folder of tagged audio files made by `scripts/make-music-tree` (ffmpeg and mutagen), with
/// the albums a correct import makes (`expected.json`), in a temporary folder of its own.
final class MusicTree {
    let directory: TemporaryDirectory
    /// The tree's root.
    var root: URL { directory.file("Music") }
    let expected: Expected

    struct Expected: Decodable {
        struct Album: Decodable {
            var title: String
            var artist: String
            var year: Int?
            var genre: String?
            var tracks: Int
            var discs: Int
            var cover: String?
            var cover_sha256: String?
            var musicbrainz_release_id: String?
            var paths: [String]
        }
        struct Rejected: Decodable {
            var path: String
            var why: String
        }
        struct Path: Decodable {
            var hex: String
            var display: String
        }
        var albums: [Album]
        var rejected: [Rejected]
        var untagged: [String]
        var non_utf8_paths: [Path]
    }

    /// The repository's root, where scripts/ is.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
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
    init() throws {
        directory = try TemporaryDirectory()
        let source = try Self.cases.get()
        try Self.run(["cp", "-a", source.path, directory.file("Music").path])
        expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: source.appendingPathComponent("expected.json")))
    }

    /// A file or folder of the tree.
    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Sets tags of the files (mutagen's easy keys: genre, date, album, ...), as a tagger would.
    func retag(_ files: [String], _ tags: [String: String]) throws {
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
    static func run(_ arguments: [String]) throws {
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

struct MusicTreeError: Error, CustomStringConvertible {
    let command: String
    let output: String
    var description: String { "\(command) failed: \(output)" }
}
