@testable import AlbumStore
import FoundationEssentials
import FuzzDriver

/// The albums the queries run over: a library in memory, made once for the whole run, with
/// text that gives patterns and phrases something to match.
private let library: Library = {
    do {
        let library = try Library.inMemory()
        let words = ["Low", "Heroes", "Björk", "Sigur Rós", "AC/DC", "The The", "…And Justice for All",
                     "\"Heroes\"", "O'Connor", "100% Pure", "a*b?c", "日本語", "e\u{301}", "\\back\\slash",
                     String(repeating: "aaaaaaaaaa", count: 20), ""]
        for (index, word) in words.enumerated() {
            _ = try library.albums.append(AlbumDraft(
                title: word.isEmpty ? "Untitled" : word, artist: words[(index + 3) % words.count] + " \(index)",
                genre: index % 3 == 0 ? nil : words[(index + 5) % words.count], year: index % 4 == 0 ? nil : 1960 + index * 3,
                coverURL: index % 2 == 0 ? nil : "https://example.com/\(index).jpg", externalID: index % 5 == 0 ? "r\(index)" : nil))
        }
        return library
    } catch {
        fatalError("cannot set up the query target's library: \(error)")
    }
}()

/// One input: the input is a query, its first line as typed (`AlbumQuery(parsing:)`)
/// and each line as a shell argument (`parsingArguments:`); text after a NUL byte is a value
/// its regular expressions are also matched against directly.
///
/// A query that parses must run over the library or fail with `QueryError`: an SQLite error
/// (an FTS5 syntax error, say) is a finding. Its regular expressions run under a one-second
/// budget here, so a query that goes on past scripts/fuzz's per-input timeout is a single match
/// that cannot be stopped: a pattern `RegexShape` should have refused.
@c(LLVMFuzzerTestOneInput)
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let text = String(decoding: bytes[..<end], as: UTF8.self)
    let subject = end < bytes.endIndex ? String(decoding: bytes[(end + 1)...], as: UTF8.self) : nil
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let sort = lines.count > 1 ? try? AlbumSort(parsing: lines[1]) : nil
    for query in [try? AlbumQuery(parsing: lines.first ?? ""), try? AlbumQuery(parsingArguments: lines)] {
        guard let query else { continue }
        run(query, sort: sort ?? .listOrder)
        if let subject { match(query, against: subject) }
    }
    return 0
}

private func run(_ query: AlbumQuery, sort: AlbumSort) {
    do {
        try RegexBudget.$limit.withValue(.seconds(1)) {
            _ = try library.albums.albums(matching: query, sortedBy: sort, limit: 3)
            _ = try library.albums.count(matching: query)
        }
    } catch is QueryError {
        // A condition on a field it does not apply to, or the time limit: said to the user.
    } catch {
        fatalError("a parsed query failed with \(type(of: error)), not a QueryError: \(error)\nquery: \(query)")
    }
}

/// Compiles each regular expression the parser accepted and matches it once against `subject`.
private func match(_ query: AlbumQuery, against subject: String) {
    for term in query.alternatives.joined() {
        guard case .regex(_, let pattern) = term.condition else { continue }
        do {
            _ = try POSIXRegex(pattern).matches(subject)
        } catch {
            fatalError("the parser accepted a pattern that does not compile: \(pattern): \(error)")
        }
    }
}

@main
enum Main {
    static func main() { runFuzzer(fuzz) }
}
