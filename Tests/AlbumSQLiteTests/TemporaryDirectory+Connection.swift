import AlbumSQLite
import TestSupport

extension TemporaryDirectory {
    /// Opens (creating it if needed) the database file `name` inside the folder.
    func open(_ name: String = "test.sqlite", options: ConnectionOptions = .default) throws -> Connection {
        try Connection(path: path(name), options: options)
    }

    /// The path of the database file the tests use by default.
    func path() -> String { path("test.sqlite") }
}
