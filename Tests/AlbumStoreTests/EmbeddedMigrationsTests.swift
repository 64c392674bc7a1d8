import Foundation
import Testing
@testable import AlbumStore

/// The binary carries its schema (Migration.embedded, embedded by SwiftPM); Migrations/*.sql is
/// the source of truth.
struct EmbeddedMigrationsTests {
    /// A new migration file that is not embedded fails here, not in a user's library.
    @Test func everyMigrationFileIsEmbeddedByteForByteInOrder() throws {
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        let onDisk = try files.map { file in
            Migration(fileName: String(file.dropLast(4)),
                      sql: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
        }

        #expect(!onDisk.isEmpty)
        #expect(Migration.embedded == onDisk,
                "list each Migrations/*.sql in Package.swift (.embedInCode) and in Migrations/MigrationFiles.swift")
    }
}
