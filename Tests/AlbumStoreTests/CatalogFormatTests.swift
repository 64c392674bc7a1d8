import Testing
@testable import AlbumStore

/// Which reader a file gets: by its extension first, else by its first bytes.
struct CatalogFormatTests {
    static let discogsHeader = "Catalog#,Artist,Title,Label,Format,Rating,Released,release_id,CollectionFolder,Date Added,"
        + "Collection Media Condition,Collection Sleeve Condition,Collection Notes\n"

    private func detect(_ name: String?, _ head: String) -> CatalogFormat {
        CatalogFormat.detect(fileName: name, head: Array(head.utf8))
    }

    @Test func theExtensionDecidesFirst() {
        #expect(detect("albums.csv", "{\"a\":1}") == .csv)
        #expect(detect("ALBUMS.CSV", "") == .csv)
        #expect(detect("albums.tsv", "a,b") == .tsv)
        #expect(detect("albums.tab", "") == .tsv)
        #expect(detect("albums.json", "{\"a\":1}\n{\"a\":2}\n") == .json)
        #expect(detect("albums.ndjson", "[") == .ndjson)
        #expect(detect("albums.jsonl", "") == .ndjson)
        #expect(detect("/Music/Library.xml", "") == .libraryXML)
        #expect(detect("collection.csv", Self.discogsHeader) == .discogs)
    }

    @Test func withoutAKnownExtensionTheContentDecides() {
        #expect(detect(nil, "<?xml version=\"1.0\"?>\n<plist>") == .libraryXML)
        #expect(detect("-", "<plist version=\"1.0\">") == .libraryXML)
        #expect(detect(nil, "  \n[{\"title\":\"Low\"}]") == .json)
        #expect(detect(nil, "{\"title\":\"Low\"}\n{\"title\":\"Heroes\"}\n") == .ndjson)
        #expect(detect(nil, "{\"title\":\"Low\"}\n") == .json)
        #expect(detect(nil, "{\n  \"albums\": []\n}\n") == .json)
        #expect(detect(nil, "title\tartist\nLow\tBowie\n") == .tsv)
        #expect(detect(nil, "title\tartist,x\n") == .csv)
        #expect(detect(nil, Self.discogsHeader + "OTO 2,Au Pairs,You\n") == .discogs)
        #expect(detect("albums.txt", "title,artist\n") == .csv)
        #expect(detect(nil, "") == .csv)
    }

    @Test func namesAreTheCLIs() {
        #expect(CatalogFormat.allCases.map(\.rawValue) == ["csv", "tsv", "json", "ndjson", "discogs", "library-xml"])
    }
}
