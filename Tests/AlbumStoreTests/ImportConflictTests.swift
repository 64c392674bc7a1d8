import Foundation
import AlbumSQLite
import TestSupport
import Testing
@testable import AlbumStore

/// Duplicates: the same album in the library or earlier in the file, under each policy.
struct ImportConflictTests {
    let directory: TemporaryDirectory
    var url: URL { directory.file("library.sqlite") }

    init() throws { directory = try TemporaryDirectory() }

    private func library() throws -> Library {
        let library = try Library.open(at: url)
        try library.albums.append(AlbumDraft(title: "Homogenic", artist: "Björk", genre: "Electronic", year: 1997))
        try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie", year: 1977, externalID: "discogs:1"))
        try library.albums.append(AlbumDraft(title: "Heroes", artist: "David Bowie"))
        return library
    }

    @Test func skipLeavesTheStoredAlbumAndCountsIt() throws {
        let library = try library()
        let before = try library.rows(of: "albums")
        let summary = try library.importText("""
            title,artist,year,genre
            HOMOGENIC,bjork,1997,Pop
            homogenic, BJÖRK ,,Pop
            Heroes,David Bowie,1977,

            """)
        #expect(summary.inserted == 0 && summary.skippedDuplicates == 3 && summary.duplicatesWithinFile == 1)
        #expect(try library.rows(of: "albums") == before)
    }

    @Test func theExternalIDDecidesWhateverTheTitleSays() throws {
        let library = try library()
        let summary = try library.importText("title,artist,external_id\nLow (Remastered),Bowie,discogs:1\n")
        #expect(summary.skippedDuplicates == 1 && summary.inserted == 0)
    }

    @Test func differentYearsOrExternalIDsAreDifferentAlbums() throws {
        let library = try library()
        let summary = try library.importText("""
            title,artist,year,external_id
            Homogenic,Björk,2017,
            Low,David Bowie,1977,discogs:2

            """)
        #expect(summary.inserted == 2 && summary.skippedDuplicates == 0)
    }

    @Test func aRowRepeatedInAFileIntoAnEmptyLibraryIsAddedOnce() throws {
        let library = try Library.open(at: url)
        let summary = try library.importText("""
            title,artist,external_id
            Low,David Bowie,
            LOW,david bowie,
            Nevermind,Nirvana,discogs:7
            Nevermind (copy 2),Nirvana,discogs:7

            """)
        #expect(summary.inserted == 2 && summary.skippedDuplicates == 2 && summary.duplicatesWithinFile == 2)
        #expect(try library.allAlbums().map(\.title) == ["Low", "Nevermind"])
    }

    @Test func updateChangesOnlyTheSuppliedFieldsInPlaceKeepingIDAndPosition() throws {
        let library = try library()
        let before = try library.allAlbums()
        let summary = try library.importText(
            "artist,title,year\nbjork,homogenic,\nDavid Bowie,Low,1977\n", options: ImportOptions(onConflict: .update))
        // Homogenic: the empty year is absent (kept); title and artist change to the file's
        // spelling. Low: every field given is as stored, so it is a duplicate left alone.
        #expect(summary.updated == 1 && summary.skippedDuplicates == 1 && summary.inserted == 0)
        let after = try library.allAlbums()
        #expect(after.map(\.id) == before.map(\.id))
        #expect(after[0].title == "homogenic" && after[0].artist == "bjork")
        #expect(after[0].genre == "Electronic" && after[0].year == 1997)
        #expect(after[1] == before[1])
        // Still found under its new spelling: the key was updated with the fields.
        #expect(try library.importText("title,artist\nHomogenic,Björk\n").skippedDuplicates == 1)
    }

    @Test func updateIsOneUndoableCommandWithTheInserts() throws {
        let library = try library()
        let before = try library.rows(of: "albums")
        try library.importText("title,artist,genre\nLow,David Bowie,Rock\nStation to Station,David Bowie,Rock\n",
                               options: ImportOptions(onConflict: .update))
        let after = try library.rows(of: "albums")
        #expect(try library.historyEntries().count == 4)

        let reopened = try Library.open(at: url)   // a later process
        try reopened.undo()
        #expect(try reopened.rows(of: "albums") == before)
        try Library.open(at: url).redo()
        #expect(try reopened.rows(of: "albums") == after)
        try Library.open(at: url).undo()
        #expect(try reopened.rows(of: "albums") == before)
    }

