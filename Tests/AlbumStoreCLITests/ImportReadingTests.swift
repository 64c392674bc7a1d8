import AlbumStore
import Foundation
import Testing

/// How `albumstore import` reads what a newcomer brings: headers that name no field, semicolons,
/// files without a header, a UTF-8 file with a line in Latin-1. Each is read right or refused
/// with what to type, never stored wrong or dropped in silence.
struct ImportReadingTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    private func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = store.cli.path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    @Test func aHeaderWithoutTitleAndArtistIsRefusedNamingTheColumnsAndTheMap() throws {
        try store.add("Homogenic", by: "Björk")
        let before = try store.snapshot()
        let file = try write("Album Name,Performer,Year\nKind of Blue,Miles Davis,1959\nLow,David Bowie,1977\n", to: "a.csv")
        let result = try store.run("import", file)
        expectRefused(result, saying: """
            \(file): no columns map to title and artist; columns found: Album Name, Performer, Year; import refused, \
            nothing changed (`--map 'Album Name=title' --map Performer=artist` names them)
            """)
        #expect(try store.snapshot() == before)
        // The --map it names imports the file.
        let mapped = try store.run("import", file, "--map", "Album Name=title", "--map", "Performer=artist")
        #expect(mapped.status == 0, "\(mapped.stderr)")
        #expect(try store.titles() == ["Homogenic", "Kind of Blue", "Low"])
    }

    @Test func aSemicolonHeaderIsReadAsSemicolonSeparated() throws {
        let file = try write("Titel;Künstler;Jahr\nKind of Blue;Miles Davis;1959\n", to: "de.csv")
        let refused = try store.run("import", file)
        expectRefused(refused, saying: """
            \(file): no columns map to title and artist; columns found: Titel, Künstler, Jahr; import refused, \
            nothing changed (`--map Titel=title --map 'Künstler=artist'` names them)
            """)
        let result = try store.run("import", file, "--map", "Titel=title", "--map", "Künstler=artist", "--map", "Jahr=year")
        #expect(result.stderr == "Imported \(file) (csv, ;-separated, utf-8): 1 inserted.\n")
        let album = try #require(try store.albums().first)
        #expect((album.title, album.artist, album.year) == ("Kind of Blue", "Miles Davis", 1959))
    }

    @Test func delimiterNamesTheSeparator() throws {
        let file = try write("title|artist|year\nLow|David Bowie|1977\n", to: "pipes.txt")
        let result = try store.run("import", file, "--delimiter", "|")
        #expect(result.stderr == "Imported \(file) (csv, |-separated, utf-8): 1 inserted.\n")
        let tabs = try write("title\tartist\nHeroes\tDavid Bowie\n", to: "tabs.csv")
        #expect(try store.run("import", tabs, "--delimiter", "tab").status == 0)
        #expect(try store.titles() == ["Low", "Heroes"])
        expectUsageError(try store.run("import", file, "--delimiter", "||"),
                         saying: "--delimiter takes one ASCII character other than a quote, such as ';' or '|', or tab (got ||)")
        #expect(try store.run("import", file, "--delimiter", ";", "--format", "json").status == 2)
    }

    @Test func aFileWithoutAHeaderIsRefusedWithTheHintAndReadWithNoHeader() throws {
        let file = try write("Kind of Blue,Miles Davis,1959\n", to: "bare.csv")
        let refused = try store.run("import", file)
        expectRefused(refused, saying: """
            \(file): no columns map to title and artist; columns found: Kind of Blue, Miles Davis, 1959; import refused, \
            nothing changed (the first line looks like an album, not a header: `--no-header --map 1=title --map 2=artist` \
            reads it as one)
            """)
        let result = try store.run("import", file, "--no-header", "--map", "1=title", "--map", "2=artist", "--map", "3=year")
        #expect(result.stderr == "Imported \(file) (csv, utf-8): 1 inserted.\n")
        let album = try #require(try store.albums().first)
        #expect((album.title, album.artist, album.year) == ("Kind of Blue", "Miles Davis", 1959))
    }

    @Test func aLatin1LineInAUTF8FileIsReadAsWindows1252AloneWithAWarning() throws {
        try store.add("Homogenic", by: "Björk")
        // UTF-8, but line 3 was pasted from a Latin-1 file: "Björk" with ö as the byte F6.
        let bytes = Array("title,artist\nPost,Björk\nHomogenic,Bj".utf8) + [0xF6] + Array("rk\nDebut,Björk\n".utf8)
        let file = try write(bytes, to: "mixed.csv")
        let result = try store.run("import", file)
        #expect(result.status == 0)
        #expect(result.stderr == """
            warning: \(file): line 3 is not UTF-8 and was read as Windows-1252, the rest as UTF-8 (--encoding reads the \
            whole file in one encoding)
            Imported \(file) (csv, utf-8): 2 inserted, 1 skipped as duplicates.

            """)
        // Homogenic by Björk is the album already there, not a new one by "BjÃ¶rk".
        #expect(try store.albums().map(\.artist) == ["Björk", "Björk", "Björk"])
        #expect(try store.titles() == ["Homogenic", "Post", "Debut"])
    }
}
