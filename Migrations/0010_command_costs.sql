-- Cheaper album commands (issue 8; scripts/bench-albums times them and counts their WAL frames).
--
-- First, the full-text index of 0007, remade to write a page fewer per change: every command
-- that inserted, deleted or renamed an album, and every undo of one, wrote a page it did not need.
--
-- columnsize = 0: no `album_search_docsize` table, whose row per album (the token count of each
-- column) was one more b-tree page written by every insert and delete. Nothing reads those
-- sizes: queries only filter by MATCH, never rank (bm25 would still work, reading the sizes
-- from the text instead).
--
-- FTS5's automerge stays at its default (4). 16 (a merge a quarter as often) was measured and
-- dropped: with the library's commands it wrote more, not less (scripts/bench-albums at 200,000
-- albums: 15.0 WAL frames an insert against 14.6, insert 4.18-4.19x against 3.83-3.95x).
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

INSERT INTO album_search (album_search) VALUES ('rebuild');

-- Second, the order statistics of 0006 keep the albums' total, so the count a command needs (to
-- check an index, and to walk the blocks from the nearer end) is one row instead of a sum over
-- every block: 244 blocks at a million albums, summed twice a command (the check before the
-- write lock and the command itself), some 7 µs each here. The generated insert and delete
-- triggers (OrderStatisticsTriggers) keep it in step with the blocks; a move leaves it. Its
-- own table rather than a column of album_blocks_checked: a file without it (migrated by an
-- older binary's migrations) is told by its table alone, and the library sums the blocks then.
-- Opening the file for writing after this migration finds the counts unchecked (the schema
-- changed) and counts everything again, this total included.
CREATE TABLE album_blocks_total (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    total INTEGER NOT NULL
);
INSERT INTO album_blocks_total (id, total) VALUES (1, (SELECT count(*) FROM albums));
