import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A catalog file's text as a stream of UTF-8 bytes, whatever its encoding, read a chunk at a time
/// from a file, standard input or memory.
///
/// The readers see a window of decoded bytes, `bytes[0..<count]`, and ask for more with
/// `advance(keeping:)`, which keeps the bytes of the token they are in the middle of: memory is one
/// chunk plus the longest token a reader keeps (a CSV field is given up past 1 MiB).
///
/// How the encoding is chosen, before anything is read:
/// - a forced `CatalogEncoding` is used as given (a BOM of that encoding is dropped);
/// - else a byte-order mark decides: UTF-8's is dropped (never part of the first header), UTF-16's
///   choose the byte order;
/// - else text that starts `x 00 y 00` (or `00 x 00 y`) is taken for UTF-16 LE (BE), a guess;
/// - else the bytes are checked as UTF-8: a whole regular file (or `Data`) in a first pass before
///   reading, which costs one fast read of a file the page cache then holds; standard input and
///   pipes in their first 1 MiB only. Valid: UTF-8. Not: Windows-1252, reported as a guess
///   (`encodingWasGuessed`).
///
/// Invalid UTF-8 that a stream assumed to be UTF-8 has past its first 1 MiB (or in a file that
/// declared UTF-8 with a BOM) is passed on as is: the reader that makes a String of it finds it,
/// and gives the record a `problem` saying to try `--encoding windows-1252`; nothing crashes.
final class CatalogInput {
    static let defaultChunkSize = 64 * 1024
    /// How much of a stream of unknown length is checked as UTF-8 before reading.
    static let sniffLimit = 1 << 20

    /// The encoding the bytes are read in.
    let encoding: CatalogEncoding
    /// Whether `encoding` was a guess (no BOM, not forced, and the bytes were not UTF-8, or looked
    /// like UTF-16 without a BOM): the import says so.
    let encodingWasGuessed: Bool
    /// The lines of a UTF-8 file that are not UTF-8, read as Windows-1252 (a guess the import
    /// reports); empty when there are none, or the encoding was given or marked by a BOM.
    private(set) var windows1252Lines = LineRanges()
    /// The file's size in bytes when known (a regular file, `Data`), for progress.
    let totalBytes: Int?
    /// Raw bytes of the file consumed so far (before decoding), for progress against `totalBytes`.
    private(set) var bytesRead = 0
    /// Whether every byte the input gives is known to be valid UTF-8: transcoded, or UTF-8 checked
    /// whole before reading. Readers then make Strings without checking again.
    let isCheckedUTF8: Bool
    /// The first decoded bytes (one chunk at most, without a BOM), for format detection.
    private(set) var head: [UInt8] = []
    /// The first 16 bytes as read, before decoding: what tells a file that is no text at all.
    private(set) var signature: [UInt8] = []

    /// The decoded bytes in the window: `bytes[0..<count]`.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int
    private let chunkSize: Int

    private enum Source {
        case descriptor(Int32, closes: Bool)
        case data(Data)

        var isData: Bool {
            if case .data = self { true } else { false }
        }
    }

    private let source: Source
    private var dataOffset = 0
    private var sourceAtEnd = false
    /// Raw bytes read ahead to choose the encoding, handed out before the source's next bytes.
    private var readAhead: [UInt8] = []
    private var readAheadOffset = 0
    /// `nil` for UTF-8, which is passed on as read.
    private var transcoder: CatalogTranscoder?
    private var raw: UnsafeMutablePointer<UInt8>?
    private var finished = false

    /// Reads the file at `path`.
    ///
    /// - Throws: `CatalogError` (line 0) when the file cannot be opened or read.
    convenience init(path: String, encoding: CatalogEncoding? = nil, chunkSize: Int = defaultChunkSize) throws {
        do { try OpenLibraries.refuse(path) } catch let error as StorageError {
            throw CatalogError(line: 0, reason: error.message)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CatalogError(line: 0, reason: "cannot be opened: \(Self.describe(errno))") }
        try self.init(descriptor: descriptor, closes: true, encoding: encoding, chunkSize: chunkSize)
    }

    /// Reads the file at `path`, or standard input when `path` is `-` (the CLI's convention).
    static func reading(_ path: String, encoding: CatalogEncoding? = nil) throws -> CatalogInput {
        path == "-" ? try CatalogInput(standardInputWith: encoding) : try CatalogInput(path: path, encoding: encoding)
    }

