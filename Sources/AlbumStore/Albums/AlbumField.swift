/// A field of an album as every interchange format names it: one table for the database, CSV and
/// TSV headers, JSON keys, CLI options and the names an import accepts.
///
/// The cases are in the documented order, the order of JSON keys and CSV/TSV columns:
///
/// | field         | column        | header / JSON key | CLI option      | also accepted (aliases)                              |
/// |---------------|---------------|-------------------|-----------------|------------------------------------------------------|
/// | `index`       | none          | `index`           | `--index`       | `#`                                                  |
/// | `id`          | `id`          | `id`              | `--id`          | `album_id`                                           |
/// | `title`       | `title`       | `title`           | `--title`       | `album`, `album_title`, `release_title`, `name`      |
/// | `artist`      | `artist`      | `artist`          | `--artist`      | `album_artist`, `artist_name`, `band`                |
/// | `genre`       | `genre`       | `genre`           | `--genre`       | `genres`                                             |
/// | `year`        | `year`        | `year`            | `--year`        | `released`, `release_year`, `date` (its year)        |
/// | `coverURL`    | `cover_url`   | `cover_url`       | `--cover-url`   | `cover`, `url`, `cover_image`, `image_url`, `artwork_url` |
/// | `externalID`  | `external_id` | `external_id`     | `--external-id` | `discogs_id`, `release_id`, `musicbrainz_id`, `mbid` |
/// | `createdAt`   | `created_at`  | `created_at`      | `--created-at`  | `added`, `date_added`, `created`                     |
/// | `updatedAt`   | `updated_at`  | `updated_at`      | `--updated-at`  | `updated`, `modified`, `date_modified`, `last_modified` |
///
/// `id` is the library's own row id, so an id from another catalog (Discogs, MusicBrainz) goes to
/// `external_id` under its own names. `index` is an album's 0-based place in the list: not stored
/// (it follows from the order), written only where it is known, as in the CLI's listings.
public enum AlbumField: String, CaseIterable, Sendable {
    /// The album's 0-based place in the list; not stored, and ignored by an import.
    case index
    /// The library's own id of the album (`Album.id`); ignored by an import.
    case id
    /// The album's title (`Album.title`).
    case title
    /// The album's artist (`Album.artist`).
    case artist
    /// The album's genre (`Album.genre`).
    case genre
    /// The year of release (`Album.year`).
    case year
    /// Where the cover image comes from (`Album.coverURL`).
    case coverURL = "cover_url"
    /// The album's id in another catalog (`Album.externalID`).
    case externalID = "external_id"
    /// When the album was added (`Album.createdAt`); an import keeps a given one.
    case createdAt = "created_at"
    /// When the album was last edited (`Album.updatedAt`); an import keeps a given one.
    case updatedAt = "updated_at"

    /// The fields an `Album` holds: every field but `index`, in the documented order.
    public static let stored: [AlbumField] = allCases.filter { $0 != .index }

    /// The fields a caller sets (those of an `AlbumDraft`), in the documented order.
    public static let editable: [AlbumField] = [.title, .artist, .genre, .year, .coverURL, .externalID]

    /// The canonical name: the JSON key, the CSV/TSV header and (where stored) the column.
    public var name: String { rawValue }

    /// The key of this field in every JSON object AlbumStore writes or reads.
    public var jsonKey: String { rawValue }

    /// The header of this field's column in CSV and TSV.
    public var header: String { rawValue }

    /// The column of the `albums` table holding this field; `nil` for `index`, which is not stored.
    public var column: String? { self == .index ? nil : rawValue }

    /// The CLI's long option name for this field, without the dashes: `cover-url`.
    ///
    /// Only the `editable` fields are options of `add` and `edit` today.
    public var optionName: String {
        // Byte by byte: Foundation's `replacingOccurrences` took 0.12 million instructions a call
        // on Linux, and the name table asks for every field's at a command's start.
        String(decoding: rawValue.utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
    }

    /// The field's name for people, as tables label it: `Cover URL`.
    public var label: String {
        switch self {
        case .index: "Index"
        case .id: "ID"
        case .title: "Title"
        case .artist: "Artist"
        case .genre: "Genre"
        case .year: "Year"
        case .coverURL: "Cover URL"
        case .externalID: "External ID"
        case .createdAt: "Added"
        case .updatedAt: "Updated"
        }
    }

    /// Other names a header or key may give this field, besides its `name`, `optionName` and `label`.
    ///
    /// Names are matched as `init(name:)` says: `Cover URL`, `coverURL` and `cover-url` are all
    /// `cover_url`, so the aliases list only other words.
    public var aliases: [String] {
        switch self {
        case .index: ["#"]
        case .id: ["album_id"]
        case .title: ["album", "album_title", "release_title", "name"]
        case .artist: ["album_artist", "artist_name", "band"]
        case .genre: ["genres"]
        case .year: ["released", "release_year", "date"]
        case .coverURL: ["cover", "url", "cover_image", "image_url", "artwork_url"]
        case .externalID: ["discogs_id", "release_id", "musicbrainz_id", "mbid"]
        case .createdAt: ["added", "date_added", "created"]
        case .updatedAt: ["updated", "modified", "date_modified", "last_modified"]
        }
    }

    /// The field `name` names, as a CSV header or JSON key may spell it; `nil` when none does.
    ///
    /// Matches the canonical name, the option name, the label and the aliases, ignoring case,
    /// spaces, underscores, hyphens and dots: `Cover URL`, `cover-url`, `coverUrl`, `COVER_URL`,
    /// `cover` and `url` all give `.coverURL`.
    public init?(name: String) {
        let key = Self.normalized(name)
        guard let match = Self.normalizedNames.first(where: { $0.name == key }) else { return nil }
        self = match.field
    }

    /// Every name of every field, normalized. The names are distinct (a test checks it). An
    /// array searched in order, not a dictionary: a hundred comparisons cost less than the Swift
    /// runtime's first look for a `Dictionary` type's `Hashable` key, in every command's start.
    private static let normalizedNames: [(name: String, field: AlbumField)] = allCases.flatMap { field in
        field.names.map { (normalized($0), field) }
    }

    /// The name, option name, label and aliases.
    var names: [String] { [name, optionName, label] + aliases }

    /// Lower case without spaces, underscores, hyphens and dots: how names are compared.
    ///
    /// ASCII names, all of ours and nearly every header, are folded byte by byte: the table of
    /// names is built at the first use in every process (every query and import), and the
    /// general path made that 1.6 million instructions of a command's start.
    static func normalized(_ name: String) -> String {
        var folded: [UInt8] = []
        folded.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded.append(byte + 32)
            case ..<0x80: folded.append(byte)
            default: return String(name.lowercased().unicodeScalars.filter { !" _-.\t".unicodeScalars.contains($0) })
            }
        }
        return String(decoding: folded, as: UTF8.self)
    }
}
