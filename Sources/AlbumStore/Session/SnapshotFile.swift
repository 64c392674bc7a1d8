import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The snapshot file format: one JSON object, versioned, that `exportSnapshot` writes and
/// `importSnapshot` reads.
///
/// ```json
/// {
///   "format": "albumstore-session-snapshot",
///   "format_version": 2,
///   "albumstore_version": "0.1.0",
///   "exported_at": "2026-11-22T08:15:03.120Z",
///   "name": "before-the-party",
///   "taken_at": "2026-11-22T08:10:00.000Z",
///   "state": { "current_album": {"index": 3, "album_id": 17}, "tab_order": ["covers", "details"],
///              "default_tab_order": null, "keys": {"volume": 0.8} }
/// }
/// ```
/// A file of an older version is migrated as it is read (`SnapshotFileMigration`); a newer one,
/// a foreign one, and one that is not JSON, truncated, wrong-typed or too large are refused.
package enum SnapshotFile {
    /// The value of `format`, which tells our files from any other JSON.
    package static let formatName = "albumstore-session-snapshot"
    /// The version this AlbumStore writes, and the newest it reads.
    package static let currentVersion = 2
    /// The largest file read: session state is small, and a file is read whole.
    package static let maxBytes = 32 << 20

    /// `snapshot` as a file's bytes: pretty-printed, keys sorted, ending with a line feed.
    package static func data(for snapshot: Snapshot, exportedAt: Date = Date()) -> Data {
        let document = JSONValue.object([
            "format": .string(formatName),
            "format_version": .integer(Int64(currentVersion)),
            "albumstore_version": .string(Library.version),
            "exported_at": .string(ISO8601Timestamp.string(from: exportedAt)),
            "name": .string(snapshot.name),
            "taken_at": .string(ISO8601Timestamp.string(from: snapshot.takenAt)),
            "state": snapshot.state.json,
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(document)) ?? Data()) + Data("\n".utf8)
    }

    /// Reads a snapshot from a file's bytes; `source` names the file in errors.
    /// - Throws: `SessionError.badSnapshotFile` naming the file, the place in it and the reason.
    package static func snapshot(from data: Data, source: String) throws -> Snapshot {
        func bad(_ place: String, _ reason: String) -> SessionError {
            .badSnapshotFile(source: source, place: place, reason: reason)
        }
        if data.count > maxBytes { throw bad("", tooLarge(data.count)) }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch let error as JSONValue.SyntaxError {
            throw bad("", data.isEmpty ? "the file is empty" : error.description)
        }
        do {
            let root = JSONShape(value: document, place: "")
            guard case .object = document, try root.optionalMember("format")?.string() == formatName else {
                throw bad("", "not an AlbumStore session snapshot (no \"format\": \"\(formatName)\")")
            }
            let version = try root.member("format_version").int()
            guard version <= currentVersion else {
                throw bad("format_version", "version \(version) was written by a newer AlbumStore; this one reads up to \(currentVersion)")
            }
            let current = try SnapshotFileMigration.migrate(root, from: version)
            let name = try current.member("name").string()
            if let problem = Snapshot.problem(inName: name) { throw bad("name", problem) }
            let takenAt = try current.member("taken_at")
            guard let date = ISO8601Timestamp.date(from: try takenAt.string()) else {
                throw bad("taken_at", "expected an ISO 8601 time like 2026-11-22T08:15:03.000Z")
            }
            return Snapshot(name: name, takenAt: date, state: try SessionState(json: current.member("state")))
        } catch let mismatch as JSONShape.Mismatch {
            throw bad(mismatch.place, mismatch.reason)
        }
    }

    /// Reads the file at `url` whole, refusing one larger than `maxBytes` before reading it.
    /// Errors name the file as `url` was given (a relative path stays relative).
    package static func snapshot(contentsOf url: URL) throws -> Snapshot {
        let source = url.relativePath
        let file: OpenFile
        do { file = try OpenFile.reading(url.path) } catch let failure as OpenFile.Failure
            where failure.refusal != nil || failure.errno == ELOOP {
            // A loop of symbolic links is no file to `fileExists`, but not a missing one.
            throw SessionError.badSnapshotFile(source: source, place: "", reason: failure.description)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw SessionError.badSnapshotFile(source: source, place: "", reason: exists ? "cannot be read" : "no such file")
        }
        return try snapshot(reading: file, source: source)
    }

    /// Reads what `file` gives (a file or a pipe) up to its end, refusing more than
    /// `maxBytes` once that much has come (a file's size is checked before reading).
    package static func snapshot(reading file: OpenFile, source: String) throws -> Snapshot {
        var status = stat()
        // A regular file says its size; a pipe does not, and is read up to one byte past the limit.
        let size = fstat(file.fileDescriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
        if let size, size > maxBytes { throw SessionError.badSnapshotFile(source: source, place: "", reason: tooLarge(size)) }
        let data: Data
        do {
            data = try file.read(upToCount: maxBytes + 1)
        } catch {
            throw SessionError.badSnapshotFile(source: source, place: "", reason: "cannot be read (\(error))")
        }
        if data.count > maxBytes { throw SessionError.badSnapshotFile(source: source, place: "", reason: tooLarge(nil)) }
        return try snapshot(from: data, source: source)
    }

    static func tooLarge(_ size: Int?) -> String {
        "\(size.map { "\($0) bytes is" } ?? "it is") larger than a snapshot file may be (\(maxBytes) bytes)"
    }
}