    /// Reads standard input (descriptor 0), which it leaves open.
    convenience init(standardInputWith encoding: CatalogEncoding? = nil, chunkSize: Int = defaultChunkSize) throws {
        try self.init(fileDescriptor: 0, encoding: encoding, chunkSize: chunkSize)
    }

    /// Reads an open descriptor (a pipe, a file), which it leaves open.
    convenience init(fileDescriptor: Int32, encoding: CatalogEncoding? = nil, chunkSize: Int = defaultChunkSize) throws {
        try self.init(descriptor: fileDescriptor, closes: false, encoding: encoding, chunkSize: chunkSize)
    }

    /// Reads `data`, as from a regular file.
    ///
    /// - Parameter sniffLimit: How much is checked as UTF-8 before reading; `nil`: all of it.
    ///   Tests pass a small limit to see what a stream does with invalid bytes past its sniff.
    convenience init(data: Data, encoding: CatalogEncoding? = nil, chunkSize: Int = defaultChunkSize, sniffLimit: Int? = nil) throws {
        try self.init(source: .data(data), totalBytes: data.count, encoding: encoding, chunkSize: chunkSize,
                      checksWhole: sniffLimit == nil, sniffLimit: sniffLimit ?? Self.sniffLimit)
    }

    private convenience init(descriptor: Int32, closes: Bool, encoding: CatalogEncoding?, chunkSize: Int) throws {
        var status = stat()
        let isRegular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        // Standard input redirected from a file may start past the file's beginning.
        let start = isRegular ? max(Int(lseek(descriptor, 0, SEEK_CUR)), 0) : 0
        do {
            try self.init(source: .descriptor(descriptor, closes: closes),
                          totalBytes: isRegular ? max(Int(status.st_size) - start, 0) : nil, encoding: encoding,
                          chunkSize: chunkSize, checksWhole: isRegular, sniffLimit: Self.sniffLimit, descriptorStart: start)
        } catch {
            if closes { close(descriptor) }
            throw error
        }
    }

    private init(source: Source, totalBytes: Int?, encoding forced: CatalogEncoding?, chunkSize: Int,
                 checksWhole: Bool, sniffLimit: Int, descriptorStart: Int = 0) throws {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        self.source = source
        self.totalBytes = totalBytes
        self.chunkSize = chunkSize
        capacity = chunkSize * 2
        bytes = .allocate(capacity: capacity)

        // No more than the file holds when its size is known: a small file gets a small buffer.
        let readAheadSize = max(min(sniffLimit, totalBytes.map { $0 + 1 } ?? sniffLimit), 4)
        readAhead = try Self.readUpTo(readAheadSize, from: source, dataOffset: &dataOffset, atEnd: &sourceAtEnd)
        signature = Array(readAhead.prefix(16))
        let start = readAhead.prefix(4)
        var dropped = 0
        let chosen: CatalogEncoding
        var guessed = false
        var checkedWhole = false
        var badLines = LineRanges()
        func hasPrefix(_ prefix: [UInt8]) -> Bool { start.starts(with: prefix) }
        switch forced {
        case .utf8?:
            chosen = .utf8
            if hasPrefix([0xEF, 0xBB, 0xBF]) { dropped = 3 }
        case .utf16LE?:
            chosen = .utf16LE
            if hasPrefix([0xFF, 0xFE]) { dropped = 2 }
        case .utf16BE?:
            chosen = .utf16BE
            if hasPrefix([0xFE, 0xFF]) { dropped = 2 }
        case .utf16?:
            if hasPrefix([0xFF, 0xFE]) {
                (chosen, dropped) = (.utf16LE, 2)
            } else if hasPrefix([0xFE, 0xFF]) {
                (chosen, dropped) = (.utf16BE, 2)
            } else {
                chosen = Self.zeroBytesSayBigEndian(readAhead) ? .utf16BE : .utf16LE
            }
        case let other?:
            chosen = other
        case nil:
            if hasPrefix([0xEF, 0xBB, 0xBF]) {
                (chosen, dropped) = (.utf8, 3)
            } else if hasPrefix([0xFF, 0xFE]) {
                (chosen, dropped) = (.utf16LE, 2)
            } else if hasPrefix([0xFE, 0xFF]) {
                (chosen, dropped) = (.utf16BE, 2)
            } else if start.count == 4, start[start.startIndex] != 0, start[start.startIndex + 1] == 0,
                      start[start.startIndex + 2] != 0, start[start.startIndex + 3] == 0 {
                (chosen, guessed) = (.utf16LE, true)
            } else if start.count == 4, start[start.startIndex] == 0, start[start.startIndex + 1] != 0,
                      start[start.startIndex + 2] == 0, start[start.startIndex + 3] != 0 {
                (chosen, guessed) = (.utf16BE, true)
            } else {
                let restAt = source.isData ? dataOffset : descriptorStart + readAhead.count
                switch try Self.survey(readAhead, then: checksWhole ? source : nil, restAt: restAt) {
                case .utf8:
                    chosen = .utf8
                    checkedWhole = checksWhole
                case .utf8WithWindows1252(let lines):
                    chosen = .utf8
                    checkedWhole = checksWhole
                    badLines = lines
                case .unchecked:
                    chosen = .utf8
                case .notUTF8:
                    (chosen, guessed) = (.windows1252, true)
                }
            }
        }
        readAheadOffset = dropped
        bytesRead = dropped
        encoding = chosen
        encodingWasGuessed = guessed
        isCheckedUTF8 = chosen != .utf8 || checkedWhole
        windows1252Lines = badLines
        switch chosen {
        case .utf8 where !badLines.isEmpty: transcoder = CatalogTranscoder(.utf8WithWindows1252Lines(badLines))
        case .utf8: transcoder = nil
        case .utf16LE, .utf16: transcoder = CatalogTranscoder(.utf16(bigEndian: false))
        case .utf16BE: transcoder = CatalogTranscoder(.utf16(bigEndian: true))
        case .windows1252: transcoder = CatalogTranscoder(.windows1252)
        case .latin1: transcoder = CatalogTranscoder(.latin1)
        }
        if transcoder != nil { raw = .allocate(capacity: chunkSize) }
        _ = try advance(keeping: 0)
        head = Array(UnsafeBufferPointer(start: bytes, count: count))
    }

