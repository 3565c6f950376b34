-- Compare-and-set saves, the rules version a game started under, and games set aside.
-- SQLite cannot change a CHECK constraint in place: the table is rebuilt with the same rows.
CREATE TABLE games_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    variant       TEXT    NOT NULL,
    guild_id      TEXT,
    channel_id    TEXT    NOT NULL,             -- channel, or thread when played in a thread
    players       TEXT    NOT NULL,             -- JSON [[id, name], ...] in seat order: white, black (solo: one)
    seed          INTEGER,
    start_fen     TEXT,
    moves         TEXT    NOT NULL DEFAULT '[]', -- JSON list of canonical turns
    fen           TEXT    NOT NULL,             -- current position, a check on replay
    status        TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'declined', 'suspended')),
    result        TEXT,
    reason        TEXT,
    score         INTEGER,
    draw_offer    TEXT,                         -- id of the player whose draw offer stands
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    version       INTEGER NOT NULL DEFAULT 0,   -- raised by every save; a save must name the version it read
    rules_version TEXT,                         -- Kibitz version the game was started under (NULL: before 0.2.0)
    error         TEXT                          -- why a suspended game could not be restored
);
INSERT INTO games_new (id, variant, guild_id, channel_id, players, seed, start_fen, moves, fen, status,
                       result, reason, score, draw_offer, created_at, updated_at)
    SELECT id, variant, guild_id, channel_id, players, seed, start_fen, moves, fen, status,
           result, reason, score, draw_offer, created_at, updated_at FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('challenge', 'active');
CREATE INDEX games_by_channel ON games (channel_id, id);
