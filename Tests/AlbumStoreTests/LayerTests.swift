// The folders of Sources/AlbumStore are layers: a file uses the types of its own folder and of
// the folders below it, never of one above (docs/architecture.md, "Layers"). The root folder
// (the `Library` facade, `Command`) sits on top and is used by all: repositories reach the
// database through the library that made them.
import Foundation
import Testing

struct LayerTests {
    /// The folders, bottom first.
    static let layers = [
        "Storage", "Coding", "Schema", "Observation", "History", "Albums", "Query", "Interchange",
        "Import", "Covers", "MusicFolder", "Session", "Check", "Enrichment",
    ]

    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AlbumStore")

    @Test func everyFolderIsALayer() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { !$0.contains(".") }
        #expect(Set(folders) == Set(Self.layers))
    }

    @Test func eachFolderUsesOnlyTheOnesBelowIt() throws {
        let files = try Self.swiftFiles()
        var home: [String: String] = [:]
        for file in files where !file.folder.isEmpty {
            for name in Self.declaredTypes(in: file.code) { home[name] = file.folder }
        }
        var upward: [String] = []
        for file in files where !file.folder.isEmpty {
            let rank = try #require(Self.layers.firstIndex(of: file.folder))
            for name in Self.identifiers(in: file.code) {
                guard let folder = home[name], folder != file.folder, let other = Self.layers.firstIndex(of: folder) else { continue }
                if other > rank { upward.append("\(file.path) uses \(name) of \(folder)/") }
            }
        }
        #expect(upward.isEmpty, "\(upward.sorted().joined(separator: "\n"))")
        #expect(home["AlbumField"] == "Albums" && home["OpenFile"] == "Storage", "the scan finds the declarations")
    }

    @Test func theScanSeesCodeOnly() {
        let code = Self.code(of: """
            /// Uses `Hidden` in a comment.
            let a = "Quoted" + \"""
                Block
                \"""
            struct Visible {} // Trailing
            """)
        #expect(Self.identifiers(in: code) == ["Visible"])
        #expect(Self.declaredTypes(in: code) == ["Visible"])
    }

    struct SourceFile {
        var path: String
        var folder: String
        var code: String
    }

    static func swiftFiles() throws -> [SourceFile] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        return try enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.map { path in
            let folder = path.contains("/") ? String(path.prefix { $0 != "/" }) : ""
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            return SourceFile(path: path, folder: folder, code: code(of: text))
        }
    }

    /// `text` without comments and string literals, which may name any type.
    static func code(of text: String) -> String {
        var code = text.replacing(/"""[\s\S]*?"""/, with: "\"\"")
        code = code.replacing(/"(?:[^"\\\n]|\\.)*"/, with: "\"\"")
        code = code.replacing(/\/\*[\s\S]*?\*\//, with: "")
        return code.replacing(/\/\/[^\n]*/, with: "")
    }

    /// The types a file declares at its top level.
    static func declaredTypes(in code: String) -> Set<String> {
        let declaration = /(?m)^(?:(?:public|package|internal|private|fileprivate|final)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)/
        return Set(code.matches(of: declaration).map { String($0.output.1) })
    }

    /// The capitalised identifiers a file names.
    static func identifiers(in code: String) -> Set<String> {
        Set(code.matches(of: /\b[A-Z]\w*\b/).map { String($0.output) })
    }
}
