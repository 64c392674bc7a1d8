import Foundation

/// A `CatalogInput` as a Foundation `InputStream`, so that `XMLParser(stream:)` reads the
/// decoded bytes a chunk at a time, and the input counts them for progress.
///
/// Used from one thread, by the parser it is given to. An I/O error makes `read` return -1 and is
/// kept in `failure` for the reader to throw.
final class CatalogInputStream: InputStream {
    private let input: CatalogInput
    /// How many bytes of the input's window were handed out.
    private var offset = 0
    private var atEnd = false
    private(set) var failure: CatalogError?

    init(_ input: CatalogInput) {
        self.input = input
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !atEnd }
    override var streamStatus: Stream.Status { failure != nil ? .error : atEnd ? .atEnd : .open }
    override var streamError: (any Error)? { failure }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard !atEnd, failure == nil else { return failure == nil ? 0 : -1 }
        if offset == input.count {
            do {
                guard try input.advance(keeping: input.count) else {
                    atEnd = true
                    return 0
                }
            } catch let error as CatalogError {
                failure = error
                return -1
            } catch {
                failure = CatalogError(line: 0, reason: "cannot be read: \(error)")
                return -1
            }
            offset = 0
        }
        let count = min(length, input.count - offset)
        buffer.update(from: input.bytes + offset, count: count)
        offset += count
        return count
    }

    override func getBuffer(_ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>) -> Bool {
        false
    }
}
