// bench-covers: covers written and read as blobs through the library, against the same bytes as
// files in a directory.
//
// Usage: bench-covers KIB COUNT ROUNDS DIRECTORY PAGE_SIZE...
//
// Each round, for each contender (the library at each PAGE_SIZE, and files), in an order rotated
// each round: COUNT distinct images of KIB KiB (a PNG header and random bytes, made before the
// clock starts) are written, then read back, and the times of both are taken.
// - library: a fresh library with COUNT albums; `covers.set(albumID:data:)` per album (one
//   undoable command each: a transaction, its history entry and change log), then
//   `covers.data(albumID:)` per album, then all of them again through `covers.data(albumIDs:)`
//   (one snapshot, one blob handle). The page size is set after the schema is made (VACUUM).
// - files: `Data.write(to:)` of COUNT files into a fresh folder, then `Data(contentsOf:)`.
// Neither side fsyncs per image: the library runs WAL with synchronous=NORMAL, whose commits do
// not sync either. Both read from a warm page cache.
// Prints one line per contender and operation: "RESULT op contender t1 t2 ..." (seconds).
import AlbumSQLite
import AlbumStore
import BenchStatistics
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-covers: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 6, let kib = Int(arguments[1]), let count = Int(arguments[2]), let rounds = Int(arguments[3]),
      kib > 0, count > 0, rounds > 0 else {
    fail("usage: bench-covers KIB COUNT ROUNDS DIRECTORY PAGE_SIZE...")
}
let directory = URL(fileURLWithPath: arguments[4])
let pageSizes = arguments[5...].compactMap { Int($0) }

// The images: distinct windows of one random buffer behind a PNG header.
var generator = SystemRandomNumberGenerator()
let size = kib * 1024
let pool = (0..<(size + count * 64)).map { _ in UInt8.random(in: 0...255, using: &generator) }
let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                       0, 0, 2, 0x58, 0, 0, 2, 0x58, 8, 2, 0, 0, 0, 0, 0, 0, 0]
// IEND last: the library refuses a PNG without it.
let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
let images = (0..<count).map { Data(header + pool[($0 * 64)..<($0 * 64 + size - header.count - end.count)] + end) }

enum Contender {
    case library(pageSize: Int)
    case files

    var name: String {
        switch self {
        case let .library(pageSize): "library-\(pageSize)"
        case .files: "files"
        }
    }
}

var times: [String: [Double]] = [:]

@MainActor func runLibrary(pageSize: Int, round: Int) throws {
    let url = directory.appendingPathComponent("covers-\(pageSize)-\(round).sqlite")
    do {
        let library = try Library.open(at: url)
        let drafts = (0..<count).map { AlbumDraft(title: "Album \($0)", artist: "Artist") }
        try library.albums.append(contentsOf: drafts)
    }
    do {
        // Page size is fixed when a file is made; VACUUM remakes it (outside WAL).
        let connection = try Connection(path: url.path)
        try connection.execute("PRAGMA journal_mode=DELETE")
        try connection.execute("PRAGMA page_size=\(pageSize)")
        try connection.execute("VACUUM")
        guard try connection.scalar("PRAGMA page_size", as: Int.self) == pageSize else { fail("page size \(pageSize) not taken") }
        try connection.execute("PRAGMA journal_mode=WAL")
    }
    let library = try Library.open(at: url)
    let ids = try library.albums.page().map(\.album.id)
    let (_, write) = try measure {
        for (id, image) in zip(ids, images) { try library.covers.set(albumID: id, data: image) }
    }
    let (bytes, read) = try measure {
        try ids.reduce(0) { $0 + (try library.covers.data(albumID: $1)?.count ?? 0) }
    }
    guard bytes == count * size else { fail("library read \(bytes) bytes, expected \(count * size)") }
    var batchBytes = 0
    let (_, batchRead) = try measure {
        try library.covers.data(albumIDs: ids) { _, data in batchBytes += data?.count ?? 0 }
    }
    guard batchBytes == count * size else { fail("library batch read \(batchBytes) bytes, expected \(count * size)") }
    times["write library-\(pageSize)", default: []].append(write)
    times["read library-\(pageSize)", default: []].append(read)
    times["read library-\(pageSize)-batch", default: []].append(batchRead)
    try? FileManager.default.removeItem(at: url)
}

@MainActor func runFiles(round: Int) throws {
    let folder = directory.appendingPathComponent("files-\(round)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let urls = (0..<count).map { folder.appendingPathComponent("\($0).png") }
    let (_, write) = try measure {
        for (url, image) in zip(urls, images) { try image.write(to: url) }
    }
    let (bytes, read) = try measure {
        try urls.reduce(0) { $0 + (try Data(contentsOf: $1).count) }
    }
    guard bytes == count * size else { fail("files read \(bytes) bytes, expected \(count * size)") }
    times["write files", default: []].append(write)
    times["read files", default: []].append(read)
    try? FileManager.default.removeItem(at: folder)
}

let contenders = pageSizes.map { Contender.library(pageSize: $0) } + [.files]
do {
    for round in 0..<rounds {
        for offset in 0..<contenders.count {
            let contender = contenders[(round + offset) % contenders.count]
            switch contender {
            case let .library(pageSize): try runLibrary(pageSize: pageSize, round: round)
            case .files: try runFiles(round: round)
            }
            FileHandle.standardError.write(Data("  round \(round + 1)/\(rounds) \(contender.name) done\n".utf8))
        }
    }
} catch {
    fail("\(error)")
}
for (key, values) in times.sorted(by: { $0.key < $1.key }) {
    print("RESULT \(key) " + values.map { format($0, 4) }.joined(separator: " "))
}
