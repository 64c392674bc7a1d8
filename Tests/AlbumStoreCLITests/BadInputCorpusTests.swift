import Foundation
import Testing

/// The bad-input corpus, `BadInput/manifest.txt`: each entry runs a real command on a bad file
/// against a library with albums, a cover and session state, and expects the documented exit
/// status, nothing on stdout, exactly one line on stderr naming the file and the place in it, a
/// library whose `.dump` is the same as before, and the file's folder as it was (the file's
/// bytes included).
///
/// The manifest names committed files; names starting with `@` are made here at run time:
/// they are large, or not files one can commit (a FIFO, a loop of symbolic links).
struct BadInputCorpusTests {
    /// One manifest line.
    struct Entry: Sendable, CustomTestStringConvertible {
        var file: String
        var arguments: [String]
        var status: Int32
        var fragment: String
        var testDescription: String { "\(file): \(arguments.joined(separator: " "))" }
    }

    static let folder = Bundle.module.resourceURL!.appendingPathComponent("BadInput")

    /// `file | arguments (FILE stands for the file) | status | stderr fragment`, `#` comments.
    static let entries: [Entry] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("manifest.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.allSatisfy(\.isWhitespace) else { return nil }
            let fields = line.split(separator: "|", maxSplits: 3).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 4, let status = Int32(fields[2]) else { return Entry(file: String(line), arguments: [], status: -1, fragment: "") }
            return Entry(file: fields[0], arguments: fields[1].split(separator: " ").map(String.init), status: status, fragment: fields[3])
        }
    }()

    @Test func theCorpusHasEightyFilesAtLeastEachInTheManifest() throws {
        let committed = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0 != "manifest.txt" }
        let named = Set(Self.entries.map(\.file))
        #expect(committed.count >= 80)
        #expect(Set(committed).subtracting(named).isEmpty, "files the manifest does not run")
        #expect(Self.entries.allSatisfy { $0.status >= 0 }, "lines of the manifest that do not parse")
    }

    /// What running an entry gave, and the library and folder before and after.
    struct Run: Sendable {
        var path: String
        var result: CLI.Result
        var dumps: (before: String, after: String)
        var folders: (before: [String: Data], after: [String: Data])
    }

    // One at a time, each on a thread of its own: a command blocks its thread while it runs, and
    // entries on Swift's cooperative pool (a thread a core) starved the async tests beside them.
    @Test(.serialized, .timeLimit(.minutes(1)), arguments: entries)
    func aBadFileIsRefusedInOneLineAndChangesNothing(_ entry: Entry) async throws {
        let run = try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try Self.run(entry) }) }.start()
        }
        let result = run.result
        #expect(result.status == entry.status, "\(result.stderr)")
        #expect(result.stdout == "")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(result.stderr.prefix(2_000))")
        #expect(result.stderr.contains(entry.fragment), "\(result.stderr.prefix(2_000))")
        #expect(result.stderr.contains(run.path), "the line names the file")
        #expect(run.dumps.after == run.dumps.before, "the library changed")
        #expect(run.folders.after == run.folders.before, "the folder changed")
    }

    /// Runs `entry`'s command on a copy of the library, in a folder of its own.
    private static func run(_ entry: Entry) throws -> Run {
        let cli = try CLI()
        let db = cli.path("library.sqlite")
        try BadInputLibrary.copy(to: db)
        let (path, unprivileged, cleanUp) = try place(entry.file, in: cli)
        defer { cleanUp() }
        if unprivileged { try BadInputLibrary.handOver(cli.directory.path, db) }
        let dumpBefore = try SQLiteShell.run(".dump", on: db)
        let folderBefore = try listing(of: cli.directory.path)
        let arguments = entry.arguments.map { $0 == "FILE" ? path : $0 }
        let result = try cli.run(["--db", db] + arguments, unprivileged: unprivileged)
        return Run(path: path, result: result, dumps: (dumpBefore, try SQLiteShell.run(".dump", on: db)),
                   folders: (folderBefore, try listing(of: cli.directory.path)))
    }

    /// Each file of `folder` but the library's own: its bytes (a regular file), or its kind.
    private static func listing(of folder: String) throws -> [String: Data] {
        var listing: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix("library.sqlite") {
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFREG && status.st_size < 16 << 20 && status.st_mode & 0o444 != 0 {
                listing[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            } else {
                listing[name] = Data("mode \(status.st_mode) size \(status.st_size)".utf8)
            }
        }
        return listing
    }

    /// Puts the entry's file in the CLI's folder: a copy of a committed file, or one made here.
    /// Gives the path the command names, whether it runs unprivileged, and what undoes it.
    private static func place(_ file: String, in cli: CLI) throws -> (String, Bool, () -> Void) {
        guard file.hasPrefix("@") else {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(file), to: cli.directory.appendingPathComponent(file))
            return (file, false, {})
        }
        let name = String(file.dropFirst())
        let path = cli.path(name)
        switch name {
        case "dev-zero":
            return ("/dev/zero", false, {})
        case "directory":
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case "symlink-loop":
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: name)
        case "fifo":
            guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
            // A writer that sends a broken catalog; released by opening the other end if the
            // command never reads it. A reader gone early is EPIPE, not a signal that ends the tests.
            signal(SIGPIPE, SIG_IGN)
            let writer = Thread {
                let descriptor = open(path, O_WRONLY)
                guard descriptor >= 0 else { return }
                let text = "{\"title\": \"Low\", \"artist\": \"Bo"
                _ = text.withCString { write(descriptor, $0, strlen($0)) }
                close(descriptor)
            }
            writer.start()
            return (name, false, {
                let reader = open(path, O_RDONLY | O_NONBLOCK)
                if reader >= 0 { close(reader) }
            })
        case "unreadable.csv":
            try Data("title,artist\nLow,Bowie\n".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
            return (name, true, {})
        case "sparse-2-gb":
            // 2 GiB that take no room: a size read from the file system, never the bytes.
            guard FileManager.default.createFile(atPath: path, contents: nil), truncate(path, 2 << 30) == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
        case "line-10-mb.ndjson":
            try writeRepeating(path, "{\"title\": \"Low\", \"artist\": \"Bowie\", \"notes\": \"", repeating: "x", count: 10 << 20, "\"}\n")
        case "line-10-mb.csv":
            try writeRepeating(path, "title,artist\n", repeating: "x", count: 10 << 20, ",Bowie\n")
        case "field-100-mb.csv":
            try writeRepeating(path, "title,artist\nLow,\"", repeating: "y", count: 100 << 20, "\"\n")
        case "genre-100-mb.json":
            try writeRepeating(path, "[{\"title\": \"Low\", \"artist\": \"Bowie\", \"genre\": \"", repeating: "z", count: 100 << 20, "\"}]\n")
        case "key-100-mb.json":
            try writeRepeating(path, "[{\"title\": \"Low\", \"artist\": \"Bowie\", \"", repeating: "k", count: 100 << 20, "\": 1}]\n")
        case "attributes-500k.xml":
            let attributes = (0..<500_000).map { " a\($0)='\($0)'" }.joined()
            try Data("<?xml version=\"1.0\"?>\n<plist\(attributes)>\n<dict/>\n</plist>\n".utf8).write(to: URL(fileURLWithPath: path))
        default:
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: file])
        }
        return (name, false, {})
    }

    /// Writes `head`, `count` times `byte`, then `tail`, a megabyte at a time.
    private static func writeRepeating(_ path: String, _ head: String, repeating byte: Character, count: Int, _ tail: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(head.utf8)),
              let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        try handle.seekToEnd()
        let block = Data(repeating: byte.asciiValue!, count: 1 << 20)
        for _ in 0..<(count >> 20) { try handle.write(contentsOf: block) }
        try handle.write(contentsOf: Data(repeating: byte.asciiValue!, count: count & ((1 << 20) - 1)))
        try handle.write(contentsOf: Data(tail.utf8))
    }
}
