@testable import AlbumStore
import FoundationEssentials
import FuzzDriver

/// One input: the input is a session snapshot file. Reading it may throw only
/// `SessionError`; a snapshot it gives, written and read again, must write the same bytes.
/// (Not compare equal: a whole REAL in the state, `2.0`, is written `2` and comes back an
/// integer, a known difference; and the time is written to the millisecond.)
@c(LLVMFuzzerTestOneInput)
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
    let snapshot: Snapshot
    do {
        snapshot = try SnapshotFile.snapshot(from: bytes, source: "fuzz.json")
    } catch is SessionError {
        return 0
    } catch {
        fatalError("reading a snapshot file threw \(type(of: error)), not a SessionError: \(error)")
    }
    let exportedAt = Date(timeIntervalSince1970: 0)
    let written = SnapshotFile.data(for: snapshot, exportedAt: exportedAt)
    do {
        let again = try SnapshotFile.snapshot(from: written, source: "again.json")
        guard SnapshotFile.data(for: again, exportedAt: exportedAt) == written else {
            fatalError("a snapshot written and read again writes other bytes: \(snapshot) became \(again)")
        }
    } catch {
        fatalError("a snapshot this library wrote cannot be read again: \(error)\n\(String(decoding: written, as: UTF8.self))")
    }
    return 0
}

@main
enum Main {
    static func main() { runFuzzer(fuzz) }
}
