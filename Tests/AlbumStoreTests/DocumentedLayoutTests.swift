// The layout CONTRIBUTING.md and docs/architecture.md draw, held to the tree and Package.swift:
// every module and test target is in both, every folder they name exists, and only a folder with
// a Package.swift of its own is called a package.
import Foundation
import Testing

struct DocumentedLayoutTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first code block after `heading`: the drawn layout.
    static func layout(in path: String, under heading: String) throws -> String {
        let text = try text(path)
        let section = try #require(text.range(of: "\n\(heading)\n"), "\(path) has no \(heading)")
        let parts = text[section.upperBound...].components(separatedBy: "```")
        return try #require(parts.count > 2 ? parts[1] : nil, "\(path): no layout block under \(heading)")
    }

    static let layouts = [("CONTRIBUTING.md", "## Layout"), ("docs/architecture.md", "## Layers")]

    static func folders(in path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(path).path)
            .filter { name in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: root.appendingPathComponent("\(path)/\(name)").path, isDirectory: &isFolder)
                    && isFolder.boolValue && !name.hasPrefix(".")
            }
            .sorted()
    }

    @Test func everyModuleAndTestTargetIsDrawn() throws {
        let manifest = try Self.text("Package.swift")
        let modules = try Self.folders(in: "Sources")
        let testTargets = try Self.folders(in: "Tests").filter { $0 != "Browser" }
        #expect(modules.contains("AlbumStoreServer") && testTargets.contains("TestSupport"))
        for (file, heading) in Self.layouts {
            let layout = try Self.layout(in: file, under: heading)
            for module in modules {
                #expect(layout.contains("Sources/\(module)/"), "\(file) leaves out Sources/\(module)/")
                #expect(manifest.contains("\"\(module)\""), "Package.swift has no target \(module)")
            }
            for target in testTargets {
                #expect(layout.contains(target), "\(file) leaves out the test target \(target)")
            }
        }
    }

    @Test func everyFolderDrawnExists() throws {
        for (file, heading) in Self.layouts {
            let layout = try Self.layout(in: file, under: heading)
            for match in layout.matches(of: #/(?m)^([A-Za-z][\w.]*(?:/[\w.]+)*)/ /#) {
                let folder = String(match.output.1)
                var isFolder: ObjCBool = false
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(folder).path, isDirectory: &isFolder) && isFolder.boolValue,
                        "\(file) draws \(folder)/, which is not a folder")
            }
        }
    }

    @Test func onlyAFolderWithAManifestIsCalledAPackage() throws {
        for file in ["CONTRIBUTING.md", "docs/architecture.md", "README.md"] {
            let text = try Self.text(file)
            for match in text.matches(of: #/`(scripts/\w+)`,? \(?(?:a package of its own|a separate package)/#) {
                let folder = String(match.output.1)
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("\(folder)/Package.swift").path),
                        "\(file) calls \(folder) a package, but it has no Package.swift")
            }
        }
    }
}
