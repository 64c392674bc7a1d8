import Foundation

/// Reads Discogs' "Export collection" CSV.
enum DiscogsReader {
    /// The columns of Discogs' export, in its order; custom `Collection …` columns may follow.
    static let header = [
        "Catalog#", "Artist", "Title", "Label", "Format", "Rating", "Released", "release_id", "CollectionFolder",
        "Date Added", "Collection Media Condition", "Collection Sleeve Condition", "Collection Notes",
    ]

    /// Whether `line` (a header line's bytes) starts with Discogs' export header: its first twelve
    /// names, as written.
    static func isDiscogsHeader(_ line: some Collection<UInt8>) -> Bool {
        let names = String(decoding: Array(line), as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
        guard names.count >= 12 else { return false }
        return zip(names, header.prefix(12)).allSatisfy { $0.trimmingCharacters(in: .whitespaces) == $1 }
    }
}
