/// The schema's migrations, in the order they apply: each `NNNN_name.sql` file of this folder
/// with its bytes, which SwiftPM embeds in the code (`.embedInCode` in Package.swift), so that a
/// copied binary, with no bundle beside it, still creates and migrates a database.
///
/// A new migration is listed here and in Package.swift; EmbeddedMigrationsTests fails while a
/// file of this folder is missing from this list.
public enum MigrationFiles {
    /// The file names without `.sql`, e.g. `0001_albums`, and the files' bytes (SwiftPM names
    /// each `PackageResources` member after its file, a leading digit made an underscore).
    public static let all: [(name: String, sql: [UInt8])] = [
        ("0001_albums", PackageResources._001_albums_sql),
        ("0002_history", PackageResources._002_history_sql),
        ("0003_change_log", PackageResources._003_change_log_sql),
        ("0004_generated_triggers", PackageResources._004_generated_triggers_sql),
        ("0005_match_key", PackageResources._005_match_key_sql),
        ("0006_order_statistics", PackageResources._006_order_statistics_sql),
        ("0007_album_search", PackageResources._007_album_search_sql),
        ("0008_session_state", PackageResources._008_session_state_sql),
        ("0009_covers", PackageResources._009_covers_sql),
        ("0010_command_costs", PackageResources._010_command_costs_sql),
        ("0011_change_log_check", PackageResources._011_change_log_check_sql),
        ("0012_album_id_floor", PackageResources._012_album_id_floor_sql),
        ("0013_music_folders", PackageResources._013_music_folders_sql),
    ]
}
