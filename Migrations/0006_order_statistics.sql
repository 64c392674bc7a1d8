-- Order statistics: the albums' list order cut into blocks of consecutive position keys, each
-- with how many albums it holds, so that "the album at index i" and "the index of album x" cost
-- a sum over the blocks plus a short OFFSET inside one block, never a walk over the whole list.
--
-- A block covers the keys from its `first` up to the next block's `first`; the first block
-- starts at the smallest 64-bit integer, so every key has a block. Generated triggers on albums
-- (Sources/AlbumStore/Schema/OrderStatisticsTriggers.swift, installed when a library is opened)
-- keep the counts in the transaction of every insert, delete and move, whoever makes it, even
-- the sqlite3 shell. The library splits blocks grown large and merges small ones
-- (Sources/AlbumStore/Albums/OrderBlocks.swift).
CREATE TABLE album_blocks (
    first INTEGER PRIMARY KEY,
    count INTEGER NOT NULL
);

-- Every album in one block to start with: the counts are right at once, and the library cuts
-- the block to size (one pass over the position index) the first time it opens the file for
-- writing.
INSERT INTO album_blocks (first, count) VALUES (-9223372036854775808, (SELECT count(*) FROM albums));

-- The schema version (PRAGMA schema_version) at which the library last knew the counts right.
-- Dropping or editing a trigger changes the schema version, so counts that may have missed
-- writes are found out by one comparison, and rebuilt. 0: never checked yet.
CREATE TABLE album_blocks_checked (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    schema_version INTEGER NOT NULL
);
INSERT INTO album_blocks_checked (id, schema_version) VALUES (1, 0);
