// swift-tools-version: 6.1
import PackageDescription

/// A file sees only the members of the modules it imports itself, not those its dependencies
/// import: the members each file uses are those of the modules it names. Most files use
/// FoundationEssentials only; the library imports Foundation for canonical decomposition
/// (`FoldedText`), which nothing lighter offers publicly.
let onlyWhatIsImported: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

/// libsqlite3, the system's shared library; linked into the binary only on explicit request
/// (ALBUMSTORE_STATIC_SQLITE=1, for a machine without it), which then gets no SQLite updates.
/// The module map does not link it, so that this is the one place that does.
let linkSQLite: [LinkerSetting] = Context.environment["ALBUMSTORE_STATIC_SQLITE"] == "1"
    ? [.unsafeFlags(["-Xlinker", "-Bstatic", "-Xlinker", "-lsqlite3", "-Xlinker", "-Bdynamic"])]
    : [.linkedLibrary("sqlite3")]

/// scripts/fuzz sets ALBUMSTORE_FUZZ=1: the fuzz targets
/// (scripts/Fuzz/Sources) are declared, and the library's own modules are optimized and
/// instrumented for libFuzzer and AddressSanitizer; their dependencies are not what is fuzzed.
/// Nothing else builds the fuzz targets.
let fuzzing = Context.environment["ALBUMSTORE_FUZZ"] == "1"
let instrumented: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address", "-O"])] : []

/// A libFuzzer executable: `LLVMFuzzerTestOneInput` and a main that runs libFuzzer's driver on it
/// (`FuzzDriver`). Linked with lld: SwiftPM aliases `main` to the target's own, which gold
/// refuses beside the fuzzer runtime's.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: "fuzz-\(name)", dependencies: dependencies + ["FuzzDriver"], path: "scripts/Fuzz/Sources/fuzz-\(name)",
        swiftSettings: instrumented, linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])])
}

let fuzzTargets: [Target] = !fuzzing ? [] : [
    .systemLibrary(name: "CFuzzer", path: "scripts/Fuzz/Sources/CFuzzer"),
    .target(name: "FuzzDriver", dependencies: ["CFuzzer"], path: "scripts/Fuzz/Sources/FuzzDriver"),
    // Reading a whole catalog the way an import does, for the catalog targets.
    .target(name: "CatalogFuzzing", dependencies: ["AlbumStore"], path: "scripts/Fuzz/Sources/CatalogFuzzing",
            swiftSettings: instrumented),
    fuzzTarget("csv", ["CatalogFuzzing"]),
    fuzzTarget("json", ["CatalogFuzzing"]),
    fuzzTarget("library-xml", ["CatalogFuzzing"]),
    fuzzTarget("query", ["AlbumStore"]),
    fuzzTarget("snapshot", ["AlbumStore"]),
    fuzzTarget("image", ["AlbumStore"]),
    // ChangeRecorder against the session extension, which it reaches through CSQLite.
    fuzzTarget("changeset", ["AlbumSQLite", "CSQLite"]),
]

