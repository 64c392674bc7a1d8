/// The text encoding of a catalog file, by its usual name (`utf-8`, `windows-1252`, ...).
///
/// Without one, a catalog is read as UTF-8 unless it starts with a UTF-16 byte-order mark or
/// is not valid UTF-8, in which case it is read as Windows-1252 (and the import says it guessed).
public enum CatalogEncoding: String, CaseIterable, Sendable {
    /// UTF-8, with or without a byte-order mark.
    case utf8 = "utf-8"
    /// UTF-16 with a byte-order mark; without one, the byte order the text's zero bytes show.
    case utf16 = "utf-16"
    /// UTF-16, little-endian (least significant byte first).
    case utf16LE = "utf-16le"
    /// UTF-16, big-endian (most significant byte first).
    case utf16BE = "utf-16be"
    /// Windows' Western code page: Latin-1 with typographic marks in 0x80–0x9F; its five
    /// undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) are read as the C1 controls, as Latin-1 does.
    case windows1252 = "windows-1252"
    /// ISO 8859-1: each byte is the code point of the same number.
    case latin1 = "latin-1"

    /// The encoding `name` names, as people spell it: `utf8`, `UTF-8`, `cp1252`, `iso-8859-1`.
    public init?(name: String) {
        let spelled = String(name.lowercased().unicodeScalars.filter { !" _-".unicodeScalars.contains($0) })
        switch spelled {
        case "utf8": self = .utf8
        case "utf16", "ucs2": self = .utf16
        case "utf16le": self = .utf16LE
        case "utf16be": self = .utf16BE
        case "windows1252", "cp1252", "win1252", "ansi": self = .windows1252
        case "latin1", "iso88591", "l1": self = .latin1
        default: return nil
        }
    }
}
