import Testing
@testable import AlbumStoreCLI

/// How the import summary names the ignored columns: every one while they are few, else the
/// first ten and a count, each name cut short, so the line stays readable.
struct ImportReportTests {
    @Test func fewIgnoredColumnsAreAllNamed() {
        #expect(ImportReport.listing(["Label", "Notes"]) == "Label, Notes")
    }

    @Test func manyIgnoredColumnsAreTheFirstTenAndACount() {
        let names = (1...25).map { "c\($0)" }
        #expect(ImportReport.listing(names) == "c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 and 15 more")
    }

    @Test func aLongNameIsCutAtFortyCharacters() {
        let listed = ImportReport.listing([String(repeating: "é", count: 1 << 20)])
        #expect(listed == String(repeating: "é", count: 39) + "…")
    }
}
