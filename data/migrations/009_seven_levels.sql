-- The computer had eight levels and now has seven: the old eighth ("strongest") is the new seventh's
-- strength and name, and the old seventh ("master") is now called "strongest" too. Games and records
-- kept from then are filed under the level they now play at, so a game says the name it plays under
-- and /profile shows one record against the top level (bot/service/seats.py: ids, names, record keys).
-- Data only: no table changes. A level-8 seat or record written after this ran (by a process still
-- on eight levels) is left as written: seats.level_of plays such a seat at level 7, and /profile adds
-- such a record to the one against level 7 (bot/service/records.py).

-- Each game's seats (JSON [[id, name], ...] as bot/store/rows.py writes it): the computer's whole
-- seat is matched, its id and name in quotes, so a member's name that merely looks like one is left
-- as it is. Its version is raised, as by any save, so a save read before this one is refused.
-- Words kept as they were said (a game's reason, the outbox's answers) keep the old name.
UPDATE games SET players = replace(players, '["computer:8", "Kibitz (level 8, strongest)"]',
                                            '["computer:7", "Kibitz (level 7, strongest)"]'),
                 version = version + 1
    WHERE players LIKE '%["computer:8", "Kibitz (level 8, strongest)"]%';
UPDATE games SET players = replace(players, '["computer:7", "Kibitz (level 7, master)"]',
                                            '["computer:7", "Kibitz (level 7, strongest)"]'),
                 version = version + 1
    WHERE players LIKE '%["computer:7", "Kibitz (level 7, master)"]%';

-- A member's record against level 8 of a variant (ratings row `<slug>:computer-8`) joins their
-- record against level 7 in the same server: games, wins, draws and losses added, the later row's
-- time and name kept (its rating columns are unused). Where there is no level-7 record, the
-- level-8 one becomes it.
UPDATE ratings SET (games, wins, draws, losses, name, updated_at) = (
        SELECT ratings.games + old.games, ratings.wins + old.wins, ratings.draws + old.draws,
               ratings.losses + old.losses,
               CASE WHEN old.updated_at > ratings.updated_at THEN old.name ELSE ratings.name END,
               CASE WHEN old.updated_at > ratings.updated_at THEN old.updated_at ELSE ratings.updated_at END
        FROM ratings AS old
        WHERE old.guild_id = ratings.guild_id AND old.player_id = ratings.player_id
              AND old.variant = replace(ratings.variant, ':computer-7', ':computer-8'))
    WHERE variant LIKE '%:computer-7' AND EXISTS (
        SELECT 1 FROM ratings AS old
        WHERE old.guild_id = ratings.guild_id AND old.player_id = ratings.player_id
              AND old.variant = replace(ratings.variant, ':computer-7', ':computer-8'));
DELETE FROM ratings
    WHERE variant LIKE '%:computer-8' AND EXISTS (
        SELECT 1 FROM ratings AS kept
        WHERE kept.guild_id = ratings.guild_id AND kept.player_id = ratings.player_id
              AND kept.variant = replace(ratings.variant, ':computer-8', ':computer-7'));
UPDATE ratings SET variant = replace(variant, ':computer-8', ':computer-7') WHERE variant LIKE '%:computer-8';

-- store.rate keeps a row for the computer too, its side of the same games, under the same record
-- keys (moved above with the members'): level 8's ('computer:8') joins level 7's of the same server
-- and key, games, wins, draws and losses added and the later time kept, or becomes it where there
-- is none; every one is then named as the top level is now. Nothing reads these rows (a leaderboard
-- is per variant, a profile per member); none is left stale.
UPDATE ratings SET (games, wins, draws, losses, updated_at) = (
        SELECT ratings.games + old.games, ratings.wins + old.wins, ratings.draws + old.draws,
               ratings.losses + old.losses,
               CASE WHEN old.updated_at > ratings.updated_at THEN old.updated_at ELSE ratings.updated_at END
        FROM ratings AS old
        WHERE old.guild_id = ratings.guild_id AND old.variant = ratings.variant AND old.player_id = 'computer:8')
    WHERE player_id = 'computer:7' AND EXISTS (
        SELECT 1 FROM ratings AS old
        WHERE old.guild_id = ratings.guild_id AND old.variant = ratings.variant AND old.player_id = 'computer:8');
DELETE FROM ratings
    WHERE player_id = 'computer:8' AND EXISTS (
        SELECT 1 FROM ratings AS kept
        WHERE kept.guild_id = ratings.guild_id AND kept.variant = ratings.variant AND kept.player_id = 'computer:7');
UPDATE ratings SET player_id = 'computer:7' WHERE player_id = 'computer:8';
UPDATE ratings SET name = 'Kibitz (level 7, strongest)' WHERE player_id = 'computer:7';
