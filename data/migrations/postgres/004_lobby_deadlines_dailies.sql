-- Threads, open challenges, deadlines, takebacks, hints and daily deals (one game row each), plus
-- per-server settings, per-member preferences and the daily puzzle results. The twin of
-- ../004_lobby_deadlines_dailies.sql; PostgreSQL changes the table in place.
ALTER TABLE games
    ADD COLUMN home_channel_id TEXT,                        -- the channel the challenge or puzzle was asked for in
    ADD COLUMN message_id      TEXT,                        -- the challenge's message (edited when it is settled)
    ADD COLUMN challenger_id   TEXT,                        -- who challenged (two-player games)
    ADD COLUMN move_seconds    INTEGER,                     -- time allowed per move; NULL: no deadline
    ADD COLUMN due_at          DOUBLE PRECISION,            -- Unix time of the next deadline: challenge expiry or move
    ADD COLUMN reminded        INTEGER NOT NULL DEFAULT 0,  -- 1 once the player to move was reminded of due_at
    ADD COLUMN takeback_offer  TEXT,                        -- id of the player whose takeback request stands
    ADD COLUMN hints           INTEGER NOT NULL DEFAULT 0,  -- hints shown (puzzles)
    ADD COLUMN plies_played    INTEGER NOT NULL DEFAULT 0,  -- turns played, undone ones included (puzzles)
    ADD COLUMN daily           TEXT,                        -- YYYY-MM-DD (UTC) of a daily deal
    ADD COLUMN par             INTEGER;                     -- best score the daily's solver found, if any
UPDATE games SET home_channel_id = channel_id,
                 challenger_id = CASE WHEN json_array_length(players::json) = 2 THEN players::json->0->>0 END,
                 plies_played = json_array_length(moves::json);
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('challenge', 'active', 'finished', 'declined', 'suspended', 'expired', 'aborted'));
-- One game in play per channel or thread; challenges wait side by side.
DROP INDEX one_open_game_per_channel;
CREATE UNIQUE INDEX one_open_game_per_channel ON games (channel_id) WHERE status = 'active';
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
    game_id     BIGINT  NOT NULL,
    solved      INTEGER NOT NULL,                 -- 1 solved, 0 failed or gave up
    score       INTEGER,
    hints       INTEGER NOT NULL,
    plies       INTEGER NOT NULL,                 -- turns played, undone ones included
    finished_at TEXT    NOT NULL,
    PRIMARY KEY (day, variant, player_id)
);
CREATE INDEX daily_results_by_board ON daily_results (guild_id, variant, day);
