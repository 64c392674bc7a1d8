-- The change-log triggers are no longer written here: they are derived from the table
-- descriptions (Sources/AlbumStore/Schema/TableDescription.swift, ChangeLogTriggers.swift) each
-- time a library is opened, which creates missing ones, replaces outdated or edited ones and
-- drops those of tables no longer observed. An observed table needs one migration for the table
-- and one description, and no trigger SQL of its own. The .sql files stay the single source of
-- truth for tables and indexes.
--
-- This drops the hand-written triggers of 0003 (IF EXISTS: someone may have dropped one in the
-- sqlite3 shell). The library installs their generated equivalents, under the same names, in
-- the transaction of the last migration it applies, so no change goes unlogged in between.
DROP TRIGGER IF EXISTS albums_log_insert;
DROP TRIGGER IF EXISTS albums_log_update;
DROP TRIGGER IF EXISTS albums_log_delete;
