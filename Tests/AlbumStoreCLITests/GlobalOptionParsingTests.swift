import ArgumentParser
import Testing
@testable import AlbumStoreCLI

/// --db and --verbose read the same before the command's name as after it, and the lines people
/// type most read as they mean: ArgumentParser is the only reader of the command line.
struct GlobalOptionParsingTests {
    func parsed<Command: ParsableCommand>(_ line: [String], as type: Command.Type) throws -> Command {
        let command = try AlbumStoreCommand.parseAsRoot(line)
        return try #require(command as? Command, "\(line) parsed as \(Swift.type(of: command))")
    }

    @Test func globalOptionsBeforeTheCommandNameReachTheCommand() throws {
        let query = try parsed(
            ["--verbose", "--db=lib.sqlite", "query", "genre:=Rock", "year:1990..1999", "--sort", "year", "--limit", "50"],
            as: Query.self)
        #expect(query.store.db == "lib.sqlite" && query.store.verbose)
        #expect(query.terms.terms == ["genre:=Rock", "year:1990..1999"] && query.sort.sort == "year" && query.limit == 50)

        let list = try parsed(["--db", "lib.sqlite", "list", "--format=csv", "--offset", "100", "--limit", "20"], as: List.self)
        #expect(list.store.db == "lib.sqlite" && !list.store.verbose)
        #expect(list.output.format == .csv && list.offset == 100 && list.limit == 20)

        let show = try parsed(["--db", "lib.sqlite", "show", "7", "--format=csv", "--wide", "--verbose"], as: Show.self)
        #expect(show.store.db == "lib.sqlite" && show.store.verbose && show.id == 7 && show.output.wide)

        let current = try parsed(["--db", "lib.sqlite", "state", "current", "--format", "json"], as: StateCurrent.self)
        #expect(current.store.db == "lib.sqlite" && current.output.format == .json)
    }

    @Test func globalOptionsAfterTheCommandNameReadAsBeforeIt() throws {
        let before = try parsed(["--db", "a.sqlite", "--verbose", "list", "--limit", "1"], as: List.self)
        let after = try parsed(["list", "--limit", "1", "--verbose", "--db", "a.sqlite"], as: List.self)
        #expect(before.store.db == after.store.db && before.store.verbose == after.store.verbose)
        #expect(before.limit == after.limit)
    }

    @Test func wordsAfterADoubleDashStayTermsEvenWhenTheyLookLikeGlobalOptions() throws {
        let query = try parsed(["--db", "lib.sqlite", "query", "--format=json", "--", "-genre:rock", "--db", "x", "--verbose"], as: Query.self)
        #expect(query.store.db == "lib.sqlite" && !query.store.verbose && query.output.format == .json)
        #expect(query.terms.terms == ["-genre:rock", "--db", "x", "--verbose"])

        let counted = try parsed(["query", "", "^genre:", "--", "--limit", "--count"], as: Query.self)
        #expect(counted.terms.terms == ["", "^genre:", "--limit", "--count"] && !counted.count && counted.limit == nil)
    }

    @Test func aNegativeListOffsetIsAValueInEitherSpelling() throws {
        #expect(try parsed(["list", "--offset", "-1"], as: List.self).offset == -1)
        #expect(try parsed(["--db", "lib.sqlite", "list", "--offset=-1"], as: List.self).offset == -1)
    }

    @Test func aGlobalOptionWithoutItsValueOrMisspeltIsAUsageError() {
        for line in [["--db"], ["query", "--db"], ["--dbx", "lib.sqlite", "list"], ["list", "--verbose=yes"]] {
            do {
                _ = try AlbumStoreCommand.parseAsRoot(line)
                Issue.record("\(line) should be a usage error")
            } catch {
                #expect(AlbumStoreCommand.exitCode(for: error) == .validationFailure, "\(line)")
            }
        }
    }
}
