import AlbumStore

/// An import refused because no column gives the title or the artist, said in one line with
/// the `--map` that names them (`a.csv: no column maps to title; columns found: Album Name,
/// Performer, Year; import refused, nothing changed (`--map 'Album Name=title'` names it)`).
///
/// A first line that maps to nothing and holds a number (`Kind of Blue,Miles Davis,1959`) is
/// more likely an album than a header: the hint is then `--no-header` with columns by number.
struct MissingFieldsRefusal: Error, CustomStringConvertible {
    let file: String
    let fields: [AlbumField]
    let columns: [String]
    let unmapped: [String]
    /// Whether the file was read with a header (no `--no-header`).
    let hasHeader: Bool

    var description: String {
        let refusal = ImportError.missingFields(file: file, fields: fields, columns: columns, unmapped: unmapped)
        return "\(refusal) (\(hint))"
    }

    private var hint: String {
        if looksLikeData {
            // The unmapped columns are all of them: by number, in order.
            let maps = zip(fields, 1...).map { field, column in "--map \(column)=\(field.name)" }
            return "the first line looks like an album, not a header: `--no-header "
                + maps.joined(separator: " ") + "` reads it as one"
        }
        let maps = fields.enumerated().map { index, field in
            let column = index < unmapped.count ? unmapped[index] : "COLUMN"
            return "--map " + Self.shellQuoted("\(column)=\(field.name)")
        }
        return "`" + maps.joined(separator: " ") + "` " + (fields.count == 1 ? "names it" : "names them")
    }

    /// No column maps to anything and one is a number (a year, a count): data, not names.
    private var looksLikeData: Bool {
        hasHeader && unmapped.count == columns.count
            && columns.contains { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// `text` as a shell word: as it is when plain, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "=_.-/".contains($0)) }
        return plain ? text : "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
