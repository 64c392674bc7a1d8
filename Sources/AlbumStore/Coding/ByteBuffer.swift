/// The bytes of one record as a writer builds them, before they go to the sink.
///
/// A growable buffer without the checks `[UInt8]` makes on every append (is the storage
/// uniquely referenced, is there room, for each byte): a record is built by many small appends,
/// and they are the writers' hot path. Runs of bytes are copied whole; numbers are written
/// without building a String. Not copyable, so its memory has one owner.
struct ByteBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    init(capacity: Int = 512) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Forgets the bytes, keeping the memory.
    mutating func removeAll() { count = 0 }

    /// Lends the bytes written so far.
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 bytes of `text`.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Puts `byte` in front of the bytes from `position` on (which is at most `count`).
    mutating func insert(_ byte: UInt8, at position: Int) {
        precondition(position >= 0 && position <= count, "insert within the bytes written")
        reserve(1)
        (base + position + 1).update(from: base + position, count: count - position)
        base[position] = byte
        count += 1
    }

    /// Appends `number` in decimal ASCII.
    mutating func appendDecimal(_ number: Int64) {
        reserve(20)
        if number < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = number.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        // Written from the last digit back: division by the constant 10 is a multiplication.
        var position = count + digits
        count = position
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// Appends `length` bytes that `body` writes from the pointer it is given: one check for
    /// room instead of one per byte. `body` must write all of them.
    @inline(__always)
    mutating func append(length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        reserve(length)
        body(base + count)
        count += length
    }
}
