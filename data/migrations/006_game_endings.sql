-- How each game ended (rules.Ending: checkmate, goal, resignation, time, ...), as the rule or the
-- player's act that ended it says, for code to decide on; `reason` keeps the words players read.
-- NULL while a game goes on and for an aborted one. Games that ended before this change get it once
-- from their result and reason, in Python (bot/store/migrations.py: BACKFILLS).
ALTER TABLE games ADD COLUMN ending TEXT;
