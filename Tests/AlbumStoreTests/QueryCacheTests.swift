import Testing
@testable import AlbumStore

/// The library's cache of query SQL: a query's values are part of its key, and a full cache
/// starts over without changing any answer.
struct QueryCacheTests {
    @Test func cachedQueriesKeepTheirOwnValuesPastTheCapacity() throws {
        let library = try Library.inMemory()
        try library.albums.append(contentsOf: (0..<100).map { AlbumDraft(title: "Title \($0)", artist: "Artist", year: 1900 + $0) })
        for round in 0..<2 {
            for year in 1900..<(1900 + QueryCache.capacity + 10) {
                let albums = try library.albums.albums(matching: AlbumQuery([.init(.range(.year, from: year, through: year))]))
                #expect(albums.map(\.title) == ["Title \(year - 1900)"], "round \(round)")
            }
        }
        #expect(try library.albums.count(matching: AlbumQuery(parsing: "year:1990..")) == 10)
        #expect(try library.albums.count(matching: AlbumQuery(parsing: "year:1995..")) == 5)
    }

    @Test func theSameQueryInAnotherOrderIsAnotherEntry() throws {
        let cache = QueryCache()
        let query = try AlbumQuery(parsing: "bowie")
        let listed = try cache.select(query, sort: .listOrder)
        let sorted = try cache.select(query, sort: AlbumSort(parsing: "year:desc"))
        #expect(listed.sql != sorted.sql)
        #expect(try cache.select(query, sort: .listOrder).sql == listed.sql)
        #expect(throws: QueryError.self) { try cache.select(AlbumQuery([.init(.contains(.year, "1"))]), sort: .listOrder) }
    }
}
