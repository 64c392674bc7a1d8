@testable import AlbumStore
import FoundationEssentials
import FuzzDriver

/// One input: the input is a cover image. It goes through the check every stored
/// cover passes (`CoverScan`: header, plausible size, frame), which may throw only `CoverError`;
/// the frame check also runs on headers of implausible size, which the scan stops before.
@c(LLVMFuzzerTestOneInput)
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let header = ImageHeader.sniff(bytes) {
        guard header.width > 0, header.height > 0 else { fatalError("sniff gave a header of \(header.width)×\(header.height)") }
        _ = header.hasPlausibleSize
        _ = ImageStructure.problem(of: header, head: Array(bytes.prefix(ImageHeader.sniffLength)),
                                   tail: Array(bytes.suffix(ImageStructure.tailLength)), byteCount: bytes.count)
    }
    do {
        _ = try CoverScan(.data(Data(bytes)), limit: 1 << 20)
    } catch is CoverError {
        // Not an image, an implausible size, an incomplete frame: refused as the library does.
    } catch {
        fatalError("CoverScan threw \(type(of: error)), not a CoverError: \(error)")
    }
    return 0
}

@main
enum Main {
    static func main() { runFuzzer(fuzz) }
}
