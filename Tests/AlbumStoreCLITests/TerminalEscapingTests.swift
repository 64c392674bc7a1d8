@testable import AlbumStoreCLI
import Testing

/// What tables and messages show for characters that would drive the terminal.
struct TerminalEscapingTests {
    @Test(arguments: [
        ("line\nbreak", #"line\nbreak"#),
        ("tab\there", #"tab\there"#),
        ("carriage\rreturn", #"carriage\rreturn"#),
        ("bell\u{7}", #"bell\a"#),
        ("back\u{8}space", #"back\bspace"#),
        ("\u{B}\u{C}", #"\v\f"#),
        ("\u{1B}[31mred\u{1B}[0m", #"\e[31mred\e[0m"#),
        ("\u{1B}]0;title\u{7}", #"\e]0;title\a"#),
        ("nul\u{0}", #"nul\u{0}"#),
        ("\u{1F}", #"\u{1f}"#),
        ("del\u{7F}", #"del\u{7f}"#),
        ("csi\u{9B}31m", #"csi\u{9b}31m"#),
        ("\u{80}\u{9F}", #"\u{80}\u{9f}"#),
        ("\u{2028}\u{2029}", #"\u{2028}\u{2029}"#),
        ("abc\u{202E}fed", #"abc\u{202e}fed"#),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", #"\u{202a}\u{202b}\u{202c}\u{202d}"#),
        ("\u{2066}\u{2067}\u{2068}\u{2069}", #"\u{2066}\u{2067}\u{2068}\u{2069}"#),
        ("\r\n", #"\r\n"#),
    ])
    func controlsAndBidiOverridesAreShownEscaped(text: String, shown: String) {
        #expect(TerminalEscaping.escaped(text) == shown)
    }

    @Test(arguments: [
        "Low", "Björk", "Bjo\u{308}rk", "坂本龍一", "👩‍👩‍👧‍👦 👍🏽", "AC\\DC", "“quoted” — dash", "no\u{A0}break", "©®",
        "\u{200D}\u{200E}\u{200F}", "\u{2060}\u{2065}\u{206A}",
    ])
    func everythingElseIsShownAsItIs(text: String) {
        #expect(TerminalEscaping.escaped(text) == text)
    }

    @Test func escapedTextHoldsNoControlCharacter() {
        let everything = String(String.UnicodeScalarView((0...0x2100).compactMap(Unicode.Scalar.init)))
        let escaped = TerminalEscaping.escaped(everything)
        #expect(!escaped.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(!escaped.unicodeScalars.contains { (0x2028...0x2029).contains($0.value) || (0x202A...0x202E).contains($0.value) })
    }

    @Test func escapedLinesKeepTheLineFeedsBetweenLines() {
        #expect(TerminalEscaping.escapedLines("Error: \u{1B}[31m\nUsage: x\n") == "Error: \\e[31m\nUsage: x\n")
    }
}
