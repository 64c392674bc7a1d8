import AlbumStore
import ArgumentParser

/// Shell completions read from the library: snapshot names and album ids.
///
/// The completion scripts ArgumentParser generates run `albumstore ---completion …` with the
/// words typed so far. These read the library those words name (--db, else ALBUMSTORE_DB, else the
/// default), read-only, and offer nothing, silently, when it cannot be read: a completion never
/// creates, upgrades or waits for a file, and never prints an error into the user's prompt.
enum LibraryCompletion {
    /// The names of the snapshots.
    static var snapshotName: CompletionKind {
        .custom { words, _, prefix in snapshotNames(startingWith: prefix, words: words) }
    }

    /// Album ids.
    static var albumID: CompletionKind {
        .custom { words, _, prefix in albumIDs(startingWith: prefix, words: words) }
    }

    /// At most this many ids are offered: a shell shows no more usefully, and a large library
    /// must not be read whole at a keystroke.
    static let idLimit = 100

    static func snapshotNames(startingWith prefix: String, words: [String]) -> [String] {
        guard let library = library(named: words), let snapshots = try? library.session.snapshots() else { return [] }
        return snapshots.map(\.name).filter { $0.hasPrefix(prefix) }
    }

    /// The ids that start with `prefix`, smallest first, up to `idLimit`.
    static func albumIDs(startingWith prefix: String, words: [String]) -> [String] {
        guard prefix.allSatisfy({ ("0"..."9").contains($0) }), !prefix.hasPrefix("0"),
              let library = library(named: words) else { return [] }
        let query = prefix.isEmpty ? AlbumQuery.all : AlbumQuery(anyOf: idRanges(startingWith: prefix).map {
            [AlbumQuery.Term(.range(.id, from: Int($0.lowerBound), through: Int($0.upperBound)))]
        })
        let albums = try? library.albums.albums(matching: query, sortedBy: AlbumSort([.init(.id)]), limit: idLimit)
        return (albums ?? []).map { String($0.id) }
    }

    /// The ranges of the ids whose decimal digits start with `prefix`: 12, 120...129,
    /// 1200...1299, and so on up to the largest id.
    static func idRanges(startingWith prefix: String) -> [ClosedRange<Int64>] {
        guard var low = Int64(prefix) else { return [] }
        var ranges: [ClosedRange<Int64>] = [low...low]
        var width: Int64 = 1
        while true {
            let (lower, overflow) = low.multipliedReportingOverflow(by: 10)
            let (nextWidth, widthOverflow) = width.multipliedReportingOverflow(by: 10)
            guard !overflow, !widthOverflow else { break }
            low = lower
            width = nextWidth
            let (upper, upperOverflow) = low.addingReportingOverflow(width - 1)
            ranges.append(low...(upperOverflow ? .max : upper))
        }
        return ranges
    }

    /// The library the completed line names, opened read-only; `nil` when it cannot be.
    private static func library(named words: [String]) -> Library? {
        var db: String?
        for (index, word) in words.enumerated() {
            if word == "--db", index + 1 < words.count { db = words[index + 1] }
            if word.hasPrefix("--db=") { db = String(word.dropFirst("--db=".count)) }
        }
        guard let store = try? StoreOptions.parse(db.map { ["--db", $0] } ?? []) else { return nil }
        return try? store.openLibrary(.readOnly)
    }
}
