import Testing
@testable import AlbumStore

/// The query language parsed into `AlbumQuery`, and where its errors point.
struct QueryParserTests {
    typealias Term = AlbumQuery.Term

    func parse(_ text: String) throws -> AlbumQuery { try AlbumQuery(parsing: text) }

    /// The error `text` gives, as (offset, length, token).
    func failure(_ text: String) -> QueryError? {
        do {
            _ = try AlbumQuery(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func eachOperatorParsesToItsCondition() throws {
        #expect(try parse("bowie") == AlbumQuery([Term(.text("bowie"))]))
        #expect(try parse("bow*") == AlbumQuery([Term(.text("bow", prefix: true))]))
        #expect(try parse("\"low fi\"") == AlbumQuery([Term(.text("low fi"))]))
        #expect(try parse("artist:bowie") == AlbumQuery([Term(.contains(.artist, "bowie"))]))
        #expect(try parse("artist:=Low") == AlbumQuery([Term(.equals(.artist, "Low"))]))
        #expect(try parse("title::^L.w$") == AlbumQuery([Term(.regex(.title, "^L.w$"))]))
        #expect(try parse("genre:") == AlbumQuery([Term(.missing(.genre))]))
        #expect(try parse("year:1994") == AlbumQuery([Term(.range(.year, from: 1994, through: 1994))]))
        #expect(try parse("year:=1994") == AlbumQuery([Term(.range(.year, from: 1994, through: 1994))]))
        #expect(try parse("year:1990..1999") == AlbumQuery([Term(.range(.year, from: 1990, through: 1999))]))
        #expect(try parse("year:..1980") == AlbumQuery([Term(.range(.year, from: nil, through: 1980))]))
        #expect(try parse("year:2000..") == AlbumQuery([Term(.range(.year, from: 2000, through: nil))]))
        #expect(try parse("id:3") == AlbumQuery([Term(.range(.id, from: 3, through: 3))]))
    }

    @Test func fieldNamesAcceptTheirAliases() throws {
        #expect(try parse("album:low url:example") == AlbumQuery([Term(.contains(.title, "low")), Term(.contains(.coverURL, "example"))]))
        #expect(try parse("Cover-URL:x") == AlbumQuery([Term(.contains(.coverURL, "x"))]))
    }

    @Test func negationTermsAndAlternatives() throws {
        #expect(try parse("^genre:jazz -bowie") == AlbumQuery([Term(.contains(.genre, "jazz"), negated: true),
                                                              Term(.text("bowie"), negated: true)]))
        #expect(try parse("genre:jazz year:1959 OR genre:rock , bowie") == AlbumQuery(anyOf: [
            [Term(.contains(.genre, "jazz")), Term(.range(.year, from: 1959, through: 1959))],
            [Term(.contains(.genre, "rock"))],
            [Term(.text("bowie"))],
        ]))
        #expect(try parse("") == .all)
        #expect(try AlbumQuery(parsingArguments: []) == .all)
    }

    @Test func andJoinsAsASpaceAndNotNegatesAsACaret() throws {
        #expect(try parse("genre:rock AND year:2006") == parse("genre:rock year:2006"))
        #expect(try parse("NOT genre:rock") == parse("^genre:rock"))
        #expect(try parse("bowie AND NOT year:1977 OR NOT low") == parse("bowie ^year:1977 OR ^low"))
        #expect(try AlbumQuery(parsingArguments: ["genre:rock", "AND", "NOT", "year:2006"]) == parse("genre:rock ^year:2006"))
        // In lower case they are words.
        #expect(try parse("and not") == AlbumQuery([Term(.text("and")), Term(.text("not"))]))
        #expect(try #require(failure("AND bowie")).located?.token == "AND")
        #expect(try #require(failure("bowie AND")).reason == "AND has no terms after it")
        #expect(try #require(failure("bowie AND OR low")).located?.token == "OR")
        #expect(try #require(failure("bowie NOT")).reason == "NOT negates nothing: put a term right after it")
        #expect(try #require(failure("NOT OR bowie")).located?.token == "NOT")
        #expect(try #require(failure("NOT ^bowie")).reason.contains("negate twice"))
    }

    @Test func escapesAndQuotesKeepSpecialCharactersAsText() throws {
        #expect(try parse(#"title:AC\:DC"#) == AlbumQuery([Term(.contains(.title, "AC:DC"))]))
        #expect(try parse(#"title:"AC:DC live""#) == AlbumQuery([Term(.contains(.title, "AC:DC live"))]))
        #expect(try parse(#"artist:"david bowie""#) == AlbumQuery([Term(.contains(.artist, "david bowie"))]))
        #expect(try parse(#"\^caret"#) == AlbumQuery([Term(.text("^caret"))]))
        #expect(try parse(#"star\*"#) == AlbumQuery([Term(.text("star*"))]))
        #expect(try parse(#"\OR"#) == AlbumQuery([Term(.text(#"\OR"#))]))
        #expect(try parse(#"back\slash"#) == AlbumQuery([Term(.text(#"back\slash"#))]))
        #expect(try parse(#"say\"hi"#) == AlbumQuery([Term(.text(#"say"hi"#))]))
        // Shell arguments: a space belongs to its argument, and nothing else is special.
        #expect(try AlbumQuery(parsingArguments: ["artist:david bowie", "free text"])
            == AlbumQuery([Term(.contains(.artist, "david bowie")), Term(.text("free text"))]))
    }

    @Test func errorsPointAtTheOffendingToken() throws {
        let unknown = try #require(failure("year:1977 artst:bowie"))
        #expect(unknown.reason.contains("unknown field \"artst\""))
        #expect(unknown.offset == 10 && unknown.length == 5)
        #expect(unknown.description == """
            unknown field "artst"
            year:1977 artst:bowie
                      ^^^^^
            """)

        let regex = try #require(failure("bowie title::[a-"))
        #expect(regex.reason.hasPrefix("bad regular expression \"[a-\""))
        #expect(regex.located?.token == "[a-")
        let backReference = try #require(failure("title::(a)\\1 bowie"))
        #expect(backReference.reason.hasPrefix("bad regular expression \"(a)\\1\": a back-reference (\\1)"))
        #expect(backReference.located?.token == "(a)\\1")

        let year = try #require(failure("year:19x0"))
        #expect(year.located?.token == "19x0")
        let backwards = try #require(failure("year:1999..1990"))
        #expect(backwards.reason.contains("empty range"))
        #expect(try #require(failure("year:..")).located?.token == "..")
        #expect(try #require(failure("created_at:2020")).located?.token == "created_at")
        #expect(try #require(failure("title::")).reason.contains("needs a regular expression"))
        #expect(try #require(failure("OR bowie")).located?.token == "OR")
        #expect(try #require(failure("bowie ,")).located?.token == ",")
        #expect(try #require(failure("bowie OR OR low")).offset == 9)
        #expect(try #require(failure("^")).located?.token == "^")
        #expect(try #require(failure("*")).located?.token == "*")
        let quote = try #require(failure("artist:\"david bowie"))
        #expect(quote.offset == 7 && quote.reason.contains("never closed"))
    }

    @Test func argumentErrorsPointIntoTheArgumentsAsShown() throws {
        do {
            _ = try AlbumQuery(parsingArguments: ["free text", "colour:red"])
            Issue.record("parsed")
        } catch {
            #expect(error.input == "\"free text\" colour:red")
            #expect(error.located?.token == "colour")
        }
    }

    @Test func quotesInsideAnArgumentGroupAndAnUnclosedOneIsRefused() throws {
        #expect(try AlbumQuery(parsingArguments: [#"artist:"Miles Davis""#]) == AlbumQuery([Term(.contains(.artist, "Miles Davis"))]))
        #expect(try AlbumQuery(parsingArguments: [#"title:"AC:DC""#]) == AlbumQuery([Term(.contains(.title, "AC:DC"))]))
        #expect(try AlbumQuery(parsingArguments: [#"title:12\" Single"#]) == AlbumQuery([Term(.contains(.title, #"12" Single"#))]))
        do {
            _ = try AlbumQuery(parsingArguments: ["year:1977", #"title:"unclosed"#])
            Issue.record("parsed")
        } catch {
            #expect(error.reason == "a quote is opened here and never closed")
            #expect(error.input == #"year:1977 title:"unclosed"#)
            #expect(error.offset == 16)
        }
        do {
            _ = try AlbumQuery(parsingArguments: [#"title:"two words"#])
            Issue.record("parsed")
        } catch {
            // Shown in quotes (it holds a space): the caret is one further.
            #expect(error.input == #""title:"two words""#)
            #expect(error.offset == 7)
        }
    }

    @Test func sortParsesFieldsAndDirections() throws {
        #expect(try AlbumSort(parsing: "year:desc,artist") == AlbumSort([.init(.year, descending: true), .init(.artist)]))
        #expect(try AlbumSort(parsing: "title:ASC") == AlbumSort([.init(.title)]))
        #expect(throws: QueryError.self) { try AlbumSort(parsing: "year:up") }
        do {
            _ = try AlbumSort(parsing: "year,colour")
            Issue.record("parsed")
        } catch {
            #expect(error.located?.token == "colour")
        }
        #expect(throws: QueryError.self) { try AlbumSort(parsing: "index") }
        #expect(throws: QueryError.self) { try AlbumSort(parsing: "year,") }
    }
}
