/// The frame an image of each format has around its pixels, checked from its first and last
/// bytes and its size alone (nothing is decoded): a header followed by junk, or a file cut
/// short, is not a cover.
///
/// - PNG: the IHDR chunk first, 13 bytes long, then at least one more chunk, and an IEND chunk
///   at the very end.
/// - JPEG: a frame header (SOFn) before the scan (checked by `ImageHeader.sniff`), and the
///   end-of-image marker (FF D9) at the very end.
/// - GIF: the header, the logical screen and its colour table, and the trailer byte (3B) at the
///   very end.
/// - WebP: a RIFF size that matches the byte count, and a first chunk that fits in it.
enum ImageStructure {
    /// How many trailing bytes `problem` reads: a PNG's IEND chunk.
    static let tailLength = 12

    /// Why the image `header` was sniffed from is incomplete, or `nil` when it is not.
    /// - Parameters:
    ///   - head: The first bytes (at least those `sniff` read).
    ///   - tail: The last `tailLength` bytes, or all of them when there are fewer.
    static func problem(of header: ImageHeader, head: [UInt8], tail: [UInt8], byteCount: Int) -> String? {
        switch header.format {
        case .png: png(head: head, tail: tail, byteCount: byteCount)
        case .jpeg: tail.suffix(2).elementsEqual([0xFF, 0xD9]) ? nil : "it does not end with an end-of-image marker (FF D9)"
        case .gif: gif(head: head, tail: tail, byteCount: byteCount)
        case .webp: webp(head: head, byteCount: byteCount)
        }
    }

    /// IEND: no data, so its length, type and CRC are always these bytes.
    private static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

    private static func png(head: [UInt8], tail: [UInt8], byteCount: Int) -> String? {
        guard head.count >= 12, head[8..<12].elementsEqual([0, 0, 0, 13]) else { return "its IHDR chunk is not 13 bytes long" }
        guard tail.elementsEqual(pngEnd) else { return "it does not end with an IEND chunk" }
        // Signature, IHDR (12 + 13), IEND, and an empty chunk at the least between them.
        guard byteCount >= 8 + 25 + 12 + 12 else { return "it has no chunk between IHDR and IEND" }
        return nil
    }

    private static func gif(head: [UInt8], tail: [UInt8], byteCount: Int) -> String? {
        guard head.count >= 13 else { return "it is cut inside its logical screen descriptor" }
        guard tail.last == 0x3B else { return "it does not end with a trailer byte (3B)" }
        // A global colour table of 2^(n+1) RGB entries follows the 13 header bytes when flagged.
        let flags = head[10]
        let table = flags & 0x80 != 0 ? 3 << (Int(flags & 0x07) + 1) : 0
        guard byteCount >= 13 + table + 1 else { return "it is cut inside its colour table" }
        return nil
    }

    private static func webp(head: [UInt8], byteCount: Int) -> String? {
        guard head.count >= 20 else { return "it is cut inside its first chunk header" }
        let riff = littleEndian32(head, at: 4), chunk = littleEndian32(head, at: 16)
        guard riff + 8 == byteCount else { return "its RIFF size says \(riff + 8) bytes, but it has \(byteCount)" }
        guard 20 + chunk <= byteCount else { return "its first chunk runs past the end" }
        return nil
    }

    private static func littleEndian32(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
