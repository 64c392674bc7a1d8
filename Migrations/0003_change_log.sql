-- The change log: every committed change to the observed tables, for other processes
-- (ChangeFeed, `albumstore watch`) and for in-process subscribers alike.
--
-- Triggers write it, so a change made by any connection, even the sqlite3 shell, is logged in
-- the same transaction as the change itself: a rollback takes its log rows with it.
-- `seq` never goes back, so it serves as a resumable cursor: pruning always keeps the newest
-- entry, so a new entry's rowid (the largest plus one) is never reused. (AUTOINCREMENT would say
-- the same at the price of an extra page written per commit.)

-- One row: the current transaction number, a switch for bulk inserts, and how far the log
-- has been pruned (a cursor below it has missed entries).
CREATE TABLE change_control (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    -- Bumped by the Library at the start of each write transaction. Writers outside the Library
    -- do not bump it: their changes are logged under the last number, in their own entries.
    tx             INTEGER NOT NULL DEFAULT 0,
    -- Set to 1, inside one transaction only, by bulk inserts and deletes that log their rows as
    -- range entries instead of one entry a row; always back to 0 before that transaction commits.
    bulk           INTEGER NOT NULL DEFAULT 0,
    pruned_through INTEGER NOT NULL DEFAULT 0
);
INSERT INTO change_control (id) VALUES (1);

CREATE TABLE change_log (
    seq         INTEGER PRIMARY KEY,
    tx          INTEGER NOT NULL,
    table_name  TEXT    NOT NULL,
    operation   TEXT    NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
    row_id      INTEGER NOT NULL,
    -- Set for a range entry: rows row_id...last_row_id.
    last_row_id INTEGER,
    -- Milliseconds since 1970-01-01 UTC.
    at          INTEGER NOT NULL
);

CREATE TRIGGER albums_log_insert AFTER INSERT ON albums WHEN (SELECT bulk FROM change_control) = 0
BEGIN
    INSERT INTO change_log (tx, table_name, operation, row_id, at)
    VALUES ((SELECT tx FROM change_control), 'albums', 'insert', NEW.id,
            CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;

CREATE TRIGGER albums_log_update AFTER UPDATE ON albums
BEGIN
    INSERT INTO change_log (tx, table_name, operation, row_id, at)
    VALUES ((SELECT tx FROM change_control), 'albums', 'update', NEW.id,
            CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;

-- With triggers on the table, SQLite never takes the truncate shortcut that would skip this
-- for `DELETE FROM albums`; rows deleted by REPLACE fire it when recursive_triggers is on
-- (every AlbumStore connection turns it on).
CREATE TRIGGER albums_log_delete AFTER DELETE ON albums WHEN (SELECT bulk FROM change_control) = 0
BEGIN
    INSERT INTO change_log (tx, table_name, operation, row_id, at)
    VALUES ((SELECT tx FROM change_control), 'albums', 'delete', OLD.id,
            CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
