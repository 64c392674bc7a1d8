import AlbumStore
import Foundation
import AlbumSQLite

extension AlbumDraft {
    /// The five albums of the classic album app, in its order.
    static let classics: [AlbumDraft] = [
        AlbumDraft(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992),
        AlbumDraft(title: "It's My Life", artist: "No Doubt", genre: "Pop", year: 2003),
        AlbumDraft(title: "Nothing Like The Sun", artist: "Sting", genre: "Pop", year: 1999),
        AlbumDraft(title: "Staring at the Sea", artist: "The Cure", genre: "Pop", year: 1986),
        AlbumDraft(title: "American Pie", artist: "Madonna", genre: "Pop", year: 2000),
    ]

    static func sample(_ title: String, artist: String = "Artist") -> AlbumDraft {
        AlbumDraft(title: title, artist: artist)
    }
}

extension Library {
    /// The titles in list order.
    func titles() throws -> [String] { try albums.page().map(\.album.title) }

    /// Every column of every row of `table`, for before/after comparisons.
    func rows(of table: String) throws -> [[SQLiteValue]] {
        let connection = try Connection(path: path)
        return try connection.query("SELECT * FROM \(table) ORDER BY rowid") { $0.values }
    }
}
