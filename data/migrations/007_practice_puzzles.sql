-- A puzzle taken back after it finished goes on as practice, in a game row of its own: the finish
-- stays on the board of results (a finish counts when it happens), and the practice copy's never do.
ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;   -- 1: practice after a counted finish
