import Foundation
import Testing
@testable import AlbumStore

/// `XMLScanner`: the tokens of a document, read a chunk at a time, and an error with its line for
/// each way a document is not well-formed.
struct XMLScannerTests {
    /// The tokens of `text` as lines: `<name@line a=v>` for a start tag (attributes when kept),
    /// `</name>`, `"text"` (read, or `…` when stepped over), `end`.
    private func tokens(_ text: String, chunkSize: Int = 64 * 1024, readsText: Bool = true, keepsAttributes: Bool = false) throws -> [String] {
        try tokens(of: CatalogInput(text, chunkSize: chunkSize), readsText: readsText, keepsAttributes: keepsAttributes)
    }

    private func tokens(of input: CatalogInput, readsText: Bool = true, keepsAttributes: Bool = false) throws -> [String] {
        var scanner = XMLScanner(over: input, keepsAttributes: keepsAttributes)
        var result: [String] = []
        while true {
            switch try scanner.next() {
            case .startTag:
                let attributes = scanner.attributes.map { " \($0.name)=\($0.value)" }.joined()
                result.append("<\(scanner.name)@\(scanner.tagLine)\(attributes)>")
            case .endTag:
                result.append("</\(scanner.name)>")
            case .text:
                result.append(readsText ? "\"\(try scanner.readText())\"" : "…")
            case .endOfDocument:
                result.append("end")
                return result
            }
        }
    }

    /// The error reading `text` gives, read and stepped over alike (`nil`: none); the detail in
    /// "is not well-formed XML (...)" alone.
    private func error(_ text: String, chunkSize: Int = 64 * 1024) -> CatalogError? {
        func attempt(readsText: Bool) -> CatalogError? {
            do {
                _ = try tokens(text, chunkSize: chunkSize, readsText: readsText, keepsAttributes: readsText)
                return nil
            } catch let error as CatalogError {
                let prefix = "is not well-formed XML (", reason = error.reason
                guard reason.hasPrefix(prefix), reason.hasSuffix(")") else { return error }
                return CatalogError(line: error.line, reason: String(reason.dropFirst(prefix.count).dropLast()))
            } catch {
                return CatalogError(line: -1, reason: "\(error)")
            }
        }
        let read = attempt(readsText: true)
        #expect(attempt(readsText: false) == read, "stepping over the text finds what reading it finds")
        return read
    }

    // MARK: What it reads

