/// Text made safe to show on a terminal: every character that would move the cursor, end a line,
/// ring the bell, start an escape sequence or reorder the line is written out as visible ASCII.
///
/// A title is data from anywhere (a catalog, another program, the `sqlite3` shell). Printed raw,
/// a line feed or carriage return in it forges a table row, a tab breaks the columns, and
/// `ESC [ 31 m` or `ESC ] 0 ; title BEL` recolours the terminal or renames its window. So tables
/// and every message on stderr that echoes data or input pass through `escaped(_:)`; the data
/// formats (CSV, TSV, JSON, NDJSON) do not: they are for programs, and stay exact.
///
/// What is escaped, and how (the forms Swift and C string literals use):
///
/// | characters                                | shown as                                   |
/// |-------------------------------------------|--------------------------------------------|
/// | BEL, BS, TAB, LF, VT, FF, CR, ESC         | `\a` `\b` `\t` `\n` `\v` `\f` `\r` `\e`    |
/// | other C0 controls (U+0000–001F), DEL      | `\u{0}` … `\u{1f}`, `\u{7f}`               |
/// | C1 controls (U+0080–009F), e.g. CSI       | `\u{80}` … `\u{9f}` (`\u{9b}`)             |
/// | line and paragraph separators             | `\u{2028}`, `\u{2029}`                     |
/// | bidi embeddings, overrides and isolates   | `\u{202a}` … `\u{202e}`, `\u{2066}` … `\u{2069}` |
///
/// A bidi override (U+202E) would make the rest of a line, the next cells included, read right
/// to left: escaped, it cannot disguise what a row says. Backslashes are left as they are, so
/// `AC\DC` reads as itself; a `\n` in a table is therefore either a line feed or a backslash and
/// an `n`, and `--format json` tells them apart.
enum TerminalEscaping {
    /// `text` with every character in the table above written out; `text` itself when it holds none.
    static func escaped(_ text: String) -> String {
        guard mayNeedEscaping(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if let escape = escape(for: scalar) {
                result += escape
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `escaped(_:)` of each line of `text`, which keeps its line feeds: for messages made of
    /// several lines (a usage error and its usage), whose line breaks are ours.
    static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { escaped(String($0)) }
            .joined(separator: "\n")
    }

    /// The visible form of `scalar`, or `nil` when it is shown as itself.
    static func escape(for scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x07: "\\a"
        case 0x08: "\\b"
        case 0x09: "\\t"
        case 0x0A: "\\n"
        case 0x0B: "\\v"
        case 0x0C: "\\f"
        case 0x0D: "\\r"
        case 0x1B: "\\e"
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x2029, 0x202A...0x202E, 0x2066...0x2069:
            "\\u{" + String(scalar.value, radix: 16) + "}"
        default: nil
        }
    }

    /// Whether `text` holds a byte that starts one of the escaped characters in UTF-8: a control
    /// below 0x20, DEL, 0xC2 (which leads U+0080–00BF, the C1 controls among them) or 0xE2 (which
    /// leads U+2000–2FFF, the separators and bidi controls among them). One pass over the bytes,
    /// so text without any is returned without building a new string.
    private static func mayNeedEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
    }
}
