import Foundation
import Testing

struct HistoryTests {
    let store: AlbumStoreFixture

    init() throws { store = try AlbumStoreFixture() }

    @Test func historyOfANewLibraryIsEmpty() throws {
        try store.run("init")
        let result = try store.run("history", "--format", "json")

        #expect(result.status == 0)
        #expect(try decodeJSON([PrintedHistoryEntry].self, from: result.stdout).isEmpty)
    }

    @Test func historyListsEveryCommandOldestFirstWithItsDescription() throws {
        let low = try store.add("Low", by: "David Bowie")
        try store.add("Heroes", by: "David Bowie", "--at", "0")
        try store.run("edit", String(low.id), "--year", "1977")
        try store.run("mv", String(low.id), "--to", "0")
        try store.run("rm", "--at", "1")

        let history = try store.history()

        #expect(history.map(\.description) == [
            "add “Low” by David Bowie",
            "insert “Heroes” by David Bowie at #0",
            "edit “Low” by David Bowie",
            "move “Low” by David Bowie from #1 to #0",
            "delete “Heroes” by David Bowie",
        ])
        #expect(history.allSatisfy { !$0.undone })
        #expect(history.map(\.id) == history.map(\.id).sorted())
    }

    @Test func historyDatesAreWhenTheCommandsRan() throws {
        let before = Date()
        try store.add("Low")

        let entry = try #require(try store.history().first)

        #expect(entry.date.timeIntervalSince(before) > -1)
        #expect(entry.date.timeIntervalSinceNow < 1)
    }

    @Test func historyMarksUndoneCommandsAsUndone() throws {
        try store.add(titles: ["A", "B", "C"])
        try store.run("undo")
        try store.run("undo")

        let history = try store.history()

        #expect(history.map(\.description) == ["add “A” by Artist", "add “B” by Artist", "add “C” by Artist"])
        #expect(history.map(\.undone) == [false, true, true])
    }

    @Test func historyMarksARedoneCommandAsDoneAgain() throws {
        try store.add(titles: ["A", "B"])
        try store.run("undo")
        try store.run("redo")

        #expect(try store.history().map(\.undone) == [false, false])
    }

    @Test func historyDropsUndoneCommandsWhenANewCommandRuns() throws {
        try store.add(titles: ["A", "B"])
        try store.run("undo")
        try store.add("C")

        let history = try store.history()

        #expect(history.map(\.description) == ["add “A” by Artist", "add “C” by Artist"])
        #expect(history.map(\.undone) == [false, false])
    }

    @Test func historyTableShowsStateAndCommand() throws {
        try store.add(titles: ["A", "B"])
        try store.run("undo")

        let result = try store.run("history")

        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID  When"))
        #expect(lines[0].hasSuffix("State   Command"))
        #expect(lines[1].hasSuffix("done    add “A” by Artist"))
        #expect(lines[2].hasSuffix("undone  add “B” by Artist"))
    }

    @Test func historyCSVHasAHeaderAndOneLinePerCommand() throws {
        try store.add(titles: ["A", "B"])
        try store.run("undo")

        let result = try store.run("history", "--format", "csv")

        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "id,date,is_undone,description")
        #expect(lines[1].hasPrefix("1,") && lines[1].hasSuffix(",false,add “A” by Artist"))
        #expect(lines[2].hasPrefix("2,") && lines[2].hasSuffix(",true,add “B” by Artist"))
    }
}
