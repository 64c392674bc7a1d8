-- Session state: what an app keeps between launches (the album the user was looking at, the
-- order of the tabs, small values of its own) and named snapshots of it.
--
-- One row per item, so that a change set names exactly the items that changed. Values are
-- JSON text, written by the library (`Session/`), which reports a value another program made
-- unreadable instead of trusting it. The change log observes all three tables (see
-- `TableDescription`); saving state is navigation and takes no undo step, but restoring a
-- snapshot is a command, recorded over the first two tables.

-- The built-in items, under fixed ids an observer can rely on:
-- 1 'current_album' {"index": N, "album_id": ID}, 2 'tab_order' and 3 'default_tab_order'
-- (arrays of tab identifiers). A missing row means nothing is saved.
CREATE TABLE session_state (
    id    INTEGER PRIMARY KEY,
    item  TEXT NOT NULL UNIQUE,
    value TEXT NOT NULL
);

-- An app's own values under string keys. Saving a key again updates its row in place, so a
-- key keeps its id while it exists.
CREATE TABLE session_keys (
    id    INTEGER PRIMARY KEY,
    key   TEXT NOT NULL UNIQUE,
    value TEXT NOT NULL
);

-- Snapshots (mementos): a name, when it was taken (milliseconds since 1970-01-01 UTC) and the
-- whole state as the snapshot file format's "state" object.
CREATE TABLE session_snapshots (
    id       INTEGER PRIMARY KEY,
    name     TEXT    NOT NULL UNIQUE,
    taken_at INTEGER NOT NULL,
    state    TEXT    NOT NULL
);
