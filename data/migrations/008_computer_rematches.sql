-- A game against the computer begun by a Rematch press names the finished game it is the rematch of:
-- that game has one (it begins at once), and a second press is told where it is, after a restart too.
ALTER TABLE games ADD COLUMN rematch_of BIGINT;
CREATE INDEX games_by_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;
