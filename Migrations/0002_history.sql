-- Undo history: one row per command made through the Library, newest last.
--
-- `changeset` is the command's changes as recorded by SQLite's session extension; undo applies
-- its inverse, redo applies it again. Rows with `undone = 1` form the redo stack; a new command
-- deletes them. The Library keeps at most its history limit of rows.
CREATE TABLE history (
    id          INTEGER PRIMARY KEY,
    description TEXT    NOT NULL,
    changeset   BLOB    NOT NULL,
    -- For a bulk append (an import): the ids it added, as "first-last,first-last". Its changeset
    -- stays empty until it is first undone, when the deletion is recorded: an import never pays
    -- for a copy of itself unless someone takes it back.
    appended_ids TEXT,
    -- Milliseconds since 1970-01-01 UTC.
    created_at  INTEGER NOT NULL,
    undone      INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1))
);
