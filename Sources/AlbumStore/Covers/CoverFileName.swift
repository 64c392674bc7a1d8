import FoundationEssentials

/// The file name a cover is exported under: `<album id>-<artist>-<title>.<ext>`, the words
/// reduced to a slug of lowercase ASCII letters, digits and hyphens.
///
/// Whatever a title holds (`../../etc/passwd`, `AC/DC`, `CON`, control characters), the name has
/// no separator, no dot but the extension's, and starts with the album's id: it cannot leave the
/// export folder, cannot be a device name on Windows, and two albums never share it.
enum CoverFileName {
    /// Slugs longer than this are cut, to stay far below file systems' 255-byte limit.
    static let maxSlugLength = 60

    static func make(albumID: Int64, artist: String, title: String, format: ImageFormat) -> String {
        let words = slug("\(artist) \(title)")
        return "\(albumID)\(words.isEmpty ? "" : "-" + words).\(format.fileExtension)"
    }

    static func slug(_ text: String) -> String {
        // "Motörhead" reads as "motorhead", not "mot-rhead".
        let folded = FoldedText.fold(text)
        var slug = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        slug = String(slug.prefix(maxSlugLength))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.lowercased()
    }
}
