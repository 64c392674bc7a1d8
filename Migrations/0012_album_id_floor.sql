-- The largest id a deleted album had. SQLite gives a new row the largest rowid + 1, so the id
-- of a deleted last album would be given again, and an app, a saved current album or a snapshot
-- holding it would find another album. The library gives a new album an id above this one
-- (`AlbumRepository.firstNewID`). The trigger keeps it for deletes by any program.
CREATE TABLE album_id_floor (id INTEGER NOT NULL);
INSERT INTO album_id_floor (id) VALUES (0);

CREATE TRIGGER albums_id_floor AFTER DELETE ON albums WHEN OLD.id > (SELECT id FROM album_id_floor)
BEGIN
    UPDATE album_id_floor SET id = OLD.id;
END;
