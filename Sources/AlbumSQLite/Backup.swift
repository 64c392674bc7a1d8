import CSQLite
import FoundationEssentials

extension Connection {
    /// Copies this database, page by page, into `destination` with the online backup API.
    ///
    /// The copy is a consistent snapshot. When another connection writes meanwhile the backup
    /// restarts; `pagesPerStep` of -1 copies everything in one step, which cannot be restarted.
    /// `progress` gets (remaining, total) pages after each step.
    /// Related SQLite documentation: https://sqlite.org/backup.html
    public func backup(
        to destination: Connection,
        pagesPerStep: Int32 = -1,
        progress: ((_ remaining: Int, _ total: Int) -> Void)? = nil
    ) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(code: sqlite3_errcode(destination.handle), connection: destination.handle)
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, pagesPerStep)
            progress?(Int(sqlite3_backup_remaining(backup)), Int(sqlite3_backup_pagecount(backup)))
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { sqlite3_sleep(5) }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        if code != SQLITE_DONE { throw SQLiteError(code: code, connection: destination.handle) }
        try check(finish, destination.handle)
    }

    /// Backs this database up into a new file at `path` (replacing what is there).
    public func backup(toFile path: String) throws(SQLiteError) {
        var options = ConnectionOptions()
        options.journalMode = nil
        let destination = try Connection(path: path, options: options)
        try backup(to: destination)
    }
}
