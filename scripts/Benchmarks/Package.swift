// swift-tools-version: 6.0
// The benchmarks of scripts/bench-*. bench-core: the same insert and scan loops through our SQLite
// layer, through plain C on libsqlite3, and through GRDB. One executable per contender, so they
// never share a process. GRDB is a dependency of this package only, never of the product.
import PackageDescription

// A path dependency is named after its directory (`main` in the usual checkout), not after the
// manifest's `name`; derive it so a checkout under another name still builds.
let albumStore = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "AlbumStore"

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // Arguments, the generated rows, the clock and the checksum shared by the Swift contenders.
        .target(name: "BenchCoreSupport"),
        .executableTarget(
            name: "bench-core-swift",
            dependencies: ["BenchCoreSupport", .product(name: "AlbumSQLite", package: albumStore)]
        ),
        .executableTarget(
            name: "bench-core-grdb",
            dependencies: ["BenchCoreSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .executableTarget(
            name: "bench-core-c",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // scripts/bench-import: `albumstore import` against the fastest C for the same end state
        // and GRDB records (the sqlite3 shell and sqlite-utils are run by the script itself).
        .executableTarget(
            name: "bench-import-c",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "bench-import-grdb",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")]
        ),
        // scripts/bench-albums and scripts/bench-observe: the library's own operations.
        .target(name: "BenchStatistics"),
        .executableTarget(
            name: "bench-albums",
            dependencies: ["BenchStatistics", .product(name: "AlbumStore", package: albumStore),
                           .product(name: "AlbumSQLite", package: albumStore)]
        ),
        // scripts/bench-list: `albumstore list` against the sqlite3 shell.
        .executableTarget(
            name: "bench-list",
            dependencies: ["BenchStatistics", .product(name: "AlbumStore", package: albumStore),
                           .product(name: "AlbumSQLite", package: albumStore)]
        ),
        // scripts/bench-covers: covers as blobs through the library against files in a folder.
        .executableTarget(
            name: "bench-covers",
            dependencies: ["BenchStatistics", .product(name: "AlbumStore", package: albumStore),
                           .product(name: "AlbumSQLite", package: albumStore)]
        ),
        // scripts/bench-state: session state against a single-row INSERT.
        .executableTarget(
            name: "bench-state",
            dependencies: ["BenchStatistics", .product(name: "AlbumStore", package: albumStore),
                           .product(name: "AlbumSQLite", package: albumStore)]
        ),
        // scripts/bench-query: the query language, the library against C and the CLI against the shell.
        .executableTarget(
            name: "bench-query",
            dependencies: ["BenchStatistics", .product(name: "AlbumStore", package: albumStore),
                           .product(name: "AlbumSQLite", package: albumStore)]
        ),
        .executableTarget(
            name: "bench-query-c",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "bench-observe",
            dependencies: ["BenchStatistics", .product(name: "AlbumStore", package: albumStore),
                           .product(name: "AlbumSQLite", package: albumStore)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
