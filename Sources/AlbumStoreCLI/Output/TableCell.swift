/// One cell of a table as a terminal shows it: the text escaped (`TerminalEscaping`) and the
/// columns it takes (`DisplayWidth`), measured once.
struct TableCell {
    /// The text to print: no control character, escape sequence or bidi override is left in it.
    let text: String
    /// The terminal columns `text` takes.
    let width: Int

    /// The cell showing `raw`, which may hold anything.
    init(_ raw: String) {
        text = TerminalEscaping.escaped(raw)
        width = DisplayWidth.of(text)
    }

    private init(text: String, width: Int) {
        self.text = text
        self.width = width
    }

    /// The ellipsis that ends a shortened cell: one column wide.
    static let ellipsis = "…"

    /// The cell cut to at most `columns` columns, ending in `…` when anything was cut.
    ///
    /// Cuts between grapheme clusters only, so an accent stays with its letter and an emoji ZWJ
    /// sequence or a wide character is kept whole or left out whole; the result may then be a
    /// column narrower than `columns` (the table pads it).
    func shortened(toFit columns: Int) -> TableCell {
        guard width > columns else { return self }
        guard columns > 0 else { return TableCell(text: "", width: 0) }
        let room = columns - 1
        var kept = 0
        var keptBytes = 0
        for character in text {
            let characterWidth = DisplayWidth.of(character)
            if kept + characterWidth > room { break }
            kept += characterWidth
            keptBytes += character.utf8.count
        }
        let end = text.utf8.index(text.startIndex, offsetBy: keptBytes)
        return TableCell(text: text[..<end] + Self.ellipsis, width: kept + 1)
    }
}
