-- Albums made from a music folder (`albumstore import FOLDER`), and the files they were read from.
--
-- `folder_files` keeps each audio file's identity (path bytes, size, times, inode) and what its
-- tags said, so that a rescan reads only new or changed files and still groups every track.
-- `album_folders` keeps what a folder gives an album beyond its fields, and the values the last
-- scan gave those fields: a field that no longer holds its scanned value was edited by the user,
-- and a rescan keeps the edit. Both are undoable (a scan is one command) and not observed: an
-- observer learns of a scan through the albums and covers it changed.

CREATE TABLE album_folders (
    album_id                     INTEGER PRIMARY KEY,
    -- The folder holding the album's files (their closest common folder), as path bytes.
    folder                       BLOB    NOT NULL,
    track_count                  INTEGER NOT NULL,
    disc_count                   INTEGER NOT NULL,
    duration_ms                  INTEGER NOT NULL,
    musicbrainz_release_id       TEXT,
    musicbrainz_release_group_id TEXT,
    -- How the tracks were grouped into this album, in words.
    grouping                     TEXT    NOT NULL,
    -- The values the last scan gave the album.
    scanned_title                TEXT    NOT NULL,
    scanned_artist               TEXT    NOT NULL,
    scanned_genre                TEXT,
    scanned_year                 INTEGER,
    scanned_external_id          TEXT,
    -- The SHA-256 of the cover the last scan set, NULL when it set none.
    scanned_cover                BLOB
);

CREATE TABLE folder_files (
    -- The file's path as the file system names it: bytes, not necessarily UTF-8.
    path                         BLOB    PRIMARY KEY,
    album_id                     INTEGER NOT NULL,
    size                         INTEGER NOT NULL,
    -- Nanoseconds since 1970-01-01 UTC.
    mtime_ns                     INTEGER NOT NULL,
    ctime_ns                     INTEGER NOT NULL,
    inode                        INTEGER NOT NULL,
    -- What the tags said (NULL or 0 when absent).
    album                        TEXT,
    album_artist                 TEXT,
    artist                       TEXT,
    title                        TEXT,
    genre                        TEXT,
    year                         INTEGER NOT NULL,
    original_year                INTEGER NOT NULL,
    track                        INTEGER NOT NULL,
    track_total                  INTEGER NOT NULL,
    disc                         INTEGER NOT NULL,
    disc_total                   INTEGER NOT NULL,
    compilation                  INTEGER NOT NULL,
    musicbrainz_release_id       TEXT,
    musicbrainz_release_group_id TEXT,
    duration_ms                  INTEGER NOT NULL,
    -- The embedded front cover's SHA-256 when it is an image the cover store takes, else NULL.
    picture_sha256               BLOB
);
CREATE INDEX folder_files_album ON folder_files(album_id);

-- A deleted album forgets its files: a later scan of their folder finds them new and makes the
-- album again (the folder is the catalog). The session extension records these deletions with
-- the album's, so undoing the delete brings them back too.
CREATE TRIGGER albums_delete_folder AFTER DELETE ON albums BEGIN
    DELETE FROM album_folders WHERE album_id = old.id;
    DELETE FROM folder_files WHERE album_id = old.id;
END;
