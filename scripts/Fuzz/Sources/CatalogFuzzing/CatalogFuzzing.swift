@testable import AlbumStore
import FoundationEssentials

/// Reads a fuzz input as a catalog the way an import does: `CatalogInput` over the bytes, a
/// format's reader, and each record converted to an album row.
///
/// The input's first two bytes choose how it is read, so that the fuzzer varies that too; the
/// rest is the catalog. The first byte:
/// - bits 0-2: the chunk size (1, 2, 3, 7, 64, 1 KiB, 4 KiB, the default 64 KiB), so that
///   tokens fall across the window's edges;
/// - bit 3: read as a stream (only its first 16 bytes checked as UTF-8 before reading) rather
///   than as a file (all of it checked first);
/// - bits 4-6: a forced encoding (values 0-5 none, 6 Windows-1252, 7 UTF-16).
///
/// The second byte chooses the format among `formats` (`nil`: detected from the head, as for a
/// file without a known extension).
///
/// A reader may throw only `CatalogError` (the file cannot be read on); anything else, a
/// crash, a hang or a leak is a finding.
public enum CatalogFuzzing {
    public static func read(_ data: UnsafePointer<UInt8>?, _ size: Int, formats: [CatalogFormat?]) {
        guard let data, size >= 2 else { return }
        let options = data[0]
        let chunkSizes = [1, 2, 3, 7, 64, 1024, 4096, CatalogInput.defaultChunkSize]
        let chunkSize = chunkSizes[Int(options & 7)]
        let sniffLimit: Int? = options & 8 != 0 ? 16 : nil
        let encoding: CatalogEncoding? = switch (options >> 4) & 7 {
        case 6: .windows1252
        case 7: .utf16
        default: nil
        }
        let choice = formats[Int(data[1]) % formats.count]
        let bytes = Data(UnsafeBufferPointer(start: data + 2, count: size - 2))
        do {
            let input = try CatalogInput(data: bytes, encoding: encoding, chunkSize: chunkSize, sniffLimit: sniffLimit)
            let format = choice ?? CatalogFormat.detect(fileName: nil, head: input.head)
            var reader = try format.reader(over: input)
            var converter = RecordConverter(mapping: [:])
            while let record = try reader.next() {
                _ = converter.convert(record, columns: reader.columns)
            }
        } catch is CatalogError {
            // A file that cannot be read on: the import reports it.
        } catch {
            fatalError("a catalog reader threw \(type(of: error)), not a CatalogError: \(error)")
        }
    }
}
