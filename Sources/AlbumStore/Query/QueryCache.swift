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
    private let entries = Mutex<[Key: QuerySQL.Select]>([:])

    /// The select of `query` in `sort` order, built once.
    func select(_ query: AlbumQuery, sort: AlbumSort) throws(QueryError) -> QuerySQL.Select {
        let key = Key(query: query, sort: sort)
        if let select = entries.withLock({ $0[key] }) { return select }
        let sql = try QuerySQL(query)
        let select = QuerySQL.Select(
            sql: "SELECT \(Album.columns) FROM albums \(sql.whereClause) \(QuerySQL.orderClause(sort, for: query)) LIMIT ? OFFSET ?",
            arguments: sql.arguments)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = select
        }
        return select
    }
}
