-- Cover images, content-addressed: each distinct image is stored once, under its SHA-256.
--
-- `cover_images` holds the bytes; `covers` says which image an album shows. Only `covers` is
-- undoable and observed: its rows carry the hash, never the bytes, so a history entry for
-- setting or removing a cover is a few dozen bytes however large the image. `covers gc` removes
-- images that no `covers` row and no history entry points at.
--
-- Layout: the bytes live in their own table, in the last column, so listing or querying albums
-- never reads a page of them, and `sqlite3_blob_open` can stream them in chunks (rowid table,
-- unindexed column). See the README ("Covers") for the measurements behind it.
CREATE TABLE cover_images (
    id         INTEGER PRIMARY KEY,
    -- The SHA-256 of the bytes, 32 bytes.
    sha256     BLOB    NOT NULL UNIQUE CHECK (length(sha256) = 32),
    -- png, jpeg, gif or webp, as sniffed from the header bytes.
    format     TEXT    NOT NULL,
    width      INTEGER NOT NULL,
    height     INTEGER NOT NULL,
    byte_count INTEGER NOT NULL,
    -- Milliseconds since 1970-01-01 UTC.
    created_at INTEGER NOT NULL,
    bytes      BLOB    NOT NULL
);

-- No foreign keys: undo re-inserts rows in changeset order, and an album brought back by undo
-- gets its cover link back in the same changeset. The trigger below keeps a reused album id from
-- inheriting an old cover.
CREATE TABLE covers (
    album_id   INTEGER PRIMARY KEY,
    sha256     BLOB    NOT NULL CHECK (length(sha256) = 32),
    -- Milliseconds since 1970-01-01 UTC.
    set_at     INTEGER NOT NULL
);
CREATE INDEX covers_sha256 ON covers(sha256);

-- A deleted album loses its cover link in the same transaction (the session extension records
-- it with the delete, so undoing the delete brings the cover back too).
CREATE TRIGGER albums_delete_cover AFTER DELETE ON albums BEGIN
    DELETE FROM covers WHERE album_id = old.id;
END;