let package = Package(
    name: "AlbumStore",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "AlbumStore", targets: ["AlbumStore"]),
        // The SQLite layer is a product of its own so that the benchmark package
        // (scripts/Benchmarks) can measure it without depending on the facade.
        .library(name: "AlbumSQLite", targets: ["AlbumSQLite"]),
        .executable(name: "albumstore", targets: ["AlbumStoreCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The tests' HTTP client speaks HTTPTypes through its HTTP/1 codec (Hummingbird's own).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        // `albumstore serve`: the album browser's HTTP server (and its in-process test client).
        // Without its default traits: the server reads no swift-configuration (a package of its
        // own, otherwise built in every build) and needs nothing beyond FoundationEssentials.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Hummingbird's own: the server's live-event service ends with the server on Ctrl-C.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // `swift package generate-documentation`: the DocC catalog in Sources/AlbumStore.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "AlbumSQLite", dependencies: ["CSQLite"], swiftSettings: onlyWhatIsImported + instrumented, linkerSettings: linkSQLite),
        // The schema: Migrations/*.sql, embedded in the code so that a copied binary, with no
        // bundle beside it, still creates and migrates a database. A new migration is listed
        // here and in Migrations/MigrationFiles.swift (EmbeddedMigrationsTests checks both).
        .target(
            name: "AlbumStoreMigrations",
            path: "Migrations",
            resources: [
                .embedInCode("0001_albums.sql"),
                .embedInCode("0002_history.sql"),
                .embedInCode("0003_change_log.sql"),
                .embedInCode("0004_generated_triggers.sql"),
                .embedInCode("0005_match_key.sql"),
                .embedInCode("0006_order_statistics.sql"),
                .embedInCode("0007_album_search.sql"),
                .embedInCode("0008_session_state.sql"),
                .embedInCode("0009_covers.sql"),
                .embedInCode("0010_command_costs.sql"),
                .embedInCode("0011_change_log_check.sql"),
                .embedInCode("0012_album_id_floor.sql"),
                .embedInCode("0013_music_folders.sql"),
            ]
        ),
        // The tags, length and front cover of audio files, read by TagLib's C++ API behind a small
        // C interface (its own C API lacks album artist, discs, MusicBrainz ids and pictures).
        .target(name: "CTagReader", linkerSettings: [.linkedLibrary("tag")]),
        // SHA-256 of covers where there is no CryptoKit: the system's libcrypto (OpenSSL).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Cover downloads: the system's libcurl, loaded at the first download (its headers only
        // at build time: no pkg-config, whose flags would link it into every start).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The library builds only its own code and the system's libraries: nothing of a TLS
        // stack or an HTTP client is compiled into an app that adds it.
        .target(
            name: "AlbumStore",
            dependencies: [
                "AlbumSQLite",
                "AlbumStoreMigrations",
                "CTagReader",
                "CCurl",
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: onlyWhatIsImported + instrumented
        ),
        // The album browser (`albumstore serve`): the JSON API, the live change events and the
        // page, whose files are embedded in the code so that a copied binary serves them too.
        .target(
            name: "AlbumStoreServer",
            dependencies: [
                "AlbumStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/app.css"), .embedInCode("Page/app.js")],
            swiftSettings: onlyWhatIsImported
        ),
        .executableTarget(
            name: "AlbumStoreCLI",
            dependencies: [
                "AlbumStore",
                "AlbumStoreServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: onlyWhatIsImported
        ),
        // The in-process half of scripts/stress (the library's public API only). Here rather than
        // in a package of its own under scripts/, which would build the library once more.
        .executableTarget(name: "stress-library", dependencies: ["AlbumStore"], path: "scripts/StressLibrary"),
        // Helpers the test targets share: a temporary folder, seeded random numbers, waits with a
        // deadline, a music folder made by ffmpeg, an HTTP client of a live server (on swift-nio,
        // which the server builds anyway: the tests build no TLS stack or HTTP client library).
        .target(name: "TestSupport", dependencies: [
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        ], path: "Tests/TestSupport"),
        .testTarget(name: "AlbumSQLiteTests", dependencies: ["AlbumSQLite", "CSQLite", "TestSupport"]),
        .testTarget(name: "AlbumStoreTests", dependencies: ["AlbumStore", "AlbumSQLite", "TestSupport"]),
        // Imports AlbumStore alone and uses its whole public API: it compiles only while no
        // public declaration exposes a type of the SQLite layer.
        .testTarget(name: "AlbumStoreAPITests", dependencies: ["AlbumStore", "TestSupport"]),
        .testTarget(name: "AlbumStoreServerTests", dependencies: [
            "AlbumStoreServer", "AlbumStore", "TestSupport",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // BadInput: the bad-input corpus and its manifest (BadInputCorpusTests).
        .testTarget(
            name: "AlbumStoreCLITests",
            dependencies: ["AlbumStore", "AlbumStoreCLI", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types")],
            resources: [.copy("BadInput")]),
    ] + fuzzTargets,
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
