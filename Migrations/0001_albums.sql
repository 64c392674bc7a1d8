-- The albums, as the ordered list the app's cover scroller shows.
--
-- `position` is a gapped order key: the list is read in position order, and inserting or
-- moving picks a key between two neighbours, so the list is never rewritten (it is renumbered
-- only when two neighbours have no key left between them). The 0-based index of an album is
-- its rank by position, never stored.
CREATE TABLE albums (
    id          INTEGER PRIMARY KEY,
    position    INTEGER NOT NULL,
    title       TEXT    NOT NULL CHECK (length(trim(title)) > 0),
    artist      TEXT    NOT NULL CHECK (length(trim(artist)) > 0),
    genre       TEXT,
    year        INTEGER CHECK (year IS NULL OR year BETWEEN 1000 AND 9999),
    cover_url   TEXT,
    -- A Discogs release id, a MusicBrainz id, ...: unique when given.
    external_id TEXT,
    -- Milliseconds since 1970-01-01 UTC.
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- The list order (position, then id), and index -> album lookups. Not UNIQUE: a local
-- renumbering rewrites neighbours one by one and may pass through equal keys.
CREATE INDEX albums_position ON albums(position);
CREATE UNIQUE INDEX albums_external_id ON albums(external_id) WHERE external_id IS NOT NULL;
-- Filters by artist (case-insensitive, then by year) and by year.
CREATE INDEX albums_artist ON albums(artist COLLATE NOCASE, year);
CREATE INDEX albums_year ON albums(year);
