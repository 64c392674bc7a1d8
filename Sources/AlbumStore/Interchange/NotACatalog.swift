/// Files people give `import` that are no catalog at all, told by their first bytes: read as
/// text, a PNG would be a CSV whose one column is named "‰PNG".
enum NotACatalog {
    private static let signatures: [(bytes: [UInt8], offset: Int, kind: String)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], 0, "a PNG image"),
        ([0xFF, 0xD8, 0xFF], 0, "a JPEG image"),
        (Array("GIF8".utf8), 0, "a GIF image"),
        (Array("WEBP".utf8), 8, "a WebP image"),
        (Array("%PDF-".utf8), 0, "a PDF document"),
        ([0x50, 0x4B, 0x03, 0x04], 0, "a ZIP archive (a spreadsheet? export it as CSV)"),
        (Array("SQLite format 3".utf8) + [0], 0, "an SQLite database (`albumstore backup` copies a library)"),
        (Array("ID3".utf8), 0, "an MP3 file (a folder of them is imported with `albumstore import FOLDER`)"),
        (Array("fLaC".utf8), 0, "a FLAC file (a folder of them is imported with `albumstore import FOLDER`)"),
    ]

    /// What the file is, when its first bytes say it is not a catalog.
    static func kind(of signature: [UInt8]) -> String? {
        signatures.first { entry in
            signature.count >= entry.offset + entry.bytes.count
                && signature[entry.offset..<entry.offset + entry.bytes.count].elementsEqual(entry.bytes)
        }?.kind
    }
}
