import Foundation
import AlbumStore
import ArgumentParser

/// The album field options of `add` and `edit`, named as `AlbumField` names them.
struct AlbumFields: ParsableArguments {
    @Option(name: .customLong(AlbumField.title.optionName), help: "The album's title.")
    var title: String?
    @Option(name: .customLong(AlbumField.artist.optionName), help: "The artist.")
    var artist: String?
    @Option(name: .customLong(AlbumField.genre.optionName), help: "The genre (an empty value clears it).")
    var genre: String?
    @Option(name: .customLong(AlbumField.year.optionName), help: "The release year, 1000 to next year (an empty value clears it).")
    var year: String?
    @Option(name: .customLong(AlbumField.coverURL.optionName), help: "The cover image's http(s) or file URL (an empty value clears it).")
    var coverURL: String?
    @Option(name: .customLong(AlbumField.externalID.optionName), help: "The id in another catalog, e.g. a Discogs release id (an empty value clears it).")
    var externalID: String?

    var isEmpty: Bool { [title, artist, genre, year, coverURL, externalID].allSatisfy { $0 == nil } }

    /// Writes the given options into `draft`; empty optional fields become nil.
    func apply(to draft: inout AlbumDraft) throws {
        if let title { draft.title = title }
        if let artist { draft.artist = artist }
        if let genre { draft.genre = genre }
        if let year {
            let trimmed = year.trimmingCharacters(in: .whitespaces)
            guard trimmed.isEmpty || Int(trimmed) != nil else {
                throw AlbumError.invalid(field: "year", reason: "\(year) is not a whole number")
            }
            draft.year = Int(trimmed)
        }
        if let coverURL { draft.coverURL = coverURL }
        if let externalID { draft.externalID = externalID }
    }
}
