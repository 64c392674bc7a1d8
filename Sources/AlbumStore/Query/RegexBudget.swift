import Synchronization

/// How long the regular expressions (`field::pattern`) of one query may take, over all the
/// values they match together: `limit`, ten seconds.
///
/// The C library's matcher cannot be stopped in the middle of a match, so the budget is checked
/// before each value is matched, and a query past it fails with `QueryError` naming the pattern.
/// A pattern that could make a single match slow is refused before the query runs instead
/// (`RegexShape`: back-references, counted repetitions of many copies).
final class RegexBudget: Sendable {
    /// Ten times what a simple pattern takes over a million albums (about 1 s in a release
    /// build), so that only a pattern slow on every value reaches it. Task-local so that a test
    /// can shorten it.
    @TaskLocal static var limit: Duration = .seconds(10)
    /// The budget of the query running on this thread, which the `regexp` SQL function spends.
    @TaskLocal static var current: RegexBudget?

    let limit: Duration
    private let deadline: ContinuousClock.Instant
    /// The pattern that was about to run when the time was up.
    private let exceeded = Mutex<String?>(nil)

    private init(limit: Duration) {
        self.limit = limit
        deadline = .now + limit
    }

    /// Throws once the time is up, remembering `pattern` for the query's error.
    func spend(on pattern: String) throws(TimeUp) {
        guard ContinuousClock.now >= deadline else { return }
        exceeded.withLock { $0 = $0 ?? pattern }
        throw TimeUp()
    }

    /// The `regexp` function's error; the query reports it as a `QueryError`.
    struct TimeUp: Error, CustomStringConvertible {
        var description: String { "the regular expression's time limit is up" }
    }

    /// Runs `body`, which runs the statement of `query`, under a budget of `limit` when the query
    /// has a regular expression (read `limit` on the caller's task: `body` may run on another thread).
    /// - Throws: `QueryError` when the budget runs out, naming the field and pattern.
    static func run<T>(_ query: AlbumQuery, limit: Duration, _ body: () throws -> T) throws -> T {
        guard query.hasRegex else { return try body() }
        let budget = RegexBudget(limit: limit)
        do {
            return try $current.withValue(budget) { try body() }
        } catch {
            guard let pattern = budget.exceeded.withLock({ $0 }) else { throw error }
            let field = query.alternatives.joined().lazy.compactMap { term -> AlbumField? in
                guard case .regex(let field, pattern) = term.condition else { return nil }
                return field
            }.first
            throw QueryError(
                "the regular expression \(field.map { "\($0.name)::" } ?? "")\(pattern) took longer than "
                    + "\(StorageError.format(limit)) over the albums; simplify it or narrow the query")
        }
    }
}

extension AlbumQuery {
    /// Whether a term matches a regular expression.
    var hasRegex: Bool {
        alternatives.contains { terms in
            terms.contains { term in
                if case .regex = term.condition { return true }
                return false
            }
        }
    }
}