    deinit {
        bytes.deallocate()
        raw?.deallocate()
        if case let .descriptor(descriptor, true) = source { close(descriptor) }
    }

    /// Drops the bytes before `keep` (the rest move to the front, so a reader's positions go down
    /// by `keep`) and appends the next decoded chunk.
    ///
    /// - Returns: `false` at the end of the input, when no byte was added.
    /// - Throws: `CatalogError` (line 0) when the source cannot be read.
    func advance(keeping keep: Int) throws -> Bool {
        precondition(keep >= 0 && keep <= count, "keep bytes within the window")
        let kept = count - keep
        // The kept bytes may overlap their new place: memmove.
        if keep > 0 && kept > 0 { memmove(bytes, bytes + keep, kept) }
        count = kept
        while !finished {
            guard var transcoder, let raw else {
                reserve(chunkSize)
                let read = try readRaw(into: bytes + count, upTo: chunkSize)
                count += read
                if read == 0 { finished = true }
                return read > 0
            }
            let read = try readRaw(into: raw, upTo: chunkSize)
            reserve(CatalogTranscoder.capacity(forInput: read))
            let written = read > 0
                ? transcoder.transcode(UnsafeBufferPointer(start: raw, count: read), into: bytes + count)
                : transcoder.finish(into: bytes + count)
            self.transcoder = transcoder
            count += written
            if read == 0 { finished = true }
            if written > 0 { return true }
        }
        return false
    }

