import FoundationEssentials
internal import AlbumSQLite

/// Removes the images nothing can show again: no album's cover, and no history entry that
/// undo or redo could bring back.
///
/// History entries keep a cover as its hash in the `covers` rows of their changesets, so the
/// hashes they need are read from those changesets, old and new values alike (an undo puts the
/// old value back, a redo the new one).
struct CoverGarbageCollector {
    let connection: Connection

    func collect() throws -> CoverGarbageReport {
        var needed = Set<Data>()
        let changesets = try connection.query("SELECT changeset FROM history") { Changeset(data: try $0[0]) }
        for changeset in changesets {
            // A history entry another program made unreadable cannot bring anything back.
            guard ChangesetFormat.problem(in: changeset.data) == nil else { continue }
            try changeset.forEach { change in
                guard change.table == TableDescription.covers.name else { return }
                for case let .blob(hash)? in [change.old(1), change.new(1)] { needed.insert(hash) }
            }
        }
        let candidates = try connection.query("""
            SELECT id, sha256, byte_count FROM cover_images i
            WHERE NOT EXISTS (SELECT 1 FROM covers c WHERE c.sha256 = i.sha256)
            """) { (id: try $0[0] as Int64, hash: try $0[1] as Data, bytes: try $0[2] as Int) }
        var removed = 0
        var freed = 0
        for candidate in candidates where !needed.contains(candidate.hash) {
            try connection.run("DELETE FROM cover_images WHERE id = ?", candidate.id)
            removed += 1
            freed += max(0, candidate.bytes)
        }
        return CoverGarbageReport(imagesRemoved: removed, bytesFreed: freed)
    }
}