    @Test func theFivePredefinedEntitiesAndCharacterReferencesAreDecoded() throws {
        #expect(try tokens("<a>&amp;&lt;&gt;&apos;&quot; &#65;&#x42;&#x1f600;&#233;&#xE9;&#10;</a>") == [
            "<a@1>", "\"&<>'\" AB😀éé\n\"", "</a>", "end",
        ])
    }

    @Test func aCDATASectionIsTextAsWritten() throws {
        #expect(try tokens("<a>x<![CDATA[<b>&amp;]]]]>y<![CDATA[]]></a>") == ["<a@1>", "\"x<b>&amp;]]y\"", "</a>", "end"])
        #expect(try tokens("<a><![CDATA[only]]></a>") == ["<a@1>", "\"only\"", "</a>", "end"])
    }

    @Test func commentsAndProcessingInstructionsAreLeftOutEverywhere() throws {
        let text = "<!-- before - <a> -->\n<?app data?>\n<a>one<!-- a <comment> - -->two<?pi x?y?>three</a><!-- after -->\n<?app?>\n"
        #expect(try tokens(text) == ["<a@3>", "\"onetwothree\"", "</a>", "end"])
    }

    @Test func theXMLDeclarationAndADoctypeWithAnInternalSubsetAreSkipped() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [
              <!ENTITY x "a>b]">
              <!-- ] > ' -->
              <?pi ]>?>
              <!ELEMENT plist ANY>
              <!ATTLIST plist version CDATA '1.0'>
              %parameters;
            ]>
            <plist version="1.0"/>

            """
        #expect(try tokens(text) == ["<plist@10>", "</plist>", "end"])
    }

    @Test func theXMLDeclarationMayHaveItsPartsInEitherQuotesOverLines() throws {
        #expect(try tokens("<?xml version\n=\n'1.10'\tencoding = \"ISO-8859-1\" standalone='no'\r\n?>\n<a/>") == ["<a@5>", "</a>", "end"])
        #expect(try tokens("<?xml version='1.0'?><!DOCTYPE a SYSTEM 'a.dtd'><a/>") == ["<a@1>", "</a>", "end"])
        #expect(try tokens("<!DOCTYPE a><a/>") == ["<a@1>", "</a>", "end"])
    }

    @Test func anEntityTheDoctypeDeclaresIsNotExpanded() {
        let text = "<!DOCTYPE a [<!ENTITY x \"boom\">]>\n<a>&x;</a>"
        #expect(error(text) == CatalogError(line: 2, reason: "unknown entity &x;"))
    }

    @Test func attributesInEitherQuotesAreDecodedAndNormalized() throws {
        let text = "<plist version=\"1.0\" other='say \"hi\" &amp; bye' spaced = \"a\tb\nc\r\nd&#10;\">\n<dict/></plist>"
        #expect(try tokens(text, keepsAttributes: true) == [
            "<plist@1 version=1.0 other=say \"hi\" & bye spaced=a b c d\n>", "\"\n\"", "<dict@4>", "</dict>", "</plist>", "end",
        ])
        #expect(try tokens(text) == ["<plist@1>", "\"\n\"", "<dict@4>", "</dict>", "</plist>", "end"], "not kept unless asked")
    }

    @Test func aSelfClosingTagIsAStartAndAnEndTag() throws {
        #expect(try tokens("<dict><true/><false /><key>k</key ></dict >") == [
            "<dict@1>", "<true@1>", "</true>", "<false@1>", "</false>", "<key@1>", "\"k\"", "</key>", "</dict>", "end",
        ])
    }

    @Test func eachStartTagHasItsLineWhateverTheLineBreaks() throws {
        let text = "<a>\n<b\n x='1'\n/>\r\n<c>one\rtwo\r\nthree</c>\r<d/><!--\n\n--><e\n/></a>"
        #expect(try tokens(text) == [
            "<a@1>", "\"\n\"", "<b@2>", "</b>", "\"\n\"", "<c@5>", "\"one\ntwo\nthree\"", "</c>", "\"\n\"", "<d@8>", "</d>",
            "<e@10>", "</e>", "</a>", "end",
        ])
    }

    @Test func textThatIsNotReadIsSteppedOver() throws {
        #expect(try tokens("<a>x &amp; <![CDATA[y]]><b>z</b></a>", readsText: false) == ["<a@1>", "…", "<b@1>", "…", "</b>", "</a>", "end"])
    }

    @Test func namesMayBeNonASCIIAndHavePunctuation() throws {
        #expect(try tokens("<é:x-1.y_z><_a/></é:x-1.y_z >") == ["<é:x-1.y_z@1>", "<_a@1>", "</_a>", "</é:x-1.y_z>", "end"])
    }

    /// A document with every construct, in which chunk boundaries fall everywhere.
    private static let everything = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x.dtd" [ <!ENTITY e 'a]>'> <!-- ]> --> ]>
        <plist version="1.0" x='y &lt; z'>
        <!-- comment - fine -->
        <dict>
        \t<key>Name</key><string>Caf\u{E9} &amp; Bar &#233;&#x1F3B5; \u{1F3B5} ]] > </string>
        \t<key>Data</key><string><![CDATA[<not a tag> & ]] ]]></string>
        \t<key>Lines</key><string>a\r\nb\rc</string>
        \t<true/><false   />
        \t<?pi in content?>
        </dict>
        </plist>
        <!-- trailing -->

        """

    @Test(arguments: 1...7)
    func anyChunkSizeGivesTheSameTokens(chunkSize: Int) throws {
        let whole = try tokens(Self.everything, keepsAttributes: true)
        #expect(whole.count == 34)
        #expect(try tokens(Self.everything, chunkSize: chunkSize, keepsAttributes: true) == whole)
        #expect(try tokens(Self.everything, chunkSize: chunkSize, readsText: false) == tokens(Self.everything, readsText: false))
    }

    @Test(arguments: 1...7)
    func anyChunkSizeGivesTheSameErrors(chunkSize: Int) {
        for (text, _, _) in Self.malformed {
            #expect(error(text, chunkSize: chunkSize) == error(text), "\(text.debugDescription)")
        }
    }

    @Test(.timeLimit(.minutes(1))) func aStartTagWithManyAttributesIsReadInLinearTime() throws {
        // A search of the tag's earlier names for each attribute (quadratic) took over a minute
        // at 500,000 attributes, past the time limit; how fast the reading is belongs to the benchmarks.
        let count = 200_000
        let attributes = (0..<count).map { " a\($0)='\($0)'" }.joined()
        var scanner = XMLScanner(over: try CatalogInput("<plist\(attributes)><dict b='x'/></plist>"), keepsAttributes: true)
        #expect(try scanner.next() == .startTag)
        #expect(scanner.attributes.count == count)
        #expect(scanner.attributes.last?.name == "a199999" && scanner.attributes.last?.value == "199999")
        #expect(try scanner.next() == .startTag)
        #expect(scanner.attributes.map(\.name) == ["b"])
        #expect(error("<plist\(attributes) a7='again'/>") == CatalogError(line: 1, reason: "attribute a7 repeated in <plist>"))
    }

    // MARK: Errors

    /// Documents that are not well-formed: the line and detail of their error.
    private static let malformed: [(String, Int, String)] = [
        // Unclosed and mismatched tags.
        ("<plist>\n<dict>\n<array>\n</dict>", 4, "end tag </dict> does not match <array> opened at line 3"),
        ("<a>\n<b>\n</b>\n", 4, "the file ends inside <a> opened at line 1"),
        ("</a>", 1, "end tag </a> with no element open"),
        ("<a></a>\n</a>", 2, "end tag </a> with no element open"),
        ("<a>\n<b", 2, "the file ends inside the start tag <b>"),
        ("<a>\n</a", 2, "the file ends inside the end tag </a>"),
        ("<a>\n<", 2, "the file ends inside a tag"),
        // '<' where it cannot be.
        ("<a>\n1 < 2</a>", 2, "'<' not followed by a tag name, '/', '!' or '?' (a '<' in text is written &lt;)"),
        ("<a>\n<1/></a>", 2, "'<' not followed by a tag name, '/', '!' or '?' (a '<' in text is written &lt;)"),
        ("<a b=\"<\"/>", 1, "'<' in the value of attribute b (write &lt;)"),
        ("<a <b>", 1, "'<' in the start tag <a>"),
        ("<a></ a>", 1, "'</' not followed by a tag name"),
        ("<a>\n<!x></a>", 2, "'<!' not followed by '--', '[CDATA[' or 'DOCTYPE'"),
        // Tags and attributes.
        ("<a b='1'c='2'/>", 1, "'c' in the start tag <a>"),
        ("<a b/>", 1, "attribute b without '=' and a value"),
        ("<a b=1/>", 1, "the value of attribute b is not in quotes"),
        ("<a b='1' b=\"2\"/>", 1, "attribute b repeated in <a>"),
        ("<a b='1\n", 2, "the file ends inside the value of attribute b"),
        ("<a></a x>", 1, "'x' in the end tag </a>"),
        ("<a/ >", 1, "'/' in the start tag <a>"),
        // References.
        ("<a>\n&foo;</a>", 2, "unknown entity &foo;"),
        ("<a>\nA & B</a>", 2, "'&' not followed by a reference like &amp; or &#233; (an '&' in text is written &amp;)"),
        ("<a>&amp</a>", 1, "'&' not followed by a reference like &amp; or &#233; (an '&' in text is written &amp;)"),
        ("<a>&#0;</a>", 1, "&#0; is not a character XML allows"),
        ("<a>&#xD800;</a>", 1, "&#xD800; is not a character XML allows"),
        ("<a>&#x110000;</a>", 1, "&#x110000; is not a character XML allows"),
        ("<a>&#99999999999;</a>", 1, "&#99999999999; is not a character XML allows"),
        ("<a>&#x;</a>", 1, "'&#x' is not a character reference like &#233; or &#xE9;"),
        ("<a>&#X41;</a>", 1, "'&#' is not a character reference like &#233; or &#xE9;"),
        ("<a>&#12</a>", 1, "'&#12' is not a character reference like &#233; or &#xE9;"),
        ("<a b='&bad;'/>", 1, "unknown entity &bad;"),
        ("<a>&", 1, "the file ends inside a reference"),
        // Outside the root element.
        ("<a/>\ntext", 2, "text after the end of the root element"),
        ("<a/>\n<b/>", 2, "<b> after the end of the root element"),
        ("text<a/>", 1, "text before the root element"),
        ("<![CDATA[x]]><a/>", 1, "a CDATA section outside the root element"),
        ("", 1, "no root element"),
        ("<?xml version=\"1.0\"?>\n<!-- only -->\n", 3, "no root element"),
        // Comments, CDATA, processing instructions, DOCTYPE.
        ("<a>\n<!-- a -- b --></a>", 2, "'--' inside a comment"),
        ("<a><!-- a ---></a>", 1, "'--' inside a comment"),
        ("<a>\n<!-- open", 2, "the file ends inside a comment"),
        ("<a>x ]]> y</a>", 1, "']]>' in text (it only ends a CDATA section; write ]]&gt;)"),
        ("<a><![CDATA[\nx", 2, "the file ends inside a CDATA section"),
        ("<a><?pi x", 1, "the file ends inside <?pi ...?>"),
        ("<a><? x?></a>", 1, "'<?' not followed by a name"),
        ("<a><?pi/x?></a>", 1, "'/' after <?pi"),
        ("\n<?xml version=\"1.0\"?><a/>", 2, "<?xml ...?> where only the XML declaration may be, first in the file"),
        ("<?XML version=\"1.0\"?><a/>", 1, "<?XML ...?> where only the XML declaration may be, first in the file"),
        ("<?xml?><a/>", 1, "the XML declaration has no version"),
        ("<?xml encoding=\"UTF-8\"?><a/>", 1, "encoding in the XML declaration where version belongs"),
        ("<?xml version=\"1.0\" standalone='no' encoding='UTF-8'?><a/>", 1, "encoding in the XML declaration where '?>' belongs"),
        ("<?xml version=\"1.0\" encoding='UTF-8' version='1.0'?><a/>", 1, "version in the XML declaration where standalone or '?>' belongs"),
        ("<?xml version=\"2.0\"?><a/>", 1, "version \"2.0\" in the XML declaration, where 1.0 belongs"),
        ("<?xml version=\"1.0\" encoding=\"8bit\"?><a/>", 1, "encoding \"8bit\" in the XML declaration, where an encoding's name belongs"),
        ("<?xml version=\"1.0\" standalone=\"maybe\"?><a/>", 1, "standalone \"maybe\" in the XML declaration, where yes or no belongs"),
        ("<?xml version=\"1.0\"encoding=\"UTF-8\"?><a/>", 1, "'e' in the XML declaration"),
        ("<?xml version=1.0?><a/>", 1, "the version in the XML declaration is not in quotes"),
        ("<?xml version='1.0\n'?><a/>", 1, "0x0A in the version of the XML declaration"),
        ("<?xml version='1.0?><a/>", 1, "'?' in the version of the XML declaration"),
        ("<!DOCTYPE a [\n<!ENTITY x 'y'>\n", 3, "the file ends inside <!DOCTYPE ...>"),
        ("<!DOCTYPE a SYSTEM \"x>", 1, "the file ends inside <!DOCTYPE ...>"),
        ("<!DOCTYPE a <x>><a/>", 1, "'<' in <!DOCTYPE ...>"),
        ("<!DOCTYPE a PUBLIC \"a{b}\" \"x.dtd\"><a/>", 1, "'{' in the public ID of <!DOCTYPE ...>"),
        ("<!DOCTYPE a PUBLIC \"-//A\" ><a/>", 1, "'>' where <!DOCTYPE ...> has a quoted system ID"),
        ("<!DOCTYPE a SYSTEM\"x.dtd\"><a/>", 1, "no space before the system ID in <!DOCTYPE ...>"),
        ("<!DOCTYPE a SYSTEM 'x.dtd' junk><a/>", 1, "'j' in <!DOCTYPE ...>"),
        ("<!DOCTYPE a [ <!ENTITY x 'y'> ] ] ><a/>", 1, "']' in <!DOCTYPE ...>"),
        ("<!DOCTYPE plis[t PUBLIC \"-//A\" \"x.dtd\">\n<a/>", 1, "'t' in the internal subset of <!DOCTYPE ...>"),
        ("<!DOCTYPE a [\n<!ENTITY x <y>>]><a/>", 2, "'<' inside a declaration of <!DOCTYPE ...>"),
        ("<!DOCTYPE a [\n<x>]><a/>", 2, "'<' not followed by '!' or '?' in <!DOCTYPE ...>"),
        ("<!DOCTYPE a [ %x ]><a/>", 1, "'%' not followed by a parameter-entity reference like %name; in <!DOCTYPE ...>"),
        ("<!DOCTYPE a><!DOCTYPE a><a/>", 1, "a second <!DOCTYPE"),
        ("<a><!DOCTYPE a></a>", 1, "<!DOCTYPE after the root element began"),
        ("<!DOCTYPEa><a/>", 1, "<!DOCTYPE not followed by a space and the root element's name"),
        // Characters XML does not allow.
        ("<a>\nx\u{1}</a>", 2, "the control character 0x01, which XML does not allow"),
        ("<a b='\u{0}'/>", 1, "the control character 0x00, which XML does not allow"),
        ("<a><!-- \u{1B} --></a>", 1, "the control character 0x1B, which XML does not allow"),
    ]

    @Test func eachWayOfNotBeingWellFormedIsAnErrorAtItsLine() {
        for (text, line, detail) in Self.malformed {
            #expect(error(text) == CatalogError(line: line, reason: detail), "\(text.debugDescription)")
        }
    }

    @Test func theReasonIsOneLineThatSaysItIsNotWellFormedXML() throws {
        #expect(throws: CatalogError(line: 4, reason: "is not well-formed XML (end tag </dict> does not match <array> opened at line 3)")) {
            try tokens("<plist>\n<dict>\n<array>\n</dict>")
        }
    }

    @Test func bytesThatAreNotUTF8AreAnErrorAtTheirLineWhenTheInputHasNotCheckedThem() throws {
        let utf8Error = "has bytes that are not valid UTF-8"
        let documents: [([UInt8], Int)] = [
            (Array("<a>\nok é\n".utf8) + [0xFF] + Array("</a>".utf8), 3),
            (Array("<a>\n<b".utf8) + [0xC3, 0x28] + Array("/></a>".utf8), 2),
            (Array("<a>".utf8) + [0xED, 0xA0, 0x80] + Array("</a>".utf8), 1),          // an encoded surrogate
            (Array("<a/>\n<!-- ".utf8) + [0xE9] + Array(" -->".utf8), 2),
            (Array("<a>\nx".utf8) + [0xC3], 2),                                           // cut off at the end
        ]
        for (bytes, line) in documents {
            for chunkSize in [1, 2, 3, 64 * 1024] {
                for readsText in [true, false] {
                    // A forced UTF-8 is not checked before reading: the scanner checks it.
                    let input = try CatalogInput(data: Data(bytes), encoding: .utf8, chunkSize: chunkSize)
                    #expect(!input.isCheckedUTF8)
                    #expect(throws: CatalogError(line: line, reason: utf8Error), "\(bytes) in chunks of \(chunkSize)") {
                        try tokens(of: input, readsText: readsText)
                    }
                }
            }
        }
        let valid = try CatalogInput(data: Data("<a>é 🎵</a>".utf8), encoding: .utf8, chunkSize: 1)
        #expect(try tokens(of: valid) == ["<a@1>", "\"é 🎵\"", "</a>", "end"])
    }

    @Test func elementsNestedDeeperThanTheLimitAreAnError() throws {
        let depth = XMLScanner.depthLimit
        let deepest = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(try tokens(deepest, readsText: false).count == 2 * depth + 1)
        #expect(throws: CatalogError(line: 1, reason: "has elements nested deeper than \(depth) levels")) {
            try tokens("<b>" + deepest + "</b>")
        }
    }

    @Test func aTextLongerThanTheLimitIsAnErrorOnlyWhenRead() throws {
        let text = "<a>" + String(repeating: "x", count: XMLScanner.textLimit + 1) + "</a>"
        #expect(try tokens(text, chunkSize: 4096, readsText: false) == ["<a@1>", "…", "</a>", "end"])
        #expect(throws: CatalogError(line: 1, reason: "has a text longer than 1 MiB")) { try tokens(text, chunkSize: 4096) }
        #expect(throws: CatalogError(line: 1, reason: "has a text longer than 1 MiB")) {
            try tokens("<a>&amp;" + text.dropFirst(3), chunkSize: 4096)
        }
    }
}
