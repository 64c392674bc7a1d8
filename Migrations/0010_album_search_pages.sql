-- The full-text index of 0007, remade to write fewer pages per change (issue 8: every command
-- that inserts, deletes or renames an album, and every undo of one, wrote 1 to 4 pages more
-- for it than needed; scripts/bench-albums counts the WAL frames of each).
--
-- columnsize = 0: no `album_search_docsize` table, whose row per album (the token count of each
-- column) was one more b-tree page written by every insert and delete. Nothing reads those
-- sizes: queries only filter by MATCH, never rank (bm25 would still work, reading the sizes
-- from the text instead).
--
-- automerge = 16 (FTS5's default is 4): each library command is its own transaction, and each
-- transaction that touches the index writes a new small segment. With 4, every fourth command
-- also merged the last four into one, rewriting and freeing pages (about 3.6 frames more on
-- average over an insert and a delete); with 16 a merge comes a quarter as often and each
-- entry is rewritten fewer times over its life. The price is up to 15 small segments more per
-- level for a MATCH to probe (one index lookup each), against a full-text query over a
-- million albums that reads doclists of thousands of entries. crisismerge stays at its
-- default of 16.
--
-- The triggers of 0007 stay as they are: they name the index, not its options. The index is
-- rebuilt from `albums`, so a library migrated from 0009 holds exactly what a new one would.
DROP TABLE album_search;

CREATE VIRTUAL TABLE album_search USING fts5(
    title, artist,
    content = 'albums', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2',
    columnsize = 0
);

INSERT INTO album_search (album_search, rank) VALUES ('automerge', 16);

INSERT INTO album_search (album_search) VALUES ('rebuild');
