import AlbumStore
import ArgumentParser

/// The album field options of `edit`: each optional, and an empty value clears an optional field.
///
/// Option names come from `AlbumField`, the one table of field names, so they match `add`'s
/// (`AddFields`).
struct EditFields: ParsableArguments {
    @Option(name: .customLong(AlbumField.title.optionName), help: "The album's title.")
    var title: String?
    @Option(name: .customLong(AlbumField.artist.optionName), help: "The artist.")
    var artist: String?
    @Option(name: .customLong(AlbumField.genre.optionName), help: "The genre (an empty value clears it).")
    var genre: String?
    @Option(name: .customLong(AlbumField.year.optionName), parsing: .unconditional, help: "The release year, 1000 to next year (an empty value clears it).")
    var year: YearArgument?
    @Option(name: .customLong(AlbumField.coverURL.optionName), help: "The cover image's http(s) or file URL (an empty value clears it).")
    var coverURL: String?
    @Option(name: .customLong(AlbumField.externalID.optionName), help: "The id in another catalog, e.g. a Discogs release id (an empty value clears it).")
    var externalID: String?

    var isEmpty: Bool {
        [title, artist, genre, coverURL, externalID].allSatisfy { $0 == nil } && year == nil
    }

    /// Writes the given options into `draft`. An empty optional field is left empty here: the
    /// library's check (`AlbumDraft.validated()`) trims text and makes empty fields nil.
    func apply(to draft: inout AlbumDraft) {
        if let title { draft.title = title }
        if let artist { draft.artist = artist }
        if let genre { draft.genre = genre }
        if let year { draft.year = year.year }
        if let coverURL { draft.coverURL = coverURL }
        if let externalID { draft.externalID = externalID }
    }
}
