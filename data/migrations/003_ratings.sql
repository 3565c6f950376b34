-- Glicko-2 ratings per variant per server (guild_id '' for games outside a server), and the
-- games already rated: a game is rated once, keyed by its id, however often rating is tried.
CREATE TABLE ratings (
    guild_id    TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    player_id   TEXT    NOT NULL,
    name        TEXT    NOT NULL,            -- display name at the last rated game
    rating      REAL    NOT NULL,
    rd          REAL    NOT NULL,
    volatility  REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, variant, player_id)
);
CREATE INDEX ratings_by_board ON ratings (guild_id, variant, rating DESC);
CREATE TABLE rated_games (
    game_id     INTEGER PRIMARY KEY,
    rated_at    TEXT    NOT NULL
);
