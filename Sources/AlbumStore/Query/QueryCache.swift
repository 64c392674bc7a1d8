import Synchronization
internal import AlbumSQLite

/// The SQL of queries a library ran lately, by query and sort: an app asking the same query again
/// (a search field, a filtered view refreshed after each change) skips building it, which costs
/// about as much as running a small query. At most `capacity` entries; when full it starts over.
final class QueryCache: Sendable {
    struct Key: Hashable, Sendable {
        var query: AlbumQuery
        var sort: AlbumSort
    }

    static let capacity = 64
    private let entries = Mutex(Entries())

    /// The select of `query` in `sort` order, built once.
    func select(_ query: AlbumQuery, sort: AlbumSort) throws(QueryError) -> QuerySQL.Select {
        let key = Key(query: query, sort: sort)
        if let select = entries.withLock({ $0[key] }) { return select }
        let sql = try QuerySQL(query)
        let select = QuerySQL.Select(whereClause: sql.whereClause, orderClause: QuerySQL.orderClause(sort, for: query), arguments: sql.arguments)
        entries.withLock { $0.add(select, for: key) }
        return select
    }

    /// The last select built, then the ones before it. The dictionary is made only for a second
    /// query: a command runs one, and a first `[Key: Select]` costs the Swift runtime a scan of
    /// the binary's conformances.
    private struct Entries {
        var last: (key: Key, select: QuerySQL.Select)?
        var earlier: [Key: QuerySQL.Select] = [:]

        subscript(key: Key) -> QuerySQL.Select? {
            if let last, last.key == key { return last.select }
            return earlier.isEmpty ? nil : earlier[key]
        }

        mutating func add(_ select: QuerySQL.Select, for key: Key) {
            if let last {
                if earlier.count >= QueryCache.capacity - 1 { earlier.removeAll(keepingCapacity: true) }
                earlier[last.key] = last.select
            }
            last = (key, select)
        }
    }
}
