internal import AlbumSQLite

/// The command of the `Library.write(_:)` under way, for the library calls its body makes.
///
/// Those calls run on the thread that holds the writer: they join the open command (a
/// savepoint of its transaction) instead of waiting for the writer they hold, and their reads
/// go to its connection, so they see its writes. Any other thread never sees the command: it
/// does not hold the writer.
///
/// `@unchecked Sendable` is sound because `command` is set, read and cleared only by the thread
/// holding the database's writer (`command(for:)` checks that first).
final class OpenTransaction: @unchecked Sendable {
    private var command: Command?

    /// The open command, when the calling thread is the one running it.
    func command(for database: Database) -> Command? {
        database.isWriterHeldByCurrentThread ? command : nil
    }

    /// Called with the writer held.
    func begin(_ command: Command) { self.command = command }

    /// Called with the writer held.
    func end() { command = nil }
}
