-- One row per game: enough to replay it (variant, seed or start FEN, moves) plus who and where.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    variant     TEXT    NOT NULL,
    guild_id    TEXT,
    channel_id  TEXT    NOT NULL,             -- channel, or thread when played in a thread
    players     TEXT    NOT NULL,             -- JSON [[id, name], ...] in seat order: white, black (solo: one)
    seed        BIGINT,                       -- SQLite reads BIGINT as INTEGER; PostgreSQL needs its 64 bits
    start_fen   TEXT,
    moves       TEXT    NOT NULL DEFAULT '[]', -- JSON list of canonical turns
    fen         TEXT    NOT NULL,             -- current position, a check on replay
    status      TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'declined')),
    result      TEXT,
    reason      TEXT,
    score       INTEGER,
    draw_offer  TEXT,                         -- id of the player whose draw offer stands
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
-- At most one open game (challenge or active) per channel.
CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status IN ('challenge', 'active');
CREATE INDEX games_by_channel ON games (channel_id, id);
