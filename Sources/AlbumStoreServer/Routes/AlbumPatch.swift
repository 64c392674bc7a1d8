import AlbumStore
import HTTPTypes

/// The body of `PATCH /api/albums/{id}`: the fields to change, as `albumstore edit` takes them.
///
/// Keys are the album's JSON keys of `AlbumField.editable` (`title`, `artist`, `genre`, `year`,
/// `cover_url`, `external_id`); text is a string, `year` a whole number, and `null` or an empty
/// string clears an optional field. The library's check (`AlbumDraft.validated()`) trims the
/// text and refuses what `edit` refuses, naming the field.
struct AlbumPatch: Decodable, Sendable {
    /// The new value of each field given; `nil` clears it.
    private(set) var text: [AlbumField: String?] = [:]
    /// The new year when given: `.some(nil)` clears it.
    private(set) var year: Int??

    func apply(to draft: inout AlbumDraft) {
        for (field, value) in text {
            switch field {
            case .title: draft.title = value ?? ""
            case .artist: draft.artist = value ?? ""
            case .genre: draft.genre = value
            case .coverURL: draft.coverURL = value
            case .externalID: draft.externalID = value
            default: break
            }
        }
        if let year { draft.year = year }
    }

    /// - Throws: `APIError` 400 naming an unknown key or a value of the wrong type, or for an
    ///   object that names no field.
    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: Key.self)
        // Sorted: with several bad keys, the same one is named each time.
        for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            guard let field = AlbumField(rawValue: key.stringValue), AlbumField.editable.contains(field) else {
                let name = String(key.stringValue.prefix(40))
                throw APIError(.badRequest, "unknown field \"\(name)\": an edit changes " + Self.fieldNames, field: name)
            }
            if field == .year {
                year = .some(try Self.value(Int.self, of: key, in: object, else: "year: must be a whole number or null"))
            } else {
                text[field] = .some(try Self.value(String.self, of: key, in: object, else: "\(field.jsonKey): must be a string or null"))
            }
        }
        guard !text.isEmpty || year != nil else {
            throw APIError(.badRequest, "give at least one field to change: " + Self.fieldNames)
        }
    }

    /// The value at `key`, `nil` for `null`. - Throws: `APIError` 400 saying `refusal` for
    /// a value of another type.
    private static func value<T: Decodable>(
        _ type: T.Type, of key: Key, in object: KeyedDecodingContainer<Key>, else refusal: String
    ) throws -> T? {
        if try object.decodeNil(forKey: key) { return nil }
        do {
            return try object.decode(T.self, forKey: key)
        } catch is DecodingError {
            throw APIError(.badRequest, refusal, field: key.stringValue)
        }
    }

    private static var fieldNames: String { AlbumField.editable.map(\.jsonKey).joined(separator: ", ") }

    /// Any key of the body's object.
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
