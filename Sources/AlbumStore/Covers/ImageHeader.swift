/// An image's format and pixel size, read from its header bytes alone.
///
/// Every read is bounds-checked: the bytes may be anything (a download, a file another program
/// wrote), and a short or malformed header gives `nil`, never a crash.
package struct ImageHeader: Sendable, Hashable {
    package let format: ImageFormat
    package let width: Int
    package let height: Int

    package init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The most pixels a stored cover may have on a side: 16,384.
    package static let maximumSide = 16_384
    /// The most pixels a stored cover may have in all: 100 million (10,000×10,000, say).
    package static let maximumPixelCount = 100_000_000

    /// Whether the pixel size is one a cover may have: each side 1...`maximumSide`, and at most
    /// `maximumPixelCount` pixels. A header may claim any size; an app decoding a cover trusts it
    /// to allocate.
    package var hasPlausibleSize: Bool {
        (1...Self.maximumSide).contains(width) && (1...Self.maximumSide).contains(height)
            && width * height <= Self.maximumPixelCount
    }

    /// How many leading bytes `sniff` may need: JPEG's size comes after its metadata segments.
    package static let sniffLength = 512 * 1024

    /// The header of the image `bytes` begins with, or `nil` for anything that is not a PNG,
    /// JPEG, GIF or WebP with a positive pixel size.
    package static func sniff(_ bytes: [UInt8]) -> ImageHeader? {
        let reader = ByteReader(bytes: bytes)
        let header = png(reader) ?? gif(reader) ?? webp(reader) ?? jpeg(reader)
        guard let header, header.width > 0, header.height > 0 else { return nil }
        return header
    }

    private static func png(_ r: ByteReader) -> ImageHeader? {
        guard r.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0), r.matches(Array("IHDR".utf8), at: 12),
              let width = r.bigEndian(at: 16, count: 4), let height = r.bigEndian(at: 20, count: 4) else { return nil }
        return ImageHeader(format: .png, width: width, height: height)
    }

    private static func gif(_ r: ByteReader) -> ImageHeader? {
        guard r.matches(Array("GIF87a".utf8), at: 0) || r.matches(Array("GIF89a".utf8), at: 0),
              let width = r.littleEndian(at: 6, count: 2), let height = r.littleEndian(at: 8, count: 2) else { return nil }
        return ImageHeader(format: .gif, width: width, height: height)
    }

    /// WebP's three bitstreams keep the size in three ways. https://developers.google.com/speed/webp/docs/riff_container
    private static func webp(_ r: ByteReader) -> ImageHeader? {
        guard r.matches(Array("RIFF".utf8), at: 0), r.matches(Array("WEBP".utf8), at: 8) else { return nil }
        if r.matches(Array("VP8 ".utf8), at: 12) {
            // Lossy: a key frame's start code, then 14-bit width and height.
            guard r.matches([0x9D, 0x01, 0x2A], at: 23), let width = r.littleEndian(at: 26, count: 2),
                  let height = r.littleEndian(at: 28, count: 2) else { return nil }
            return ImageHeader(format: .webp, width: width & 0x3FFF, height: height & 0x3FFF)
        }
        if r.matches(Array("VP8L".utf8), at: 12) {
            // Lossless: a signature byte, then width-1 and height-1 in 14 bits each.
            guard r.matches([0x2F], at: 20), let bits = r.littleEndian(at: 21, count: 4) else { return nil }
            return ImageHeader(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        }
        if r.matches(Array("VP8X".utf8), at: 12) {
            // Extended: canvas width-1 and height-1 in 24 bits each.
            guard let width = r.littleEndian(at: 24, count: 3), let height = r.littleEndian(at: 27, count: 3) else { return nil }
            return ImageHeader(format: .webp, width: width + 1, height: height + 1)
        }
        return nil
    }

    /// Walks the marker segments to the first start-of-frame, which holds the size.
    private static func jpeg(_ r: ByteReader) -> ImageHeader? {
        guard r.matches([0xFF, 0xD8, 0xFF], at: 0) else { return nil }
        var offset = 2
        while let marker = r.byte(at: offset + 1), r.byte(at: offset) == 0xFF {
            // Standalone markers carry no length.
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) || marker == 0xFF {
                offset += marker == 0xFF ? 1 : 2
                continue
            }
            guard let length = r.bigEndian(at: offset + 2, count: 2), length >= 2 else { return nil }
            // SOF0...SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = r.bigEndian(at: offset + 5, count: 2),
                      let width = r.bigEndian(at: offset + 7, count: 2) else { return nil }
                return ImageHeader(format: .jpeg, width: width, height: height)
            }
            if marker == 0xDA || marker == 0xD9 { return nil }   // image data or end before any frame
            offset += 2 + length
        }
        return nil
    }
}

/// Bounds-checked reads of small integers from a byte array.
private struct ByteReader {
    let bytes: [UInt8]

    func byte(at offset: Int) -> UInt8? { bytes.indices.contains(offset) ? bytes[offset] : nil }

    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset <= bytes.count - expected.count && bytes[offset..<offset + expected.count].elementsEqual(expected)
    }

    func bigEndian(at offset: Int, count: Int) -> Int? {
        guard offset >= 0, count <= 4, offset <= bytes.count - count else { return nil }
        return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    func littleEndian(at offset: Int, count: Int) -> Int? {
        guard offset >= 0, count <= 4, offset <= bytes.count - count else { return nil }
        return bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
