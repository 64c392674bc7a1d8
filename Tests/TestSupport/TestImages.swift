import Foundation

/// Tiny images with valid headers and the frame of their format, written by code: the library
/// reads only headers and checks the frame (`ImageStructure`), so a frame around filler bytes
/// stands for a real picture. `padding` makes distinct or large images.
public enum TestImages {
    /// Signature, IHDR, an IDAT chunk of `padding` filler bytes, IEND.
    public static func png(width: UInt32, height: UInt32, padding: Int = 0, fill: UInt8 = 0) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        data += Data("IHDR".utf8) + bigEndian(width) + bigEndian(height) + Data([8, 2, 0, 0, 0, 0, 0, 0, 0])
        data += bigEndian(UInt32(padding)) + Data("IDAT".utf8) + Data(repeating: fill, count: padding) + Data([0, 0, 0, 0])
        return data + pngEnd
    }

    /// The IEND chunk that ends every PNG.
    public static let pngEnd = Data([0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])

    /// A JPEG with an APP0 segment before its start-of-frame, as real files have.
    public static func jpeg(width: UInt16, height: UInt16) -> Data {
        var data = Data([0xFF, 0xD8])
        data += Data([0xFF, 0xE0, 0x00, 0x10]) + Data("JFIF\0".utf8) + Data(repeating: 1, count: 9)
        data += Data([0xFF, 0xC0, 0x00, 0x11, 0x08]) + bigEndian16(height) + bigEndian16(width) + Data(repeating: 0, count: 10)
        return data + Data([0xFF, 0xDA, 0x00, 0x08]) + Data(repeating: 0, count: 6) + Data([0xFF, 0xD9])
    }

    public static func gif(width: UInt16, height: UInt16) -> Data {
        Data("GIF89a".utf8) + littleEndian16(width) + littleEndian16(height) + Data([0, 0, 0, 0x3B])
    }

    /// Lossy WebP ("VP8 ").
    public static func webpLossy(width: UInt16, height: UInt16) -> Data {
        riff(chunk: "VP8 ", payload: Data([0, 0, 0, 0x9D, 0x01, 0x2A]) + littleEndian16(width) + littleEndian16(height)
            + Data(repeating: 0, count: 8))
    }

    /// Lossless WebP ("VP8L"): width-1 and height-1 packed in 14 bits each.
    public static func webpLossless(width: UInt32, height: UInt32) -> Data {
        let bits = (width - 1) | ((height - 1) << 14)
        return riff(chunk: "VP8L", payload: Data([0x2F]) + littleEndian32(bits) + Data(repeating: 0, count: 8))
    }

    /// Extended WebP ("VP8X"): 24-bit canvas width-1 and height-1.
    public static func webpExtended(width: UInt32, height: UInt32) -> Data {
        riff(chunk: "VP8X", payload: Data(repeating: 0, count: 4) + littleEndian32(width - 1).prefix(3)
            + littleEndian32(height - 1).prefix(3) + Data(repeating: 0, count: 8))
    }

    /// A RIFF file of one chunk, its sizes true; an odd payload gets RIFF's pad byte.
    private static func riff(chunk: String, payload: Data) -> Data {
        let padded = payload + (payload.count % 2 == 1 ? Data([0]) : Data())
        return Data("RIFF".utf8) + littleEndian32(UInt32(12 + padded.count)) + Data("WEBP".utf8) + Data(chunk.utf8)
            + littleEndian32(UInt32(payload.count)) + padded
    }

    private static func bigEndian(_ value: UInt32) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
    private static func bigEndian16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.bigEndian) { Data($0) } }
    private static func littleEndian16(_ value: UInt16) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    private static func littleEndian32(_ value: UInt32) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
}
