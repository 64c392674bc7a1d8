import AlbumStore
import ArgumentParser
import Foundation

/// `--db PATH`, shared by every command that opens a library.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The library file (created when missing). Default: $ALBUMSTORE_DB, else $XDG_DATA_HOME/albumstore/library.sqlite.",
            valueName: "path"))
    var db: String?

    /// The path --db, ALBUMSTORE_DB or the XDG default gives.
    var path: String {
        let environment = ProcessInfo.processInfo.environment
        if let db, !db.isEmpty { return db }
        if let db = environment["ALBUMSTORE_DB"], !db.isEmpty { return db }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        return dataHome + "/albumstore/library.sqlite"
    }

    func openLibrary() throws -> Library {
        try Library.open(at: URL(fileURLWithPath: path))
    }
}
