/// A trigger the library generates from a table description rather than a migration
/// (`ChangeLogTriggers`, `OrderStatisticsTriggers`): its name and the statement that creates it,
/// exactly as SQLite keeps it in `sqlite_schema.sql` (no trailing semicolon), so that the
/// installer can tell an edited or outdated trigger by comparing text.
struct GeneratedTrigger: Sendable, Hashable {
    let name: String
    let sql: String
}
