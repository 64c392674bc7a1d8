/// What `XMLScanner.next()` met.
enum XMLToken: Equatable, Sendable {
    /// A start tag: `name`, `isNamed(_:)`, `depth` and `tagLine` describe it. A self-closing tag
    /// (`<true/>`) is a start tag and then its end tag.
    case startTag
    /// The end tag of the element the last start tag at this depth opened; `name`, `isNamed(_:)`
    /// and `depth` still describe that element.
    case endTag
    /// Character data comes next in the current element: text, references and CDATA sections up
    /// to the next tag (comments and processing instructions between them are left out).
    /// `readText` reads it; otherwise the next `next()` steps over it, checked, without making a
    /// String.
    case text
    /// The end of the input, after the root element.
    case endOfDocument
}

/// A streaming XML 1.0 scanner over a `CatalogInput`, for property lists: the tags and text of a
/// document, a token at a time, read from the input's window a chunk at a time.
///
/// Memory is the input's chunk, the names of the open elements and the one text being read: a
/// text no one reads is stepped over where it lies. Names are compared as bytes; a String is made
/// only for a text read with `readText()` (or an attribute, when asked for).
///
/// Our own rather than Foundation's `XMLParser`: FoundationXML links libxml2, which every start
/// of the binary would load, and this reads a Library.xml in less than half the time
/// (docs/architecture.md, "Why each hand-written piece exists", has the figures).
///
/// Strict about well-formedness: an end tag that does not match, a `<` or `&` out of place, text
/// or a second element after the root, a `--` in a comment, a control character, bytes that are not
/// UTF-8 (when the input has not checked them) or an input that ends early throw
/// `CatalogError(line:reason:)`, "is not well-formed XML (...)" at the line where it was found.
/// What it reads: the XML declaration (at the very start only) and other processing instructions,
/// which it skips; a `<!DOCTYPE ...>`, skipped with its internal subset and never resolved;
/// comments; CDATA sections; attributes in either quotes; the five predefined entities and
/// character references. An entity a DOCTYPE declares is not expanded: its reference is an error,
/// as an undeclared one is. The encoding declaration is ignored: the input decoded the file.
/// Non-ASCII bytes are accepted in names without checking XML's classes of name characters.
/// Lines end as XML's end-of-line handling says: at LF, CR LF or a lone CR, each read as LF.
struct XMLScanner {
    /// Elements nested deeper are an error: the open names are kept. libxml2's default.
    static let depthLimit = 256
    /// The longest name, libxml2's `XML_MAX_NAME_LENGTH`.
    static let nameLimit = 50_000
    /// The longest text `readText` or an attribute value gives, as the CSV reader's field limit.
    static let textLimit = 1 << 20

    private let input: CatalogInput
    /// Whether attribute values are decoded into `attributes`; otherwise only checked.
    private let keepsAttributes: Bool
    private let stops = Stops.standard
    private var window: UnsafeMutablePointer<UInt8>
    private var windowEnd: Int
    private var pos = 0
    /// The start of bytes still needed (a name, a text read in place), kept when a chunk is read.
    private var mark: Int?
    /// Bytes dropped from the window's front so far: `dropped + pos` is the offset in the input.
    private var dropped = 0

    /// The 1-based line the scanner is at.
    private(set) var line = 1
    /// The line of the last tag's `<`.
    private(set) var tagLine = 1

    /// Checks the bytes of an input that has not (a stream past its first 1 MiB, a file with a
    /// UTF-8 BOM) as each chunk comes in; `nil` when the input has.
    private var validator: UTF8Validator?
    /// Bytes past `windowEnd` are not UTF-8: reading on is an error.
    private var stoppedAtInvalidUTF8 = false

    /// The open elements' names, end to end up to `openNamesEnd` (the bytes past it are spare),
    /// and where each starts there with its start tag's line.
    private var openNames: [UInt8] = []
    private var openNamesEnd = 0
    private var openElements: [(nameStart: Int, line: Int)] = []
    private var sawRoot = false
    private var sawDoctype = false
    private var pending = Pending.nothing
    /// Decoded text when it cannot be lent from the window (references, CDATA, line breaks).
    private var scratch: [UInt8] = []
    /// Whether the text being scanned is kept (in `scratch`, or in the window from `mark`).
    private var keeping = false
    /// Whether the text being kept is in `scratch`, not in place in the window.
    private var textInScratch = false
    /// The last start tag's attributes, in order, when the scanner keeps them.
    private(set) var attributes: [(name: String, value: String)] = []
    /// The last start tag's attribute names, to find a repeated one: a set, as a tag may have
    /// any number of them and a search of the earlier ones made reading it quadratic.
    private var attributeNames: Set<[UInt8]> = []

