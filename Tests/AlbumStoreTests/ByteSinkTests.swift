import Foundation
import TestSupport
import Testing
@testable import AlbumStore

/// Output streams: bytes leave as records are written, memory holds one record or one buffer.
struct ByteSinkTests {
    /// 20,000 albums, made as they are read: the test itself holds none of them.
    static var albums: LazyMapSequence<ClosedRange<Int>, Album> {
        (1...20_000).lazy.map { Album.sample(id: Int64($0), title: "Album \($0)") }
    }

    @Test(arguments: 0..<4)
    func aLargeListReachesTheSinkRecordByRecordBeforeFinish(writer number: Int) throws {
        let sink = RecordingSink()
        let writer = InterchangeWriterTests.writers[number](sink)

        for (index, album) in Self.albums.enumerated() { try writer.write(album, index: index) }
        let beforeFinish = sink.bytes.count
        try writer.finish()

        // Every album was handed over as it was written, in a write no bigger than a record:
        // the writer never held more than one.
        #expect(sink.writes.count >= Self.albums.count)
        #expect(beforeFinish > 2_000_000)
        #expect(sink.bytes.count - beforeFinish <= 3)
        #expect(try #require(sink.writes.max()) < 500)
    }

    @Test func aFileDescriptorSinkWritesWheneverItsBufferFills() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("albums.ndjson").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = FileDescriptorSink(fileDescriptor: descriptor, bufferSize: 64 * 1024)
        let writer = NDJSONWriter(to: sink)

        var sizes: [Int] = []
        for album in Self.albums.prefix(5_000) {
            try writer.write(album)
            sizes.append(try fileSize(path))
        }
        let beforeFinish = try fileSize(path)
        try writer.finish()
        let total = try fileSize(path)

        // On disk before finish: all but at most one buffer; nothing ever more than a buffer behind.
        #expect(beforeFinish > 1_000_000)
        #expect(total - beforeFinish <= 64 * 1024)
        #expect(Set(sizes).count > 10)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5_000)
        #expect(try JSONDecoder().decode(Album.self, from: Data(lines[4_999].utf8)) == Array(Self.albums.prefix(5_000)).last)
    }

    @Test func aWriteBiggerThanTheBufferGoesStraightThroughInOrder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("bytes").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = FileDescriptorSink(fileDescriptor: descriptor, bufferSize: 16)

        try sink.write("small ")
        try sink.write(String(repeating: "x", count: 100))
        try sink.write(" end")
        #expect(try fileSize(path) == 106)
        try sink.flush()

        #expect(try String(contentsOfFile: path, encoding: .utf8) == "small " + String(repeating: "x", count: 100) + " end")
    }

    @Test func aPipeGetsEveryByteWhileItsReaderDrainsIt() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        // Far more than a pipe holds: the writes block and resume as the reader drains the pipe.
        let reader = Task.detached { () -> Int in
            defer { close(reading) }
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress, $0.count) }
                if count <= 0 { return total }
                total += count
            }
        }
        let sink = FileDescriptorSink(fileDescriptor: writing)
        let writer = CSVWriter(to: sink)
        for (index, album) in Self.albums.enumerated() { try writer.write(album, index: index) }
        try writer.finish()
        close(writing)

        let expected = MemorySink()
        let expectedWriter = CSVWriter(to: expected)
        try expectedWriter.write(contentsOf: Self.albums.enumerated().map { (index: $0.offset, album: $0.element) })
        try expectedWriter.finish()
        #expect(await reader.value == expected.bytes.count)
    }

    @Test func aClosedPipeIsReportedAsBrokenPipe() throws {
        // Ignored, as the CLI does, so a closed pipe fails the write instead of ending the process.
        signal(SIGPIPE, SIG_IGN)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let writer = NDJSONWriter(to: FileDescriptorSink(fileDescriptor: ends[1]))

        #expect(throws: ByteSinkError.brokenPipe) {
            for album in Self.albums { try writer.write(album) }
            try writer.finish()
        }
    }

    @Test func aBadDescriptorIsAWriteFailureNamingTheError() throws {
        let sink = FileDescriptorSink(fileDescriptor: -1)
        try sink.write("x")

        #expect(throws: ByteSinkError.writeFailed(errno: EBADF)) { try sink.flush() }
        #expect(ByteSinkError.writeFailed(errno: EBADF).description.contains("errno \(EBADF)"))
    }

    @Test func aMemorySinkKeepsEverything() throws {
        let sink = MemorySink()
        try sink.write("héllo ")
        try sink.write([0x77, 0x6F, 0x72, 0x6C, 0x64])

        #expect(sink.text == "héllo world")
    }

    private func fileSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
    }
}