    @Test func anImportThatOnlyUpdatesUndoesAndRedoesAcrossProcesses() throws {
        let library = try library()
        let before = try library.rows(of: "albums")
        let summary = try library.importText("title,artist,genre\nHeroes,David Bowie,Rock\n", options: ImportOptions(onConflict: .update))
        #expect(summary.updated == 1 && summary.inserted == 0)
        let after = try library.rows(of: "albums")
        try Library.open(at: url).undo()
        #expect(try library.rows(of: "albums") == before)
        try Library.open(at: url).redo()
        #expect(try library.rows(of: "albums") == after)
        #expect(try library.check().isEmpty)
    }

    @Test func failRefusesTheImportAndChangesNothing() throws {
        let library = try library()
        let before = try fileBytes(url)
        #expect {
            try library.importText("title,artist\nNew One,Someone\nHeroes,David Bowie\n", options: ImportOptions(onConflict: .fail))
        } throws: { error in
            guard case ImportError.conflict(let rejection, let existing) = error else { return false }
            return rejection.line == 3 && existing == 3
        }
        #expect(try fileBytes(url) == before)
    }

    @Test func intoAnEmptyLibraryTheIndexesComeBackExactlyAsTheSchemaHadThem() throws {
        let library = try Library.open(at: url)
        let schema = { try Connection(path: url.path).query("SELECT type, name, sql FROM sqlite_schema ORDER BY name") { $0.values } }
        let before = try schema()
        try library.importText("title,artist,external_id\nLow,David Bowie,a\nLow,David Bowie,b\nlow,david bowie,a\n")
        #expect(try schema() == before)
        #expect(try library.check().isEmpty)
        // The unique external-id index is back and enforced.
        #expect(throws: AlbumError.self) { try library.albums.append(AlbumDraft(title: "X", artist: "Y", externalID: "a")) }
    }

    /// A saturated filter makes every row a suspect; with few or no repeats among them the
    /// match-key index built for their check stays, and the schema still comes back exact.
    @Test(arguments: [0, 1, 40])
    func suspectsFromASaturatedFilterLeaveTheSchemaAsItWas(repeats: Int) throws {
        let library = try Library.open(at: url)
        let schema = { try Connection(path: url.path).query("SELECT type, name, sql FROM sqlite_schema ORDER BY name") { $0.values } }
        let before = try schema()
        var csv = "title,artist,external_id\n"
        for number in 0..<200 { csv += "Title \(number),Artist,\(number % 2 == 0 ? "e:\(number)" : "")\n" }
        for number in 0..<repeats { csv += "TITLE \(number),artist,\n" }
        let summary = try library.importText(csv, options: .with { $0.keyFilterBytes = 32 })
        #expect(summary.inserted == 200 && summary.skippedDuplicates == repeats && summary.duplicatesWithinFile == repeats)
        #expect(try schema() == before)
        #expect(try library.check().isEmpty)
        #expect(try library.allAlbums().map(\.title) == (0..<200).map { "Title \($0)" })
        #expect(throws: AlbumError.self) { try library.albums.append(AlbumDraft(title: "X", artist: "Y", externalID: "e:4")) }
        #expect(try library.importText("title,artist\ntitle 7,ARTIST\n").skippedDuplicates == 1)
    }

    @Test func repeatsInAFileIntoAnEmptyLibraryUpdateTheFirstRowAndUndoAsOne() throws {
        let library = try Library.open(at: url)
        let summary = try library.importText(
            "title,artist,genre,year\nLow,David Bowie,,1977\nHeroes,David Bowie,Rock,\nLOW,david bowie,Rock,\n",
            options: ImportOptions(onConflict: .update))
        #expect(summary.inserted == 2 && summary.updated == 1)
        let albums = try library.allAlbums()
        #expect(albums.map(\.draft) == [AlbumDraft(title: "LOW", artist: "david bowie", genre: "Rock", year: 1977),
                                         AlbumDraft(title: "Heroes", artist: "David Bowie", genre: "Rock")])
        #expect(albums.map(\.id) == [1, 2])
        let after = try library.rows(of: "albums")
        try Library.open(at: url).undo()
        #expect(try library.allAlbums().isEmpty)
        try Library.open(at: url).redo()
        #expect(try library.rows(of: "albums") == after)
    }

    @Test func aRepeatUnderFailIntoAnEmptyLibraryRefusesTheImport() throws {
        let library = try Library.open(at: url)
        let before = try fileBytes(url)
        #expect {
            try library.importText("title,artist\nLow,David Bowie\nHeroes,David Bowie\nlow ,David Bowie\n",
                                   options: ImportOptions(onConflict: .fail))
        } throws: { error in
            guard case ImportError.conflict(let rejection, nil) = error else { return false }
            return rejection.line == 4
        }
        #expect(try fileBytes(url) == before)
    }

    @Test(arguments: [ImportOptions.ConflictPolicy.skip, .update])
    func repeatsWithinAFileGoTheSameWayIntoAnEmptyLibraryAsIntoAnother(policy: ImportOptions.ConflictPolicy) throws {
        // Into an empty library repeats are settled after the pass; into another, row by row.
        let csv = """
            title,artist,year,genre,external_id
            A,X,1977,,
            a,x,,Rock,
            A,X,1980,,
            B,Y,,,
            b,y,,Pop,id:1
            C,Z,,,id:1
            A,X,1980,Jazz,
            D,W,,,id:2
            E,V,,,id:2

            """
        let empty = try Library.open(at: directory.file("empty.sqlite"))
        let other = try Library.open(at: directory.file("other.sqlite"))
        try other.albums.append(AlbumDraft(title: "Unrelated", artist: "Someone"))
        let options = ImportOptions(onConflict: policy)
        let first = try empty.importText(csv, options: options)
        let second = try other.importText(csv, options: options)
        #expect(first == second)
        let drafts = try empty.allAlbums().map(\.draft)
        #expect(drafts == Array(try other.allAlbums().map(\.draft).dropFirst()))
        // A non-empty library that the file is taken to outgrow: its keys are loaded, the
        // indexes set aside, and repeats settled at the end, as into an empty one.
        let outgrown = try Library.open(at: directory.file("outgrown.sqlite"))
        try outgrown.albums.append(AlbumDraft(title: "Unrelated", artist: "Someone"))
        var aside = options
        aside.indexesAsideFromRows = 0
        #expect(try outgrown.importText(csv, options: aside) == second)
        #expect(try outgrown.allAlbums().map(\.draft) == other.allAlbums().map(\.draft))
        #expect(try outgrown.check().isEmpty)
        #expect(drafts.map(\.title) == (policy == .skip ? ["A", "A", "B", "C", "D"] : ["a", "A", "C", "E"]))
        #expect(try empty.check().isEmpty)
        #expect(try empty.changeFeedIDs() == RowIDs(try empty.allAlbums().map(\.id)))
    }

    @Test(arguments: [ImportOptions.ConflictPolicy.skip, .update])
    func aLargeImportIntoASmallLibraryFindsItsAlbumsWithTheIndexesAside(policy: ImportOptions.ConflictPolicy) throws {
        let csv = """
            title,artist,year,genre,external_id
            homogenic,BJORK,,Pop,
            New,One,,,
            Something,Else,,Rock,discogs:1
            HOMOGENIC,björk,1997,Jazz,
            Homogenic,Björk,2017,,

            """
        func run(aside: Bool) throws -> (ImportSummary, [[SQLiteValue]], [[SQLiteValue]]) {
            let url = directory.file("\(aside)-\(policy).sqlite")
            let library = try Library.open(at: url)
            try library.albums.append(AlbumDraft(title: "Homogenic", artist: "Björk", genre: "Electronic", year: 1997))
            try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie", year: 1977, externalID: "discogs:1"))
            let before = try library.rows(of: "albums")
            var options = ImportOptions(onConflict: policy)
            options.indexesAsideFromRows = aside ? 0 : .max
            let summary = try library.importText(csv, options: options)
            #expect(try library.check().isEmpty)
            let after = try library.rows(of: "albums").map { Array($0.prefix(7)) }
            try Library.open(at: url).undo()
            #expect(try library.rows(of: "albums") == before)
            return (summary, after, before)
        }
        let (live, liveRows, _) = try run(aside: false)
        let (aside, asideRows, _) = try run(aside: true)
        #expect(aside == live)
        #expect(asideRows == liveRows)
        #expect(live.inserted == 2 && live.skippedDuplicates + live.updated == 3)
        #expect(live.duplicatesWithinFile == (policy == .skip ? 1 : 0))
    }

    /// The key filter only says when to look: saturated (one 32-byte block, so it says "maybe"
    /// to every key), every path gives the same summary, the same rows and the same counts of
    /// repeats within the file as with its full size.
    @Test(arguments: [ImportOptions.ConflictPolicy.skip, .update])
    func aSaturatedKeyFilterChangesNoAnswer(policy: ImportOptions.ConflictPolicy) throws {
        var csv = """
            title,artist,year,genre,external_id
            Same,X,1990,,
            Same,X,2000,,
            New,One,,,
            new,ONE,,Rock,
            Low (Remastered),Bowie,,,discogs:1
            Other,Bowie,,,discogs:1
            Fresh,Band,2001,,x:9
            Renamed,Someone,,,x:9
            Fresh,Band,1980,,
            Fresh,Band,2001,Jazz,
            Heroes,David Bowie,,,
            HEROES,david bowie,1977,,

            """
        for number in 0..<300 { csv += "Unique \(number),Artist \(number % 7),\(1950 + number % 70),,\(number % 3 == 0 ? "u:\(number)" : "")\n" }
        csv += "Unique 5,ARTIST 5,,,\nUnique 6,Artist 6,,,u:6\nNew,One,,,\n"
        enum Path: CaseIterable { case empty, live, aside }
        func run(_ path: Path, filterBytes: Int?) throws -> (ImportSummary, [[SQLiteValue]]) {
            let url = directory.file("\(path)-\(policy)-\(filterBytes ?? 0).sqlite")
            let library = try Library.open(at: url)
            if path != .empty {
                try library.albums.append(AlbumDraft(title: "Low", artist: "David Bowie", year: 1977, externalID: "discogs:1"))
                try library.albums.append(AlbumDraft(title: "Heroes", artist: "David Bowie"))
                try library.albums.append(AlbumDraft(title: "Same", artist: "X", year: 1990))
                try library.albums.append(AlbumDraft(title: "Same", artist: "X", year: 2000))
                try library.albums.append(AlbumDraft(title: "Fresh", artist: "Band", year: 1980))
            }
            var options = ImportOptions(onConflict: policy)
            options.indexesAsideFromRows = path == .aside ? 0 : .max
            options.keyFilterBytes = filterBytes
            let summary = try library.importText(csv, options: options)
            #expect(try library.check().isEmpty)
            return (summary, try library.rows(of: "albums").map { Array($0.prefix(7)) })
        }
        var summaries: [Path: ImportSummary] = [:]
        for path in Path.allCases {
            let (full, fullRows) = try run(path, filterBytes: nil)
            summaries[path] = full
            let (saturated, saturatedRows) = try run(path, filterBytes: 32)
            #expect(saturated == full, "\(path)")
            #expect(saturatedRows == fullRows, "\(path)")
            #expect(full.inserted + full.updated + full.skippedDuplicates == 315, "\(path)")
        }
        // Row by row against the library. Skip: Same 2000, new/ONE, Other (discogs:1), Renamed
        // (x:9), Fresh 1980, the second Fresh 2001, HEROES and the last three rows come after a
        // row with their key or external id. Update: Renamed takes Fresh 2001's place, so Fresh
        // 1980 still follows a row of its key (gone from the table: the exact sets keep it), and
        // the second Fresh 2001 is new.
        let live = try #require(summaries[.live])
        if policy == .skip {
            #expect(live.inserted == 302 && live.skippedDuplicates == 13 && live.updated == 0 && live.duplicatesWithinFile == 10)
        } else {
            #expect(live.inserted == 303 && live.skippedDuplicates == 5 && live.updated == 7 && live.duplicatesWithinFile == 3)
        }
    }

    @Test func aSecondImportOfTheSameFileAddsNothing() throws {
        let library = try library()
        let csv = "title,artist,year,external_id\nLow,David Bowie,1977,\nA,B,2001,x:1\nA,B,2002,\nC,D,,\n"
        let first = try library.importText(csv)
        let rows = try library.rows(of: "albums")
        let second = try library.importText(csv)
        #expect(first.inserted == 3 && second.inserted == 0 && second.skippedDuplicates == 4)
        #expect(try library.rows(of: "albums") == rows)
        #expect(try library.historyEntries().count == 4)
    }
}

extension Library {
    /// The ids every change set so far says were inserted.
    func changeFeedIDs() throws -> RowIDs {
        var ids: [Int64] = []
        let connection = try Connection(path: path)
        try connection.cachedStatement("SELECT row_id, coalesce(last_row_id, row_id) FROM change_log WHERE operation = 'insert'").forEach { row in
            ids += Array(try row[0, as: Int64.self]...(try row[1, as: Int64.self]))
        }
        return RowIDs(ids)
    }
}
