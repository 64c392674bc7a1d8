import Testing
@testable import AlbumStore

struct CoverFileNameTests {
    @Test(arguments: [
        ("AC/DC", "Back in Black", "7-ac-dc-back-in-black.jpg"),
        ("Nobody", "../../etc/passwd", "7-nobody-etc-passwd.jpg"),
        ("CON", "PRN", "7-con-prn.jpg"),
        ("Motörhead", "Ace of Spades", "7-motorhead-ace-of-spades.jpg"),
        ("..", "\u{1B}[31m\n/", "7-31m.jpg"),
        ("..", "/\n.", "7.jpg"),
    ])
    func namesAreSafeSlugsAfterTheAlbumID(artist: String, title: String, expected: String) {
        #expect(CoverFileName.make(albumID: 7, artist: artist, title: title, format: .jpeg) == expected)
    }

    @Test func aLongTitleIsCutAndNeverEndsInAHyphen() {
        let name = CoverFileName.make(albumID: 1, artist: "A", title: String(repeating: "ab ", count: 100), format: .png)
        #expect(name.count <= 2 + CoverFileName.maxSlugLength + 4)
        #expect(!name.contains("-."))
        #expect(!name.contains("/"))
    }
}
