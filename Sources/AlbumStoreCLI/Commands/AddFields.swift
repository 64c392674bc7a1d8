import AlbumStore
import ArgumentParser

/// The album field options of `add`: title and artist are required, the rest optional.
///
/// Apart from `edit`'s (`EditFields`), where every field is optional and an empty value clears
/// one: so `add --help` shows `--title` and `--artist` as required and speaks of no clearing.
/// Option names come from `AlbumField`, the one table of field names.
struct AddFields: ParsableArguments {
    @Option(name: .customLong(AlbumField.title.optionName), help: "The album's title.")
    var title: String
    @Option(name: .customLong(AlbumField.artist.optionName), help: "The artist.")
    var artist: String
    @Option(name: .customLong(AlbumField.genre.optionName), help: "The genre.")
    var genre: String?
    @Option(name: .customLong(AlbumField.year.optionName), parsing: .unconditional, help: "The release year, 1000 to next year.")
    var year: YearArgument?
    @Option(name: .customLong(AlbumField.coverURL.optionName), help: "The cover image's http(s) or file URL.")
    var coverURL: String?
    @Option(name: .customLong(AlbumField.externalID.optionName), help: "The id in another catalog, e.g. a Discogs release id.")
    var externalID: String?

    /// The draft these options give; the library trims it and checks it.
    var draft: AlbumDraft {
        AlbumDraft(title: title, artist: artist, genre: genre, year: year?.year, coverURL: coverURL, externalID: externalID)
    }
}