    private enum Pending {
        case nothing
        /// A self-closing tag gave its start: its end comes next.
        case endOfEmptyElement
        /// An end tag was given: its element is closed at the next token.
        case close
        /// `.text` was given: the text is stepped over unless read.
        case text
    }

    init(over input: CatalogInput, keepsAttributes: Bool = false) {
        self.input = input
        self.keepsAttributes = keepsAttributes
        window = input.bytes
        windowEnd = input.count
        if !input.isCheckedUTF8 {
            var validator = UTF8Validator()
            validate(from: 0, with: &validator)
            self.validator = validator
        }
    }

    var bytesRead: Int { input.bytesRead }

    /// How many elements are open, counting the one of the last tag (also after its end tag) or
    /// text: 1 for the root element.
    var depth: Int { openElements.count }

    /// The name of the element `depth` counts last.
    var name: String {
        guard let element = openElements.last else { return "" }
        return String(decoding: openNames[element.nameStart..<openNamesEnd], as: UTF8.self)
    }

    /// Whether the element `depth` counts last is named `expected`: compared as bytes.
    func isNamed(_ expected: StaticString) -> Bool {
        guard let element = openElements.last else { return false }
        return openNames.withUnsafeBufferPointer { names in
            Self.same(names[element.nameStart..<openNamesEnd], UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount))
        }
    }

    /// Whether two names are the same bytes: a loop, as names are short (a call to `memcmp` cost
    /// more).
    @inline(__always)
    private static func same(_ one: Slice<UnsafeBufferPointer<UInt8>>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard one.count == other.count else { return false }
        var index = one.startIndex
        for byte in other {
            if one[index] != byte { return false }
            index += 1
        }
        return true
    }

    // MARK: Tokens

    /// The next token.
    ///
    /// - Throws: `CatalogError` where the document is not well-formed XML or cannot be read.
    mutating func next() throws -> XMLToken {
        switch pending {
        case .nothing: break
        case .endOfEmptyElement:
            pending = .close
            return .endTag
        case .close:
            openNamesEnd = openElements.removeLast().nameStart
        case .text:
            keeping = false
            try scanText()
        }
        pending = .nothing
        while true {
            guard let byte = try peek() else { return try endOfInput() }
            if byte == .lessThan {
                switch try peek(1) {
                case UInt8(ascii: "/"): return try endTag()
                case UInt8(ascii: "?"): try skipProcessingInstruction()
                case UInt8(ascii: "!"):
                    if try lookingAt("<!--") {
                        try skipComment()
                    } else if try lookingAt("<![CDATA[") {
                        guard !openElements.isEmpty else { throw notWellFormed("a CDATA section outside the root element") }
                        pending = .text
                        return .text
                    } else if try lookingAt("<!DOCTYPE") {
                        try skipDoctype()
                    } else {
                        throw notWellFormed("'<!' not followed by '--', '[CDATA[' or 'DOCTYPE'")
                    }
                case nil: throw notWellFormed("the file ends inside a tag")
                default: return try startTag()
                }
            } else if openElements.isEmpty {
                try skipSpaceOutsideRoot()
            } else {
                pending = .text
                return .text
            }
        }
    }

    /// Reads the text `.text` announced and lends its decoded bytes to `body` (valid for the
    /// call); empty when the last token was not `.text`.
    ///
    /// - Throws: `CatalogError` where the text is not well-formed, or is longer than `textLimit`.
    mutating func readText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) throws -> Result {
        guard pending == .text else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        pending = .nothing
        keeping = true
        defer { keeping = false }
        if let inPlace = try scanText() {
            return try body(UnsafeBufferPointer(start: window + inPlace.lowerBound, count: inPlace.count))
        }
        return try scratch.withUnsafeBufferPointer { try body($0) }
    }

    /// Reads the text `.text` announced; empty when the last token was not `.text`.
    mutating func readText() throws -> String {
        try readText { String(decoding: $0, as: UTF8.self) }
    }

    private mutating func endOfInput() throws -> XMLToken {
        if let element = openElements.last {
            throw notWellFormed("the file ends inside <\(name)> opened at line \(element.line)")
        }
        guard sawRoot else { throw notWellFormed("no root element") }
        return .endOfDocument
    }

    // MARK: Tags

    /// Reads the start tag at `pos` (its `<`) and its attributes.
    private mutating func startTag() throws -> XMLToken {
        tagLine = line
        pos += 1
        let length = try scanName()
        guard length > 0 else {
            throw notWellFormed("'<' not followed by a tag name, '/', '!' or '?' (a '<' in text is written &lt;)")
        }
        let nameBytes = UnsafeBufferPointer(start: window + (pos - length), count: length)
        if sawRoot && openElements.isEmpty {
            throw notWellFormed("<\(String(decoding: nameBytes, as: UTF8.self))> after the end of the root element")
        }
        guard openElements.count < Self.depthLimit else {
            throw CatalogError(line: line, reason: "has elements nested deeper than \(Self.depthLimit) levels")
        }
        openElements.append((openNamesEnd, line))
        // Written over the spare bytes: no allocation, once the names of the deepest path fit.
        if openNames.count < openNamesEnd + length {
            openNames.append(contentsOf: repeatElement(0, count: openNamesEnd + length - openNames.count))
        }
        openNames.withUnsafeMutableBufferPointer { names in
            names.baseAddress!.advanced(by: openNamesEnd).update(from: nameBytes.baseAddress!, count: length)
        }
        openNamesEnd += length
        mark = nil
        sawRoot = true
        if keepsAttributes { attributes.removeAll(keepingCapacity: true) }
        // Not keeping capacity: after a tag with many attributes, each later tag would clear it all.
        if !attributeNames.isEmpty { attributeNames = [] }
        while true {
            let spaced = try skipSpace()
            switch try peek() {
            case UInt8(ascii: ">")?:
                pos += 1
                return .startTag
            case UInt8(ascii: "/")? where try peek(1) == UInt8(ascii: ">"):
                pos += 2
                pending = .endOfEmptyElement
                return .startTag
            case let byte? where spaced && startsName(byte):
                try attribute()
            case let byte?:
                throw notWellFormed("\(Self.describe(byte)) in the start tag <\(name)>")
            case nil:
                throw notWellFormed("the file ends inside the start tag <\(name)>")
            }
        }
    }

    /// Reads the attribute at `pos` (its name), keeping it when asked to.
    private mutating func attribute() throws {
        let length = try scanName()
        let nameBytes = UnsafeBufferPointer(start: window + (pos - length), count: length)
        let attributeName = String(decoding: nameBytes, as: UTF8.self)
        guard attributeNames.insert(Array(nameBytes)).inserted else {
            throw notWellFormed("attribute \(attributeName) repeated in <\(name)>")
        }
        mark = nil
        try skipSpace()
        guard try peek() == UInt8(ascii: "=") else { throw notWellFormed("attribute \(attributeName) without '=' and a value") }
        pos += 1
        try skipSpace()
        guard let quote = try peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw notWellFormed("the value of attribute \(attributeName) is not in quotes")
        }
        pos += 1
        keeping = keepsAttributes
        defer { keeping = false }
        textInScratch = false
        startRun()
        while true {
            guard let byte = try skip(until: stops.attribute) else {
                throw notWellFormed("the file ends inside the value of attribute \(attributeName)")
            }
            switch byte {
            case quote:
                let value: String
                if !keeping {
                    value = ""
                } else if textInScratch {
                    try endRun()
                    value = String(decoding: scratch, as: UTF8.self)
                } else {
                    value = String(decoding: UnsafeBufferPointer(start: window + (mark ?? pos), count: pos - (mark ?? pos)), as: UTF8.self)
                }
                pos += 1
                mark = nil
                if keepsAttributes { attributes.append((attributeName, value)) }
                return
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                pos += 1
            case .lessThan:
                throw notWellFormed("'<' in the value of attribute \(attributeName) (write &lt;)")
            case .ampersand:
                try endRun()
                try reference()
                startRun()
            case .tab, .lineFeed, .carriageReturn:
                // Attribute-value normalization: each white space character becomes a space.
                try endRun()
                if byte == .tab { pos += 1 } else { try stepOverLineBreak() }
                if keeping { scratch.append(UInt8(ascii: " ")) }
                startRun()
            default:
                throw controlCharacter(byte)
            }
        }
    }

    /// Reads the end tag at `pos` (its `<`), which must close the innermost open element.
    private mutating func endTag() throws -> XMLToken {
        tagLine = line
        pos += 2
        let length = try scanName()
        guard length > 0 else { throw notWellFormed("'</' not followed by a tag name") }
        let nameBytes = UnsafeBufferPointer(start: window + (pos - length), count: length)
        guard let element = openElements.last else {
            throw notWellFormed("end tag </\(String(decoding: nameBytes, as: UTF8.self))> with no element open")
        }
        let matches = openNames.withUnsafeBufferPointer { names in Self.same(names[element.nameStart..<openNamesEnd], nameBytes) }
        guard matches else {
            throw notWellFormed("end tag </\(String(decoding: nameBytes, as: UTF8.self))> does not match <\(name)> opened at line \(element.line)")
        }
        mark = nil
        try skipSpace()
        switch try peek() {
        case UInt8(ascii: ">")?:
            pos += 1
            pending = .close
            return .endTag
        case let byte?:
            throw notWellFormed("\(Self.describe(byte)) in the end tag </\(name)>")
        case nil:
            throw notWellFormed("the file ends inside the end tag </\(name)>")
        }
    }

    /// Steps over the name at `pos`, whose bytes are the `length` before `pos` until the next
    /// read (`mark` keeps them); 0 when no name starts there.
    private mutating func scanName() throws -> Int {
        guard let first = try peek(), startsName(first) else { return 0 }
        mark = pos
        pos += 1
        while true {
            let bytes = window, end = windowEnd
            var index = pos
            while index < end && continuesName(bytes[index]) { index += 1 }
            pos = index
            if index < end { break }
            guard pos - (mark ?? pos) <= Self.nameLimit else {
                throw CatalogError(line: line, reason: "has a name longer than \(Self.nameLimit) bytes")
            }
            guard try fill() else { break }
        }
        return pos - (mark ?? pos)
    }

    /// Name characters: ASCII letters, `_` and `:`, and any non-ASCII byte (UTF-8 already checked).
    @inline(__always)
    private func startsName(_ byte: UInt8) -> Bool {
        byte >= 0x80 || stops.nameStart.contains(byte)
    }

    /// Also digits, `-` and `.` after the first character.
    @inline(__always)
    private func continuesName(_ byte: UInt8) -> Bool {
        byte >= 0x80 || stops.nameContinuation.contains(byte)
    }

    // MARK: Text

    /// Steps over the character data at `pos` up to the next tag (or the end of the input). When
    /// `keeping`, gives the range of the window that holds it decoded, or `nil` when it is in
    /// `scratch` (it had references, CDATA or line breaks to normalize).
    @discardableResult
    private mutating func scanText() throws -> Range<Int>? {
        textInScratch = false
        startRun()
        defer { mark = nil }
        while let byte = try skip(until: stops.text) {
            switch byte {
            case .lessThan:
                let next = try peek(1)
                if next != UInt8(ascii: "!") && next != UInt8(ascii: "?") {
                    // A tag (or a bad '<', which `next()` reports) ends the text.
                    return try endText()
                }
                if try lookingAt("<!--") {
                    try endRun()
                    try skipComment()
                } else if next == UInt8(ascii: "?") {
                    try endRun()
                    try skipProcessingInstruction()
                } else if try lookingAt("<![CDATA[") {
                    try endRun()
                    try cdataSection()
                } else {
                    return try endText()
                }
                startRun()
            case .ampersand:
                try endRun()
                try reference()
                startRun()
            case .lineFeed, .carriageReturn:
                try stepOverLineBreakInRun(byte)
            case UInt8(ascii: "]"):
                if try lookingAt("]]>") { throw notWellFormed("']]>' in text (it only ends a CDATA section; write ]]&gt;)") }
                pos += 1
            default:
                throw controlCharacter(byte)
            }
        }
        return try endText()
    }

    private mutating func endText() throws -> Range<Int>? {
        guard keeping else { return nil }
        if textInScratch {
            try endRun()
            return nil
        }
        let start = mark ?? pos
        guard pos - start <= Self.textLimit else { throw textTooLong() }
        return start..<pos
    }

    /// A run of bytes copied as they are starts at `pos` (kept from there when `keeping`).
    @inline(__always)
    private mutating func startRun() {
        mark = keeping ? pos : nil
    }

    /// The run that started at `mark` ends at `pos`: copied to `scratch` when `keeping`, which
    /// is emptied first when the text was not there yet (emptying it for every text read in
    /// place cost 2%).
    private mutating func endRun() throws {
        guard keeping else { return }
        if !textInScratch {
            scratch.removeAll(keepingCapacity: true)
            textInScratch = true
        }
        if let start = mark {
            scratch.append(contentsOf: UnsafeBufferPointer(start: window + start, count: pos - start))
            mark = nil
        }
        guard scratch.count <= Self.textLimit else { throw textTooLong() }
    }

    /// Reads the CDATA section at `pos` (its `<![CDATA[`) into `scratch` when `keeping`.
    private mutating func cdataSection() throws {
        pos += 9
        startRun()
        while true {
            guard let byte = try skip(until: stops.cdata) else { throw notWellFormed("the file ends inside a CDATA section") }
            switch byte {
            case UInt8(ascii: "]"):
                if try lookingAt("]]>") {
                    try endRun()
                    pos += 3
                    return
                }
                pos += 1
            case .lineFeed, .carriageReturn:
                try stepOverLineBreakInRun(byte)
            default:
                throw controlCharacter(byte)
            }
        }
    }

    /// Reads the reference at `pos` (its `&`): one of the five predefined entities or a character
    /// reference, appended to `scratch` when `keeping`.
    private mutating func reference() throws {
        guard let first = try peek(1) else { throw notWellFormed("the file ends inside a reference") }
        if first == UInt8(ascii: "#") {
            let hex = try peek(2) == UInt8(ascii: "x")
            var offset = hex ? 3 : 2
            var value: UInt32 = 0
            while let byte = try peek(offset), byte != UInt8(ascii: ";"), offset < 16 {
                guard let digit = Self.digit(byte, hex: hex) else { break }
                // Past U+10FFFF it is an error anyway: stop adding before UInt32 overflows.
                if value <= 0x10FFFF { value = value * (hex ? 16 : 10) + digit }
                offset += 1
            }
            let written = String(decoding: UnsafeBufferPointer(start: window + pos, count: offset), as: UTF8.self)
            guard try peek(offset) == UInt8(ascii: ";"), offset > (hex ? 3 : 2) else {
                throw notWellFormed("'\(written)' is not a character reference like &#233; or &#xE9;")
            }
            guard let scalar = Unicode.Scalar(value), Self.isXMLCharacter(value) else {
                throw notWellFormed("\(written); is not a character XML allows")
            }
            pos += offset + 1
            if keeping { scratch.append(contentsOf: String(scalar).utf8) }
            return
        }
        var offset = 1
        while let byte = try peek(offset), continuesName(byte), offset < 32 { offset += 1 }
        let entity = UnsafeBufferPointer(start: window + pos + 1, count: offset - 1)
        guard offset > 1, try peek(offset) == UInt8(ascii: ";") else {
            throw notWellFormed("'&' not followed by a reference like &amp; or &#233; (an '&' in text is written &amp;)")
        }
        let character: UInt8
        switch String(decoding: entity, as: UTF8.self) {
        case "amp": character = .ampersand
        case "lt": character = .lessThan
        case "gt": character = UInt8(ascii: ">")
        case "apos": character = UInt8(ascii: "'")
        case "quot": character = UInt8(ascii: "\"")
        case let other: throw notWellFormed("unknown entity &\(other);")
        }
        pos += offset + 1
        if keeping { scratch.append(character) }
    }

    private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// XML 1.0's `Char`: tab, line feed, carriage return and Unicode but surrogates, U+FFFE and U+FFFF.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Steps over the line break `byte` at `pos` inside a text run. End-of-line handling: CR LF
    /// and a lone CR are read as LF, so a CR ends the run and an LF stands for it.
    private mutating func stepOverLineBreakInRun(_ byte: UInt8) throws {
        if byte == .lineFeed {
            line += 1
            pos += 1
            return
        }
        try endRun()
        try stepOverLineBreak()
        if keeping { scratch.append(.lineFeed) }
        startRun()
    }

    // MARK: Markup that is skipped

    /// Steps over the comment at `pos` (its `<!--`).
    private mutating func skipComment() throws {
        pos += 4
        try skipMarkup(until: stops.comment, closer: UInt8(ascii: "-"), unterminated: "the file ends inside a comment") { scanner in
            guard try scanner.peek(1) == UInt8(ascii: "-") else { return false }
            guard try scanner.peek(2) == UInt8(ascii: ">") else { throw scanner.notWellFormed("'--' inside a comment") }
            scanner.pos += 3
            return true
        }
    }

    /// Steps over the rest of a comment or processing instruction: up to each `closer` byte (one
    /// of `stops`), where `ends` steps past the markup's end and says so; line breaks are
    /// counted, any other control character is an error.
    private mutating func skipMarkup(
        until stops: ASCIISet, closer: UInt8, unterminated: String, ends: (inout XMLScanner) throws -> Bool
    ) throws {
        while true {
            guard let byte = try skip(until: stops) else { throw notWellFormed(unterminated) }
            switch byte {
            case closer:
                if try ends(&self) { return }
                pos += 1
            case .lineFeed, .carriageReturn:
                try stepOverLineBreak()
            default:
                throw controlCharacter(byte)
            }
        }
    }

    /// Steps over the processing instruction at `pos` (its `<?`). The XML declaration, which
    /// looks like one, is checked and only allowed first in the file.
    private mutating func skipProcessingInstruction() throws {
        let atStart = dropped + pos == 0
        pos += 2
        let length = try scanName()
        guard length > 0 else { throw notWellFormed("'<?' not followed by a name") }
        let target = String(decoding: UnsafeBufferPointer(start: window + (pos - length), count: length), as: UTF8.self)
        mark = nil
        if target.lowercased() == "xml" {
            guard atStart && target == "xml" else {
                throw notWellFormed("<?\(target) ...?> where only the XML declaration may be, first in the file")
            }
            return try readXMLDeclaration()
        }
        if try !skipSpace(), try !lookingAt("?>") {
            throw notWellFormed("\(Self.describe(try peek())) after <?\(target)")
        }
        try skipMarkup(until: stops.processingInstruction, closer: UInt8(ascii: "?"), unterminated: "the file ends inside <?\(target) ...?>") { scanner in
            guard try scanner.peek(1) == UInt8(ascii: ">") else { return false }
            scanner.pos += 2
            return true
        }
    }

    /// Reads the XML declaration after its `<?xml`: `version="1.x"`, then optionally `encoding`
    /// (a name, not used: the input decoded the file) and `standalone` (`yes` or `no`), in that
    /// order, and `?>`.
    private mutating func readXMLDeclaration() throws {
        let names = ["version", "encoding", "standalone"]
        var next = 0
        while true {
            let spaced = try skipSpace()
            if try lookingAt("?>") {
                guard next > 0 else { throw notWellFormed("the XML declaration has no version") }
                pos += 2
                return
            }
            let length = spaced ? try scanName() : 0
            guard length > 0 else { throw notWellFormed("\(Self.describe(try peek())) in the XML declaration") }
            let name = String(decoding: UnsafeBufferPointer(start: window + (pos - length), count: length), as: UTF8.self)
            mark = nil
            guard let index = names.firstIndex(of: name), index >= next, index == 0 || next > 0 else {
                let expected = next == 0 ? "version" : (names[next...] + ["'?>'"]).joined(separator: " or ")
                throw notWellFormed("\(name) in the XML declaration where \(expected) belongs")
            }
            next = index + 1
            try skipSpace()
            guard try peek() == UInt8(ascii: "=") else { throw notWellFormed("\(name) without '=' in the XML declaration") }
            pos += 1
            try skipSpace()
            guard let quote = try peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw notWellFormed("the \(name) in the XML declaration is not in quotes")
            }
            pos += 1
            var value: [UInt8] = []
            while let byte = try peek(), stops.declarationValue.contains(byte), value.count < 64 {
                value.append(byte)
                pos += 1
            }
            let end = try peek()
            guard end == quote else { throw notWellFormed("\(Self.describe(end)) in the \(name) of the XML declaration") }
            pos += 1
            let text = String(decoding: value, as: UTF8.self)
            let isValid = switch index {
            case 0: value.count > 2 && value.starts(with: Array("1.".utf8)) && value.dropFirst(2).allSatisfy { (0x30...0x39).contains($0) }
            // The loop above took only letters, digits and ._- : an encoding's name starts with a letter.
            case 1: value.first.map(stops.letter.contains) == true
            default: text == "yes" || text == "no"
            }
            guard isValid else {
                let wanted = ["1.0", "an encoding's name", "yes or no"][index]
                throw notWellFormed("\(name) \"\(text)\" in the XML declaration, where \(wanted) belongs")
            }
        }
    }

    /// Steps over the `<!DOCTYPE ...>` at `pos`: the root element's name, an external ID (never
    /// read) and an internal subset (its declarations followed to their `>`, not checked).
    private mutating func skipDoctype() throws {
        guard !sawRoot else { throw notWellFormed("<!DOCTYPE after the root element began") }
        guard !sawDoctype else { throw notWellFormed("a second <!DOCTYPE") }
        sawDoctype = true
        pos += 9
        guard try skipSpace(), try scanName() > 0 else {
            throw notWellFormed("<!DOCTYPE not followed by a space and the root element's name")
        }
        mark = nil
        if try skipSpace() {
            let isPublic = try lookingAt("PUBLIC")
            if try isPublic || lookingAt("SYSTEM") {
                pos += 6
                if isPublic {
                    guard try skipSpace() else { throw notWellFormed("no space before the public ID in <!DOCTYPE ...>") }
                    try skipDoctypeLiteral(publicID: true)
                }
                guard try skipSpace() else { throw notWellFormed("no space before the system ID in <!DOCTYPE ...>") }
                try skipDoctypeLiteral(publicID: false)
                try skipSpace()
            }
        }
        if try peek() == UInt8(ascii: "[") {
            pos += 1
            try skipInternalSubset()
            try skipSpace()
        }
        switch try peek() {
        case UInt8(ascii: ">")?: pos += 1
        case let byte?: throw notWellFormed("\(Self.describe(byte)) in <!DOCTYPE ...>")
        case nil: throw notWellFormed("the file ends inside <!DOCTYPE ...>")
        }
    }

    /// Steps over a quoted system ID (anything but its quote) or public ID (letters, digits, white
    /// space and `-'()+,./:=?;!*#@$_%`).
    private mutating func skipDoctypeLiteral(publicID: Bool) throws {
        let kind = publicID ? "public ID" : "system ID"
        guard let quote = try peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw notWellFormed("\(Self.describe(try peek())) where <!DOCTYPE ...> has a quoted \(kind)")
        }
        pos += 1
        while true {
            guard let byte = try peek() else { throw notWellFormed("the file ends inside <!DOCTYPE ...>") }
            switch byte {
            case quote:
                pos += 1
                return
            case .lineFeed, .carriageReturn:
                try stepOverLineBreak()
            case _ where publicID && !stops.publicID.contains(byte):
                throw notWellFormed("\(byte < 0x80 ? Self.describe(byte) : "a non-ASCII character") in the public ID of <!DOCTYPE ...>")
            case _ where byte < 0x20 && byte != .tab:
                throw controlCharacter(byte)
            default:
                pos += 1
            }
        }
    }

    /// Steps over a DOCTYPE's internal subset after its `[`, and its `]`: markup declarations
    /// (`<!ENTITY ...>`, ...), followed to their `>` past quoted literals but not checked further,
    /// parameter-entity references, comments and processing instructions.
    private mutating func skipInternalSubset() throws {
        while true {
            try skipSpace()
            switch try peek() {
            case UInt8(ascii: "]")?:
                pos += 1
                return
            case UInt8(ascii: "%")?:
                pos += 1
                guard try scanName() > 0, try peek() == UInt8(ascii: ";") else {
                    throw notWellFormed("'%' not followed by a parameter-entity reference like %name; in <!DOCTYPE ...>")
                }
                mark = nil
                pos += 1
            case .lessThan?:
                if try lookingAt("<!--") {
                    try skipComment()
                } else if try peek(1) == UInt8(ascii: "?") {
                    try skipProcessingInstruction()
                } else if try peek(1) == UInt8(ascii: "!") {
                    pos += 2
                    guard try scanName() > 0 else { throw notWellFormed("'<!' not followed by a declaration in <!DOCTYPE ...>") }
                    mark = nil
                    try skipMarkupDeclaration()
                } else {
                    throw notWellFormed("'<' not followed by '!' or '?' in <!DOCTYPE ...>")
                }
            case let byte?:
                throw notWellFormed("\(Self.describe(byte)) in the internal subset of <!DOCTYPE ...>")
            case nil:
                throw notWellFormed("the file ends inside <!DOCTYPE ...>")
            }
        }
    }

    /// Steps over the rest of a markup declaration of a DOCTYPE, to its `>`.
    private mutating func skipMarkupDeclaration() throws {
        while true {
            guard let byte = try skip(until: stops.doctype) else { throw notWellFormed("the file ends inside <!DOCTYPE ...>") }
            switch byte {
            case UInt8(ascii: ">"):
                pos += 1
                return
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A quoted literal: a '>' in it ends nothing.
                pos += 1
                while true {
                    guard let inside = try skip(until: stops.literal) else { throw notWellFormed("the file ends inside <!DOCTYPE ...>") }
                    if inside == byte {
                        pos += 1
                        break
                    }
                    switch inside {
                    case UInt8(ascii: "\""), UInt8(ascii: "'"): pos += 1
                    case .lineFeed, .carriageReturn: try stepOverLineBreak()
                    default: throw controlCharacter(inside)
                    }
                }
            case UInt8(ascii: "["), UInt8(ascii: "]"):
                pos += 1
            case .lessThan:
                throw notWellFormed("'<' inside a declaration of <!DOCTYPE ...>")
            case .lineFeed, .carriageReturn:
                try stepOverLineBreak()
            default:
                throw controlCharacter(byte)
            }
        }
    }

    /// Steps over white space before or after the root element: anything else there is an error.
    private mutating func skipSpaceOutsideRoot() throws {
        try skipSpace()
        if let byte = try peek(), byte != .lessThan {
            throw notWellFormed(sawRoot ? "text after the end of the root element" : "text before the root element")
        }
    }

    /// Steps over spaces, tabs and line breaks; whether there were any.
    @discardableResult
    private mutating func skipSpace() throws -> Bool {
        var skipped = false
        while let byte = try peek() {
            switch byte {
            case UInt8(ascii: " "), .tab: pos += 1
            case .lineFeed, .carriageReturn: try stepOverLineBreak()
            default: return skipped
            }
            skipped = true
        }
        return skipped
    }

    /// Steps over the line break at `pos`: LF, CR LF or a lone CR, one line.
    private mutating func stepOverLineBreak() throws {
        let byte = window[pos]
        pos += 1
        if byte == .carriageReturn, try peek() == .lineFeed { pos += 1 }
        line += 1
    }

    // MARK: Bytes

    /// The bytes each kind of markup must look at: its end, line breaks, and control characters
    /// (an error everywhere; tab, line feed and carriage return are not control characters to
    /// XML). And name characters.
    ///
    /// A copy in each scanner: reading a `static let` in the loops cost a `swift_once` check each
    /// time, 2.5% of reading a Library.xml.
    private struct Stops {
        let text, attribute, cdata, comment, processingInstruction, doctype, literal: ASCIISet
        let nameStart, nameContinuation, letter, publicID, declarationValue: ASCIISet

        static let standard = Stops()

        private init() {
            let controls: [UInt8] = Array(0x00...0x1F).filter { $0 != .tab }
            text = ASCIISet(controls + [.lessThan, .ampersand, UInt8(ascii: "]")])
            attribute = ASCIISet(controls + [.tab, .lessThan, .ampersand, UInt8(ascii: "\""), UInt8(ascii: "'")])
            cdata = ASCIISet(controls + [UInt8(ascii: "]")])
            comment = ASCIISet(controls + [UInt8(ascii: "-")])
            processingInstruction = ASCIISet(controls + [UInt8(ascii: "?")])
            doctype = ASCIISet(controls + [.lessThan, UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: "'")])
            literal = ASCIISet(controls + [UInt8(ascii: "\""), UInt8(ascii: "'")])
            let letters = Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
            letter = ASCIISet(letters)
            declarationValue = ASCIISet(letters + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + Array("._-".utf8))
            publicID = ASCIISet(letters + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + Array(" \r\n-'()+,./:=?;!*#@$_%".utf8))
            nameStart = ASCIISet(letters + [UInt8(ascii: "_"), UInt8(ascii: ":")])
            nameContinuation = ASCIISet(letters + Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
                + [UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: ".")])
        }
    }

    /// Steps over bytes not in `stops`, reading on; the byte it stopped at (not stepped over), or
    /// `nil` at the end of the input.
    @inline(__always)
    private mutating func skip(until stops: ASCIISet) throws -> UInt8? {
        while true {
            let bytes = window, end = windowEnd
            var index = pos
            while index < end {
                let byte = bytes[index]
                if stops.contains(byte) {
                    pos = index
                    return byte
                }
                index += 1
            }
            pos = index
            if let start = mark, pos - start > Self.textLimit { throw textTooLong() }
            guard try fill() else { return nil }
        }
    }

    /// The byte `offset` past `pos`, reading on when needed; `nil` past the end of the input.
    @inline(__always)
    private mutating func peek(_ offset: Int = 0) throws -> UInt8? {
        if pos + offset < windowEnd { return window[pos + offset] }
        while pos + offset >= windowEnd {
            guard try fill() else { return nil }
        }
        return window[pos + offset]
    }

    /// Whether the bytes at `pos` are `literal`; nothing is stepped over.
    private mutating func lookingAt(_ literal: StaticString) throws -> Bool {
        for offset in 0..<literal.utf8CodeUnitCount {
            guard try peek(offset) == literal.utf8Start[offset] else { return false }
        }
        return true
    }

    /// Reads the next chunk, keeping the bytes from `mark` (or from `pos`), and checks it as UTF-8
    /// when the input has not.
    private mutating func fill() throws -> Bool {
        if stoppedAtInvalidUTF8 { throw invalidUTF8() }
        let keep = mark ?? pos
        let fresh = windowEnd - keep
        let more = try input.advance(keeping: keep)
        dropped += keep
        pos -= keep
        if mark != nil { mark = 0 }
        window = input.bytes
        windowEnd = input.count
        if var validator {
            validate(from: fresh, with: &validator)
            self.validator = validator
            if !more && !validator.isComplete && !stoppedAtInvalidUTF8 { throw invalidUTF8() }
        }
        return more
    }

    /// Checks `window[start..<windowEnd]`; at a byte that is not UTF-8, `windowEnd` moves back to
    /// it, so that the scanner reads up to it and reports it at its line.
    private mutating func validate(from start: Int, with validator: inout UTF8Validator) {
        guard start < windowEnd, !stoppedAtInvalidUTF8 else { return }
        let before = validator
        validator.feed(UnsafeRawBufferPointer(start: window + start, count: windowEnd - start))
        guard !validator.isValid else { return }
        // Fed again a byte at a time to find the first bad one: once per input at most.
        var replay = before
        var index = start
        while index < windowEnd {
            replay.feed(UnsafeRawBufferPointer(start: window + index, count: 1))
            if !replay.isValid { break }
            index += 1
        }
        windowEnd = index
        stoppedAtInvalidUTF8 = true
    }

    // MARK: Errors

    private func notWellFormed(_ detail: String) -> CatalogError {
        CatalogError(line: line, reason: "is not well-formed XML (\(detail))")
    }

    private func controlCharacter(_ byte: UInt8) -> CatalogError {
        notWellFormed("the control character \(Self.describe(byte)), which XML does not allow")
    }

    private func invalidUTF8() -> CatalogError {
        CatalogError(line: line, reason: "has bytes that are not valid UTF-8")
    }

    private func textTooLong() -> CatalogError {
        CatalogError(line: line, reason: "has a text longer than \(Self.textLimit / (1 << 20)) MiB")
    }

    private static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the file" }
        switch byte {
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case UInt8(ascii: " "): return "a space"
        default: return "0x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true))"
        }
    }
}

private extension UInt8 {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let lessThan = UInt8(ascii: "<")
    static let ampersand = UInt8(ascii: "&")
}
