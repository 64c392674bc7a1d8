import Foundation
import Testing
@testable import AlbumStore

extension Library {
    /// Imports `text` as a file named `name` (whose extension gives the format).
    @discardableResult
    func importText(_ text: String, name: String = "albums.csv", options: ImportOptions = ImportOptions()) throws -> ImportSummary {
        try importAlbums(from: .data(Data(text.utf8), name: name), options: options)
    }

    /// Every album in list order.
    func allAlbums() throws -> [Album] { try albums.page().map(\.album) }
}

extension ImportOptions {
    static func with(_ change: (inout ImportOptions) -> Void) -> ImportOptions {
        var options = ImportOptions()
        change(&options)
        return options
    }
}

/// The bytes of a library's files, to show that nothing was written.
func fileBytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }
