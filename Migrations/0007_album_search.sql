-- Full-text search over titles and artists (the query language's bare words), and an index
-- for filters and counts by genre.
--
-- album_search is an FTS5 index with external content: it stores no copy of the text, only the
-- index, and reads titles and artists back from `albums` by id. The unicode61 tokenizer folds
-- case in every script and, with remove_diacritics 2, the diacritics of Latin letters, so
-- Björk, BJÖRK and bjork are one word (see the README's query section for what it does not fold).
CREATE VIRTUAL TABLE album_search USING fts5(
    title, artist,
    content = 'albums', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- The triggers keep the index in step with `albums` in the same transaction as the change,
-- whoever writes (the library, undo and redo, the sqlite3 shell). They are plain SQL, not
-- generated from table descriptions: they belong to this one derived structure, use built-in
-- functions only (so the shell can fire them) and never change with the machinery.
-- An external-content index must be told exactly the old values to forget a row: the DELETE and
-- UPDATE triggers pass OLD's. Rows deleted by `INSERT OR REPLACE` fire the DELETE trigger only
-- with PRAGMA recursive_triggers on (every AlbumStore connection turns it on).
CREATE TRIGGER album_search_insert AFTER INSERT ON albums
BEGIN
    INSERT INTO album_search (rowid, title, artist) VALUES (NEW.id, NEW.title, NEW.artist);
END;

CREATE TRIGGER album_search_delete AFTER DELETE ON albums
BEGIN
    INSERT INTO album_search (album_search, rowid, title, artist) VALUES ('delete', OLD.id, OLD.title, OLD.artist);
END;

-- Only when a searched column changes: moves (position) and other edits leave the index alone.
CREATE TRIGGER album_search_update AFTER UPDATE OF id, title, artist ON albums
BEGIN
    INSERT INTO album_search (album_search, rowid, title, artist) VALUES ('delete', OLD.id, OLD.title, OLD.artist);
    INSERT INTO album_search (rowid, title, artist) VALUES (NEW.id, NEW.title, NEW.artist);
END;

-- The albums already there.
INSERT INTO album_search (album_search) VALUES ('rebuild');

-- `genre:=Rock year:1990..1999 --sort year` reads its first 50 albums straight from this index
-- (the rowid ends every entry: year, position, id is the sort), and counts per genre read it alone.
CREATE INDEX albums_genre ON albums(genre, year, position);
