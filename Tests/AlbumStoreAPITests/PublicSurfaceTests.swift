// The public API is what an app needs, and nothing the command-line tool uses for its own
// plumbing. Test targets of the package also see `package` declarations, so compiling proves
// nothing here: this test reads the public surface from the built module's symbol graph.
import Foundation
import Testing

struct PublicSurfaceTests {
    /// Every public type of `AlbumStore`. A new public type is a decision: add it here.
    static let publicTypes: Set<String> = [
        "Album", "Album.ID", "AlbumDraft", "AlbumError", "AlbumField", "AlbumField.QueryKind",
        "AlbumQuery", "AlbumQuery.Condition", "AlbumQuery.Term", "AlbumRepository", "AlbumSort",
        "AlbumSort.Key", "AlbumStats", "AlbumStats.Decade", "AlbumStats.Entry",
        "CatalogEncoding", "CatalogFormat", "ChangeFeed", "ChangeFeed.Iterator", "ChangeFeedError",
        "ChangeLogRetention", "ChangeSet", "ChangeStream", "ChangeStream.Iterator", "CoverError",
        "CoverExportReport", "CoverFetchOptions", "CoverFetchSummary", "CoverFetchSummary.Failure",
        "CoverGarbageReport", "CoverInfo", "CoverRepository", "CoverSource", "CoverStats",
        "CurrentAlbum", "AlbumFolder", "EnrichField", "EnrichmentError", "EnrichOptions", "EnrichProgress", "EnrichProposal",
        "EnrichSummary", "EnrichSummary.AlbumName", "EnrichSummary.Skipped", "FolderImportOptions", "FolderImportSummary", "FolderImportSummary.GoneAlbum",
        "FolderProblem", "FolderScanProgress", "FoundAlbum", "HistoryEntry", "HistoryError", "ImageFormat", "ImportError", "ImportOptions",
        "ImportOptions.ConflictPolicy", "ImportOptions.InvalidRowPolicy", "ImportProgress",
        "ImportRejection", "ImportSource", "ImportSummary",
        "Library", "Library.Access", "Library.Configuration", "LibraryInfo", "LibraryObservation", "LibraryProblem", "LibraryProblem.Area", "ObservedTable",
        "QueryError", "ResolvedCurrentAlbum", "RowIDs", "ScannedAlbum", "ScannedAlbum.Change", "SchemaError", "Session", "SessionDifference",
        "SessionError", "SessionItem", "SessionRestore", "SessionState", "Snapshot", "StorageError",
        "StorageError.Reason", "TableChanges",
    ]

    /// The command-line tool's plumbing: files, byte sinks, writers, spools, header sniffing.
    static let plumbing: Set<String> = [
        "OpenFile", "FileDescriptorSink", "ByteSink", "ByteSinkError", "MemorySink", "AlbumWriter",
        "DelimitedWriter", "DelimitedFormat", "CSVWriter", "TSVWriter", "CSVFormat", "TSVFormat",
        "JSONWriter", "NDJSONWriter", "CoverSpool", "ImageHeader", "SnapshotFile", "ISO8601Timestamp",
        "JSONValue",
    ]

    @Test func thePublicTypesAreWhatAnAppNeeds() throws {
        let types = try Self.publicTypeNames()
        #expect(types.isDisjoint(with: Self.plumbing), "CLI plumbing is public: \(types.intersection(Self.plumbing).sorted())")
        #expect(types.subtracting(Self.publicTypes).isEmpty, "public types not listed: \(types.subtracting(Self.publicTypes).sorted())")
        #expect(Self.publicTypes.subtracting(types).isEmpty, "listed types not public: \(Self.publicTypes.subtracting(types).sorted())")
    }

    /// The public type names (nested ones as `Outer.Inner`) in the symbol graph of the
    /// `AlbumStore` module that this test run was built with.
    static func publicTypeNames() throws -> Set<String> {
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("albumstore-symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }

        // The C modules: those SwiftPM made module maps for, those the dependencies ship their
        // own maps for (`Sources/NAME/include`), and the system library's (`-I CSQLite`).
        let checkouts = build.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        let files = FileManager.default
        func folders(in url: URL) -> [URL] {
            (try? files.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
        }
        let shipped = folders(in: checkouts).flatMap { folders(in: $0.appendingPathComponent("Sources")) }
            .map { $0.appendingPathComponent("include/module.modulemap") }
        let moduleMaps = (folders(in: build).map { $0.appendingPathComponent("module.modulemap") } + shipped)
            .filter { files.fileExists(atPath: $0.path) }
        var arguments = [
            "swift-symbolgraph-extract", "-module-name", "AlbumStore", "-minimum-access-level", "public",
            "-target", try Self.targetTriple(), "-output-dir", output.path,
            "-I", build.appendingPathComponent("Modules").path,
        ]
        // The system library modules: CSQLite, and those under Sources (CCurl, CLibCrypto).
        let systemModules = [package.appendingPathComponent("CSQLite")] + folders(in: package.appendingPathComponent("Sources"))
        for folder in systemModules where files.fileExists(atPath: folder.appendingPathComponent("module.modulemap").path) {
            arguments += ["-I", folder.path]
        }
        for map in moduleMaps { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift-symbolgraph-extract: \(String(decoding: message, as: UTF8.self))")

        struct Graph: Decodable {
            struct Symbol: Decodable {
                struct Kind: Decodable { let identifier: String }
                let kind: Kind
                let pathComponents: [String]
            }
            let symbols: [Symbol]
        }
        let data = try Data(contentsOf: output.appendingPathComponent("AlbumStore.symbols.json"))
        let kinds: Set = ["swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"]
        let graph = try JSONDecoder().decode(Graph.self, from: data)
        return Set(graph.symbols.filter { kinds.contains($0.kind.identifier) }.map { $0.pathComponents.joined(separator: ".") })
    }

    /// The triple of the machine the tests run on, which the package was built for.
    static func targetTriple() throws -> String {
        #if os(Linux)
        #if arch(x86_64)
        return "x86_64-unknown-linux-gnu"
        #else
        return "aarch64-unknown-linux-gnu"
        #endif
        #else
        #if arch(x86_64)
        return "x86_64-apple-macosx15.0"
        #else
        return "arm64-apple-macosx15.0"
        #endif
        #endif
    }
}
