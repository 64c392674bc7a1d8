import AlbumStore
import CatalogFuzzing
import FuzzDriver

/// One input: reads the input as a catalog (see `CatalogFuzzing`).
@c(LLVMFuzzerTestOneInput)
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    CatalogFuzzing.read(data, size, formats: [.json, .ndjson, nil])
    return 0
}

@main
enum Main {
    static func main() { runFuzzer(fuzz) }
}
