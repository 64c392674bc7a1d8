/// Copies `count` bytes from `source` to `destination`, which must not overlap.
///
/// Up to 16 bytes are moved with at most two loads and two stores that overlap in the middle:
/// the texts of a row are mostly that short, and there a call to memmove, or a byte loop, costs
/// more than the copy itself. Longer runs go to memmove.
@inlinable @inline(__always)
func copyBytes(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
    if count > 16 {
        destination.copyMemory(from: source, byteCount: count)
    } else if count >= 8 {
        let head = source.loadUnaligned(as: UInt64.self)
        let tail = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        destination.storeBytes(of: head, as: UInt64.self)
        destination.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 {
        let head = source.loadUnaligned(as: UInt32.self)
        let tail = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        destination.storeBytes(of: head, as: UInt32.self)
        destination.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
    } else if count > 0 {
        // 1 to 3 bytes: the first, the middle and the last, overlapping as needed.
        let middle = count >> 1
        destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        destination.storeBytes(of: source.load(fromByteOffset: middle, as: UInt8.self), toByteOffset: middle, as: UInt8.self)
        destination.storeBytes(of: source.load(fromByteOffset: count &- 1, as: UInt8.self), toByteOffset: count &- 1, as: UInt8.self)
    }
}
