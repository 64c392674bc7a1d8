import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A path as the file system names it: bytes, which need not be UTF-8. Kept exactly (a rescan
/// finds the file under the same bytes) and shown with each byte that is not UTF-8 as `\xNN`.
struct RawPath: Sendable, Hashable, Comparable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ string: String) { bytes = Array(string.utf8) }

    /// The path with `name` (one component's bytes) after a slash.
    func appending(_ name: [UInt8]) -> RawPath {
        RawPath(bytes.last == UInt8(ascii: "/") ? bytes + name : bytes + [UInt8(ascii: "/")] + name)
    }

    /// The last component's bytes.
    var name: ArraySlice<UInt8> {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return bytes[...] }
        return bytes[(slash + 1)...]
    }

    /// The folder holding the path (itself for the root).
    var folder: RawPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return RawPath(".") }
        return slash == 0 ? RawPath("/") : RawPath(Array(bytes[..<slash]))
    }

    /// Whether `self` is `folder` or lies inside it.
    func isInside(_ folder: RawPath) -> Bool {
        bytes == folder.bytes || (bytes.starts(with: folder.bytes)
            && (folder.bytes.last == UInt8(ascii: "/") || bytes[folder.bytes.count] == UInt8(ascii: "/")))
    }

    /// The closest folder holding both paths.
    func commonFolder(with other: RawPath) -> RawPath {
        var path = self
        while !other.isInside(path) && path.bytes.count > 1 { path = path.folder }
        return path
    }

    /// The path for messages: UTF-8 as it is, any other byte as `\xNN`.
    var display: String { Self.display(bytes[...]) }

    /// The last component for messages.
    var displayName: String { Self.display(name) }

    /// Text that is valid UTF-8 as it is; each byte of an invalid sequence as `\xNN`.
    static func display(_ bytes: ArraySlice<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var output = ""
        var rest = bytes
        while !rest.isEmpty {
            // The longest valid prefix, then one escaped byte.
            var end = rest.endIndex
            while end > rest.startIndex, String(validating: rest[rest.startIndex..<end], as: UTF8.self) == nil {
                end -= 1
            }
            output += String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
            if end < rest.endIndex {
                let byte = rest[end]
                let digits = Array("0123456789ABCDEF")
                output += "\\x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0xF)])"
                end += 1
            }
            rest = rest[end...]
        }
        return output
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// Byte by byte, as SQLite orders blobs: `memcmp`, which a walk's sort and a rescan's merge
    /// call for every file (the generic comparison goes element by element through iterators).
    static func < (lhs: RawPath, rhs: RawPath) -> Bool {
        lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
    }

    /// The bytes hashed at once, not one by one as an array's elements are: a rescan looks up
    /// every file of the folder by its path.
    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
