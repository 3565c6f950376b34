-- Threads, open challenges, deadlines, takebacks, hints and daily deals (one game row each), plus
-- per-server settings, per-member preferences and the daily puzzle results.
-- SQLite cannot change a CHECK constraint in place: the games table is rebuilt with the same rows.
CREATE TABLE games_new (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    variant         TEXT    NOT NULL,
    guild_id        TEXT,
    channel_id      TEXT    NOT NULL,             -- where it is played: a channel, thread or DM
    players         TEXT    NOT NULL,             -- JSON [[id, name], ...] in seat order: white, black (solo: one);
                                                  -- an open challenge's free seat is ["", ""]
    seed            INTEGER,
    start_fen       TEXT,
    moves           TEXT    NOT NULL DEFAULT '[]', -- JSON list of canonical turns
    fen             TEXT    NOT NULL,             -- current position, a check on replay
    status          TEXT    NOT NULL CHECK (status IN ('challenge', 'active', 'finished', 'declined', 'suspended',
                                                       'expired', 'aborted')),
    result          TEXT,
    reason          TEXT,
    score           INTEGER,
    draw_offer      TEXT,                         -- id of the player whose draw offer stands
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    version         INTEGER NOT NULL DEFAULT 0,   -- raised by every save; a save must name the version it read
    rules_version   TEXT,                         -- Kibitz version the game was started under (NULL: before 0.2.0)
    error           TEXT,                         -- why a suspended game could not be restored
    home_channel_id TEXT,                         -- the channel the challenge or puzzle was asked for in
    message_id      TEXT,                         -- the challenge's message (edited when it is settled)
    challenger_id   TEXT,                         -- who challenged (two-player games)
    move_seconds    INTEGER,                      -- time allowed per move; NULL: no deadline
    due_at          REAL,                         -- Unix time of the next deadline: challenge expiry or move
    reminded        INTEGER NOT NULL DEFAULT 0,   -- 1 once the player to move was reminded of due_at
    takeback_offer  TEXT,                         -- id of the player whose takeback request stands
    hints           INTEGER NOT NULL DEFAULT 0,   -- hints shown (puzzles)
    plies_played    INTEGER NOT NULL DEFAULT 0,   -- turns played, undone ones included (puzzles)
    daily           TEXT,                         -- YYYY-MM-DD (UTC) of a daily deal
    par             INTEGER                       -- best score the daily's solver found, if any
);
INSERT INTO games_new (id, variant, guild_id, channel_id, players, seed, start_fen, moves, fen, status,
                       result, reason, score, draw_offer, created_at, updated_at, version, rules_version, error,
                       home_channel_id, challenger_id, plies_played)
    SELECT id, variant, guild_id, channel_id, players, seed, start_fen, moves, fen, status,
           result, reason, score, draw_offer, created_at, updated_at, version, rules_version, error,
           channel_id, CASE WHEN json_array_length(players) = 2 THEN json_extract(players, '$[0][0]') END,
           json_array_length(moves) FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
-- One game in play per channel or thread; challenges wait side by side.
CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX open_games_by_guild ON games (guild_id) WHERE status IN ('challenge', 'active');
CREATE INDEX games_by_due ON games (due_at) WHERE due_at IS NOT NULL AND status IN ('challenge', 'active');
CREATE INDEX games_by_daily ON games (daily, variant) WHERE daily IS NOT NULL;

CREATE TABLE guild_settings (
    guild_id    TEXT PRIMARY KEY,
    settings    TEXT NOT NULL,                    -- JSON object, see bot/settings.py
    updated_at  TEXT NOT NULL
);

CREATE TABLE member_prefs (
    user_id     TEXT PRIMARY KEY,
    pings       INTEGER NOT NULL DEFAULT 1,       -- 0: never ping this member on moves
    updated_at  TEXT NOT NULL
);

-- The first finish of each member's copy of a daily deal: the one that counts.
CREATE TABLE daily_results (
    day         TEXT    NOT NULL,                 -- YYYY-MM-DD (UTC)
    variant     TEXT    NOT NULL,
    player_id   TEXT    NOT NULL,
    guild_id    TEXT    NOT NULL,                 -- '' outside a server
    name        TEXT    NOT NULL,
    game_id     INTEGER NOT NULL,
    solved      INTEGER NOT NULL,                 -- 1 solved, 0 failed or gave up
    score       INTEGER,
    hints       INTEGER NOT NULL,
    plies       INTEGER NOT NULL,                 -- turns played, undone ones included
    finished_at TEXT    NOT NULL,
    PRIMARY KEY (day, variant, player_id)
);
CREATE INDEX daily_results_by_board ON daily_results (guild_id, variant, day);
