"""The computer as a player of a game, with no change to the store: a seat whose id is
`computer:<level>` (the level is read back from the id) and whose name says the level,
"Kibitz (level 3, casual)". Pure: no I/O.

Its games are never rated against people. Each finished one is kept instead under its own key
in the ratings table, `<slug>:computer-<level>` (see `record_key`): that row holds the member's
record against that level of that variant, which /profile shows, and no leaderboard reads it
(a leaderboard is asked for by a variant's slug)."""
from __future__ import annotations

import engine

PREFIX = "computer:"
COMPUTER_ID = "computer"        # a challenge's opponent id that means "the computer" (its level given apart)
MAX_GAMES = 3                   # games against the computer one member may have in play at once in a server
RECORD_MARK = ":computer-"      # in a ratings row's variant: the member's record against one level


def player_id(level: int) -> str:
    return f"{PREFIX}{level}"


def name(level: int) -> str:
    """The computer's name in a game: the level is said in every message that names the players."""
    return f"Kibitz (level {level}, {engine.LEVELS[level - 1].name})"


def is_computer(pid: str | None) -> bool:
    return bool(pid) and (pid == COMPUTER_ID or str(pid).startswith(PREFIX))


def nearest(level: int) -> int:
    """The level there is for a stored one: a level above the top (a level-8 seat or record migration
    009 did not see: written by a process still on eight levels) is the top level."""
    return min(level, engine.MAX_LEVEL)


def level_of(pid: str) -> int:
    """The level of a computer seat's id (DEFAULT_LEVEL for a bare `computer`), as `nearest` says."""
    text = pid.removeprefix(PREFIX)
    return nearest(int(text)) if text.isdigit() and int(text) >= 1 else engine.DEFAULT_LEVEL


def seat(players: list[tuple[str, str]]) -> int | None:
    """The computer's seat (0 White, 1 Black) in a game's players, or None when it does not play."""
    return next((i for i, (pid, _) in enumerate(players) if is_computer(pid)), None) if len(players) == 2 else None


def to_move(players: list[tuple[str, str]], fen: str) -> bool:
    """Whether the computer is to move in a game of these players at `fen` (its second field is
    the side to move in every variant)."""
    index = seat(players)
    fields = fen.split()
    return index is not None and len(fields) > 1 and fields[1] == ("w" if index == 0 else "b")


def record_key(slug: str, level: int) -> str:
    """The ratings table's variant key of a member's record against one level of one variant."""
    return f"{slug}{RECORD_MARK}{level}"


def read_record_key(key: str) -> tuple[str, int] | None:
    """(slug, level) of a record key, or None for a variant's own key; the level as `nearest` says."""
    slug, mark, level = key.partition(RECORD_MARK)
    return (slug, nearest(int(level))) if mark and level.isdigit() else None
