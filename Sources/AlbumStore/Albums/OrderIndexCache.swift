import Synchronization
internal import AlbumSQLite

/// The order index shared by a library's connections, tagged with the change log cursor of the
/// committed state it describes.
///
/// Any connection, the writer or a reader, gets an index for the snapshot it reads with
/// `index(in:)`: the shared one when the albums have not changed since its cursor, else one
/// built from that snapshot. So readers never wait for the writer, and the writer keeps it
/// current after each commit from the command's changeset (`publish`). A failed or refused
/// command publishes nothing, so the shared index stays valid.
final class OrderIndexCache: Sendable {
    private struct Tagged: Sendable {
        var index: OrderIndex
        var cursor: Int64
    }

    private let shared = Mutex<Tagged?>(nil)
    private let buildCount = Atomic<Int>(0)

    /// How many times an index was built from the database (for tests: a refused command must
    /// not cause one).
    var builds: Int { buildCount.load(ordering: .relaxed) }

    /// An index for the snapshot `connection` reads, whose change-log cursor is `cursor`: the
    /// shared one when it is valid there, else one built from the snapshot. Call it inside a
    /// transaction, before changing anything in it.
    /// - Parameter share: Whether this snapshot may update the shared index (moving its tag on,
    ///   or replacing it with the one built); only a snapshot of committed data may (not a write
    ///   transaction's own changes).
    func index(in connection: Connection, at cursor: Int64, share: Bool) throws -> OrderIndex {
        if let index = try sharedIndex(validAt: cursor, in: connection, moveTag: share) { return index }
        let index = try OrderIndex(building: connection)
        buildCount.add(1, ordering: .relaxed)
        if share { shared.withLock { if ($0?.cursor ?? .min) < cursor { $0 = Tagged(index: index, cursor: cursor) } } }
        return index
    }

    /// The shared index if it describes the committed state at `cursor`: it was made there, or
    /// before it with no change to the albums since (then `moveTag` tags it with `cursor`, so
    /// the next look needs no query).
    func sharedIndex(validAt cursor: Int64, in connection: Connection, moveTag: Bool = false) throws -> OrderIndex? {
        guard let tagged = shared.withLock({ $0 }), tagged.cursor <= cursor else { return nil }
        if tagged.cursor == cursor { return tagged.index }
        let changed = try ChangeLog.hasChanges(
            to: TableDescription.albums.name, after: tagged.cursor, through: cursor, in: connection)
        if changed { return nil }
        if moveTag { shared.withLock { if $0?.cursor == tagged.cursor { $0?.cursor = cursor } } }
        return tagged.index
    }

    /// Makes `index` the shared index, describing the state committed at `cursor`. Only the
    /// writer calls it, after its commit, so it wins over whatever a reader shared.
    func publish(_ index: OrderIndex, at cursor: Int64) {
        shared.withLock { $0 = Tagged(index: index, cursor: cursor) }
    }

    /// Forgets the shared index: the next use builds one.
    func invalidate() {
        shared.withLock { $0 = nil }
    }
}