    private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let larger = max(capacity * 2, count + extra)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = moved
        capacity = larger
    }

    /// Reads up to `limit` raw bytes, the read-ahead first; fewer only at the end of the source.
    private func readRaw(into target: UnsafeMutablePointer<UInt8>, upTo limit: Int) throws -> Int {
        var filled = 0
        if readAheadOffset < readAhead.count {
            let taken = min(limit, readAhead.count - readAheadOffset)
            readAhead.withUnsafeBufferPointer { ahead in
                if let base = ahead.baseAddress { target.update(from: base + readAheadOffset, count: taken) }
            }
            readAheadOffset += taken
            filled = taken
            if readAheadOffset == readAhead.count {
                // Handed out whole: free the megabyte the encoding check read ahead.
                readAhead = []
                readAheadOffset = 0
            }
        }
        if filled < limit {
            filled += try Self.read(into: target + filled, upTo: limit - filled, from: source, dataOffset: &dataOffset, atEnd: &sourceAtEnd)
        }
        bytesRead += filled
        return filled
    }

    /// Reads until `limit` bytes or the end of the source.
    private static func read(
        into target: UnsafeMutablePointer<UInt8>, upTo limit: Int, from source: Source, dataOffset: inout Int, atEnd: inout Bool
    ) throws -> Int {
        guard !atEnd else { return 0 }
        switch source {
        case let .data(data):
            let taken = min(limit, data.count - dataOffset)
            if taken > 0 {
                let start = data.startIndex + dataOffset
                data.copyBytes(to: target, from: start..<(start + taken))
            }
            dataOffset += taken
            if taken < limit { atEnd = true }
            return taken
        case let .descriptor(descriptor, _):
            var filled = 0
            while filled < limit {
                let result = systemRead(descriptor, target + filled, limit - filled)
                if result > 0 {
                    filled += result
                } else if result == 0 {
                    atEnd = true
                    break
                } else if errno != EINTR {
                    throw CatalogError(line: 0, reason: "cannot be read: \(describe(errno))")
                }
            }
            return filled
        }
    }

    private static func readUpTo(_ limit: Int, from source: Source, dataOffset: inout Int, atEnd: inout Bool) throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: limit) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            initialized = try read(into: base, upTo: limit, from: source, dataOffset: &dataOffset, atEnd: &atEnd)
        }
    }

    /// What a text that is no UTF-16 is: UTF-8; UTF-8 but for some lines; UTF-8 but for too many
    /// lines to list; or not UTF-8.
    private enum Survey {
        case utf8
        case utf8WithWindows1252(LineRanges)
        case unchecked
        case notUTF8
    }

    /// Whether `start`, and the rest of `whole` when given, is UTF-8, and when it is not, whether
    /// it is UTF-8 all the same but for some lines (a UTF-8 file a line in Windows-1252 or
    /// Latin-1 was pasted into). The rest is read with `pread`, which leaves the descriptor where
    /// it was; a sequence cut off by the end of what is checked (but not by the end of the file)
    /// does not count against it. Valid UTF-8 takes one fast pass; only text that is not takes a
    /// second, line by line.
    private static func survey(_ start: [UInt8], then whole: Source?, restAt restOffset: Int) throws -> Survey {
        var validator = UTF8Validator()
        try scan(start, then: whole, restAt: restOffset, continuing: { validator.isValid }) { validator.feed($0) }
        if whole == nil ? validator.isValid : validator.isComplete { return .utf8 }
        var lines = LineEncodingSurvey()
        try scan(start, then: whole, restAt: restOffset, continuing: { true }) { lines.feed($0) }
        lines.finish(cut: whole == nil)
        // No line of UTF-8 beyond ASCII: a file in a single-byte encoding.
        guard lines.sawUTF8Text else { return .notUTF8 }
        // More lines than are kept apart: too mixed to read line by line, so the reader checks
        // every field and rejects the rows that are not UTF-8.
        guard lines.badLines.isComplete else { return .unchecked }
        return .utf8WithWindows1252(lines.badLines)
    }

    /// Feeds `start`, then the rest of `whole` from `restOffset`, to `body` a piece at a time,
    /// while `condition` holds.
    private static func scan(
        _ start: [UInt8], then whole: Source?, restAt restOffset: Int, continuing condition: () -> Bool,
        _ body: (UnsafeRawBufferPointer) -> Void
    ) throws {
        start.withUnsafeBytes { body($0) }
        guard let whole else { return }
        switch whole {
        case let .data(data):
            if restOffset < data.count && condition() {
                data[(data.startIndex + restOffset)...].withUnsafeBytes { body($0) }
            }
        case let .descriptor(descriptor, _):
            let chunk = 1 << 20
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 8)
            defer { buffer.deallocate() }
            var offset = off_t(restOffset)
            while condition() {
                let result = pread(descriptor, buffer, chunk, offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw CatalogError(line: 0, reason: "cannot be read: \(describe(errno))")
                }
                if result == 0 { break }
                body(UnsafeRawBufferPointer(start: buffer, count: result))
                offset += off_t(result)
            }
        }
    }

    /// Whether zero bytes fall more often first in a pair than second (UTF-16 BE text) in the
    /// first kilobyte; little-endian when they show nothing.
    private static func zeroBytesSayBigEndian(_ start: [UInt8]) -> Bool {
        var even = 0, odd = 0
        for (index, byte) in start.prefix(1024).enumerated() where byte == 0 {
            if index.isMultiple(of: 2) { even += 1 } else { odd += 1 }
        }
        return even > odd
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// `read(2)`: inside `CatalogInput` the name `read` is its own method.
private func systemRead(_ descriptor: Int32, _ target: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(descriptor, target, count)
}
