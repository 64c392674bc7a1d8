import Foundation
import Testing

/// A value that is not a number where one is expected is a usage error (exit 2), whatever the
/// option: the same contract for `--year abc` as for `--at abc`.
struct BadValueTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test(arguments: [
        (["add", "--title", "T", "--artist", "A", "--year", "abc"], "--year <year>"),
        (["add", "--title", "T", "--artist", "A", "--year", "1977a"], "--year <year>"),
        (["add", "--title", "T", "--artist", "A", "--at", "abc"], "--at <at>"),
        (["edit", "1", "--year", "nineteen"], "--year <year>"),
        (["mv", "1", "--to", "last"], "--to <to>"),
        (["rm", "--at", "x"], "--at <at>"),
        (["list", "--offset", "1.5"], "--offset <offset>"),
        (["list", "--limit", "ten"], "--limit <limit>"),
        (["watch", "--since", "abc"], "--since <since>"),
    ])
    func aValueThatIsNotANumberIsAUsageError(arguments: [String], option: String) throws {
        try store.add("Existing")
        let before = try store.snapshot()

        let result = try store.run(arguments)

        #expect(result.status == 2, "\(arguments)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: The value '\(arguments.last ?? "")' is invalid for '\(option)'"), "\(result.stderr)")
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: [["mv", "1", "--to", "-1"], ["rm", "--at", "-1"], ["list", "--offset", "-1"], ["watch", "--since", "-1", "--once"]])
    func aNegativeNumberIsTakenAsTheOptionsValue(arguments: [String]) throws {
        try store.add("Existing")

        let result = try store.run(arguments)

        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test func aYearWithSurroundingSpacesIsTrimmed() throws {
        let added = try store.add("Low", "--year", " 1977 ")
        #expect(added.year == 1977)
    }

    @Test func anEmptyYearClearsItInEdit() throws {
        let added = try store.add("Low", "--year", "1977")

        let result = try store.run("edit", String(added.id), "--year", "")

        #expect(result.status == 0)
        #expect(try store.album(id: added.id).year == nil)
    }
}
