import AlbumStore

/// A `--template` line: text with `{field}` placeholders (`{artist} — {title} ({year})`), any
/// name `albumstore fields` lists; `{{` and `}}` are literal braces. A missing value is empty.
struct AlbumTemplate {
    enum Part: Equatable {
        case text(String)
        case field(AlbumField)
    }

    let parts: [Part]

    /// - Throws: `TemplateError` for an unknown field or a brace left open or alone.
    init(_ template: String) throws(TemplateError) {
        var parts: [Part] = [], text = "", name: String?
        var characters = Array(template)[...]
        while let character = characters.popFirst() {
            if var open = name {
                guard character != "}" else {
                    guard let field = AlbumField(name: open) else {
                        throw TemplateError("unknown field {\(open)} (albumstore fields lists them)")
                    }
                    parts.append(.field(field))
                    name = nil
                    continue
                }
                guard character != "{" else { throw TemplateError("a { inside {\(open)…}: write {{ for a brace") }
                open.append(character)
                name = open
                continue
            }
            switch character {
            case "{" where characters.first == "{", "}" where characters.first == "}":
                text.append(character)
                characters.removeFirst()
            case "{":
                if !text.isEmpty { parts.append(.text(text)) }
                text = ""
                name = ""
            case "}":
                throw TemplateError("a } without its {: write }} for a brace")
            default:
                text.append(character)
            }
        }
        if let name { throw TemplateError("{\(name) is never closed with }") }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
    }

    /// The line for `album` (without its line feed); `index` is its place among the results.
    /// Values are escaped as in tables (`TerminalEscaping`): a line feed in a title must not
    /// forge a second line, nor an escape sequence reach the terminal. The template's own text
    /// is the user's, and stays as typed.
    func render(_ album: Album, index: Int?) -> String {
        var line = ""
        for part in parts {
            switch part {
            case .text(let text): line += text
            case .field(let field): line += TerminalEscaping.escaped(field.text(in: album, index: index) ?? "")
            }
        }
        return line
    }
}

/// A `--template` that cannot be used, and why.
struct TemplateError: Error, CustomStringConvertible {
    let description: String

    init(_ reason: String) { description = "--template: " + reason }
}
