import AlbumStore
import ArgumentParser
import FoundationEssentials

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every field of one album.",
        discussion: """
            Example: albumstore show 42 --format json

            \(TableLayout.help)
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "The album's id.") var id: Int64
    @OptionGroup var output: FormatOptions

    /// What the line asks, as plain values.
    var request: ShowRequest {
        ShowRequest(db: store.db, verbose: store.verbose, id: id, format: output.format, wide: output.wide)
    }

    func run() throws { try request.run() }
}
