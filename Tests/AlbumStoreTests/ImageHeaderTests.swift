import Foundation
import TestSupport
import Testing
@testable import AlbumStore

struct ImageHeaderTests {
    @Test(arguments: [
        (TestImages.png(width: 600, height: 500), ImageHeader(format: .png, width: 600, height: 500)),
        (TestImages.jpeg(width: 1200, height: 1199), ImageHeader(format: .jpeg, width: 1200, height: 1199)),
        (TestImages.gif(width: 32, height: 16), ImageHeader(format: .gif, width: 32, height: 16)),
        (TestImages.webpLossy(width: 320, height: 240), ImageHeader(format: .webp, width: 320, height: 240)),
        (TestImages.webpLossless(width: 16000, height: 3), ImageHeader(format: .webp, width: 16000, height: 3)),
        (TestImages.webpExtended(width: 70000, height: 9), ImageHeader(format: .webp, width: 70000, height: 9)),
    ])
    func everyFormatIsSniffedWithItsPixelSize(image: Data, expected: ImageHeader) {
        #expect(ImageHeader.sniff([UInt8](image)) == expected)
    }

    @Test(arguments: [
        Data("hello, world".utf8),
        Data("<html><body>Not found</body></html>".utf8),
        Data(),
        Data([0xFF, 0xD8, 0xFF]),                                 // a JPEG cut after its first marker
        TestImages.png(width: 600, height: 500).prefix(20),       // a PNG cut inside IHDR
        TestImages.png(width: 0, height: 500),                    // no pixels
        Data("RIFF\0\0\0\0WAVEfmt ".utf8),                        // RIFF, but not WebP
    ])
    func anythingElseIsNotAnImage(bytes: Data) {
        #expect(ImageHeader.sniff([UInt8](bytes)) == nil)
    }

    @Test func aJPEGWhoseSegmentLengthsRunPastTheEndIsRefusedNotRead() {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0x00]
        #expect(ImageHeader.sniff(bytes) == nil)
    }
}
