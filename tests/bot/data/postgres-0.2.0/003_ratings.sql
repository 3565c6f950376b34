-- Glicko-2 ratings per variant per server (guild_id '' for games outside a server), and the
-- games already rated: the PostgreSQL twin of ../003_ratings.sql.
CREATE TABLE ratings (
    guild_id    TEXT             NOT NULL,
    variant     TEXT             NOT NULL,
    player_id   TEXT             NOT NULL,
    name        TEXT             NOT NULL,   -- display name at the last rated game
    rating      DOUBLE PRECISION NOT NULL,
    rd          DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       INTEGER          NOT NULL DEFAULT 0,
    wins        INTEGER          NOT NULL DEFAULT 0,
    draws       INTEGER          NOT NULL DEFAULT 0,
    losses      INTEGER          NOT NULL DEFAULT 0,
    updated_at  TEXT             NOT NULL,
    PRIMARY KEY (guild_id, variant, player_id)
);
CREATE INDEX ratings_by_board ON ratings (guild_id, variant, rating DESC);
CREATE TABLE rated_games (
    game_id     BIGINT PRIMARY KEY,
    rated_at    TEXT   NOT NULL
);
