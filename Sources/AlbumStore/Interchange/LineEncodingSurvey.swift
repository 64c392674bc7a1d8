/// Finds, line by line, where text that is not all UTF-8 is not: which lines are ill-formed
/// UTF-8, and whether any other line holds UTF-8 beyond ASCII (then the file is UTF-8 with a few
/// lines in another encoding, not a file in that encoding).
///
/// Lines are counted as the CSV reader counts them: LF, CR and CRLF each end one. Fed in pieces
/// of any size; a line split between two pieces is checked across them.
struct LineEncodingSurvey {
    /// The 1-based line being read.
    private(set) var line = 1
    /// The ill-formed lines, as ranges of consecutive lines, in order.
    private(set) var badLines = LineRanges()
    /// Whether a well-formed line held a byte above ASCII.
    private(set) var sawUTF8Text = false

    private var afterCarriageReturn = false
    private var validator = UTF8Validator()
    private var lineHasHighBytes = false

    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if afterCarriageReturn {
                afterCarriageReturn = false
                if byte == 0x0A {
                    index += 1
                    continue
                }
            }
            if byte == 0x0A || byte == 0x0D {
                endLine(cut: false)
                afterCarriageReturn = byte == 0x0D
                index += 1
                continue
            }
            // The run up to the line's end goes to the line's validator whole.
            var end = index
            while end < count, bytes[end] != 0x0A, bytes[end] != 0x0D {
                if bytes[end] >= 0x80 { lineHasHighBytes = true }
                end += 1
            }
            validator.feed(UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
            index = end
        }
    }

    /// Ends the survey: `cut` when the input goes on past what was fed (a stream checked in its
    /// first megabyte), so that a sequence cut off at the end does not count against its line.
    mutating func finish(cut: Bool) {
        endLine(cut: cut)
    }

    private mutating func endLine(cut: Bool) {
        if cut ? !validator.isValid : !validator.isComplete {
            badLines.insert(line)
        } else if lineHasHighBytes {
            sawUTF8Text = true
        }
        validator = UTF8Validator()
        lineHasHighBytes = false
        line += 1
    }
}
