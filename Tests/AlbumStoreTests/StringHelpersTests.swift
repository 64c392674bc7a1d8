import Foundation
import Testing
@testable import AlbumStore

/// Our replacements for the standard library's and Foundation's string helpers (see
/// StringJoining.swift and StringTrimming.swift) give what theirs give.
struct StringHelpersTests {
    @Test(arguments: [[], [""], ["a"], ["", ""], ["title", "artist", "genre"], ["é", "", "🎸🇸🇪", " x "]])
    func joinedByMatchesTheStandardLibrary(strings: [String]) {
        for separator in ["", ", ", " AND ", "—"] {
            #expect(strings.joined(by: separator) == strings.joined(separator: separator))
        }
    }

    @Test(arguments: ["", " ", "\t\n", "abc", "  abc ", "\u{3000}Björk\u{00A0}\n", " a b ", "\r\nline\r\n"])
    func trimmingWhitespaceMatchesFoundation(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
