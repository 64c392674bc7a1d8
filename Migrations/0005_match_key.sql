-- The import's duplicate check: a 64-bit hash of the folded artist and title (see
-- Sources/AlbumStore/Albums/MatchKey.swift for the exact definition), indexed so that finding
-- the albums that may be the same as an imported one is one index probe.
--
-- The library stores it on every write that sets an artist or a title. Rows written by other
-- programs may leave it NULL or wrong; the duplicate check then misses them.
ALTER TABLE albums ADD COLUMN match_key INTEGER;
CREATE INDEX albums_match_key ON albums(match_key);
-- albumstore_match_key is a deterministic SQL function the library registers on its
-- connections (the sqlite3 shell does not have it, so only the library can apply this).
--
-- The backfill is not a change anyone made to an album: without the change-log update trigger
-- it logs nothing (one entry per album would flood observers and the log). The library
-- reinstalls the trigger, as generated, in the transaction of the last migration it applies.
DROP TRIGGER IF EXISTS albums_log_update;
UPDATE albums SET match_key = albumstore_match_key(artist, title);
