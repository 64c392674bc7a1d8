internal import AlbumStoreMigrations

extension Migration {
    /// The migrations this binary knows, in order: the files of `Migrations/`, embedded by SwiftPM.
    static let embedded: [Migration] = MigrationFiles.all.map { file in
        Migration(fileName: file.name, sql: String(decoding: file.sql, as: UTF8.self))
    }
}
