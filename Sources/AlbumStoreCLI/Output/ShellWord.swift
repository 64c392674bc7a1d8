/// Text as a shell reads it back as one word, for a command a message suggests: as it is when it
/// holds only letters, digits and `:=._^-/`, else in single quotes (`'"hello"'`, `'it'\''s'`).
enum ShellWord {
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || ":=._^-/".contains($0) }
        return plain ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
