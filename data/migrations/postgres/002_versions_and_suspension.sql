-- Compare-and-set saves, the rules version a game started under, and games set aside.
-- PostgreSQL changes the table in place (SQLite has to rebuild it).
ALTER TABLE games
    ADD COLUMN version       INTEGER NOT NULL DEFAULT 0,  -- raised by every save; a save must name the version it read
    ADD COLUMN rules_version TEXT,                        -- Kibitz version the game was started under (NULL: before 0.2.0)
    ADD COLUMN error         TEXT;                        -- why a suspended game could not be restored
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('challenge', 'active', 'finished', 'declined', 'suspended'));
