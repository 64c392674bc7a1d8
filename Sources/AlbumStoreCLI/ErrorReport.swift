import AlbumStore
import FoundationEssentials

/// The lines the CLI prints on stderr for a failed command: the library's plain sentence, with
/// the `albumstore` command that helps where the library cannot name one, and, with `--verbose`,
/// what SQLite said (code, message, statement) on a second line.
///
/// The sentence comes first and alone so that people read what happened and what to do, not
/// "SQLite error 5 (database is locked) in `BEGIN IMMEDIATE`"; the detail is one flag away for
/// a bug report.
struct ErrorReport {
    let sentence: String
    let detail: String?

    init(_ error: Error) {
        switch error {
        case let error as StorageError:
            sentence = error.description + Self.hint(for: error.reason)
            detail = error.code == nil ? nil : error.detail
        case let SchemaError.newerThanKnown(path, version, known):
            sentence = "\(path): schema version \(version) is newer than this albumstore knows (\(known)); upgrade albumstore"
            detail = nil
        case let SchemaError.needsUpgrade(path, version, current):
            sentence = "\(path) is at schema version \(version), older than this albumstore's \(current): "
                + "a writing command (`albumstore init`, say) upgrades it"
            detail = nil
        default:
            sentence = "\(error)" + Self.hint(for: error)
            detail = nil
        }
    }

    /// The stderr lines, each one line whatever the messages quote (a value may hold a line
    /// break or an escape sequence: `TerminalEscaping` shows them escaped).
    func lines(verbose: Bool) -> [String] {
        let lines = [sentence] + (verbose ? [detail].compactMap { $0 } : [])
        return lines.map { "albumstore: " + TerminalEscaping.escaped($0) }
    }

    /// The command that helps after a library error that names none.
    private static func hint(for error: Error) -> String {
        switch error {
        case SessionError.noSuchSnapshot: " (`albumstore state snapshots` lists them)"
        case let SessionError.snapshotExists(name): " (`albumstore state rm \(name)` removes it)"
        case ImportError.invalidRows: " (`--skip-invalid` imports the others)"
        case ImportError.conflict: " (`--on-conflict skip` or `update` imports the rest)"
        case let ImportError.unreadable(_, _, reason): ImportReport.encodingHint(for: reason)
        // Ids start at 1: a negative one (`show -1`) was most likely meant as an index.
        case let AlbumError.notFound(id) where id < 0:
            " (ids are positive; `albumstore list --offset \(id) --limit 1` shows the album at index \(id))"
        default: ""
        }
    }

    private static func hint(for reason: StorageError.Reason) -> String {
        switch reason {
        case .notFound: " (create it with `albumstore init`)"
        case .emptyFile: " (`albumstore init` makes it one)"
        case .alreadyExists: " (--force replaces it)"
        default: ""
        }
    }
}
