"""Daily deals, score boards and the KingSwap! grid: the plain helpers behind the service's
daily section (bot/service/puzzles.py). No Discord, no store: values in, values or text out.

    utc_day(timestamp)                   the UTC day of a Unix time, as a date
    best_per_player(records)             the all-time board: each player's best finished game
    grid_state(record, game, origin)     the 5x5 buttons of a KingSwap! position
"""
from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

import rules
from rules import Game

from .store import GameRecord
from .timing import plural

PRACTICE = ("Your first finish of today's deal already counts for the daily board: "
            "from here on this copy is practice.")
COUNTED = "Your first finish of today's deal counts for the daily board (/leaderboard {slug} daily:True)."
GRID_STALE = "This grid is from an earlier position: nothing changed. Use the newest grid."
GRID_OVER = "KingSwap! game #{game} is over: nothing changed."
GRID_SIZE = 5

# How the grid shows the men (white symbols; the king and the goal corner are also coloured).
SYMBOLS = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙"}
EMPTY = "·"


def utc_day(timestamp: float) -> datetime.date:
    return datetime.datetime.fromtimestamp(timestamp, datetime.timezone.utc).date()


def score_text(info: rules.VariantInfo, score: int | None) -> str:
    """"2 casualties", "level 3", "9 men not home"."""
    if score is None:
        return "no score"
    if info.score_name == "level":
        return f"level {score}"
    return f"{score} {info.score_name}"


def record_note(record: GameRecord) -> str:
    """What the board's player line adds for a daily copy and for hints: " · daily deal of 2026-11-23 · par 3 · 1 hint"."""
    note = f" · daily deal of {record.daily}" if record.daily else ""
    note += f" · par {record.par}" if record.daily and record.par is not None else ""
    note += f" · {plural(record.hints, 'hint')}" if record.hints else ""
    return note


def best_per_player(records: Iterable[GameRecord], limit: int = 10) -> list[GameRecord]:
    """Each player's first record among `records` (already best first), at most `limit` players."""
    seen: set[str] = set()
    best = []
    for record in records:
        who = record.players[0][0]
        if who in seen:
            continue
        seen.add(who)
        best.append(record)
        if len(best) == limit:
            break
    return best


@dataclass(frozen=True)
class Cell:
    square: str
    label: str
    man: str | None        # "K", "Q", ... or None for an empty square
    enabled: bool
    goal: bool             # the corner the king is heading for
    chosen: bool           # the man picked by the first click


@dataclass(frozen=True)
class GridState:
    """A KingSwap! position as 25 buttons, top rank first: what each shows and whether it takes a click.

    Without `origin` the men that can move are enabled; with it, only that man's legal targets
    (and the man itself, to put it down again)."""
    game_id: int
    ply: int               # grid_ply: moves and takebacks so far
    player_id: str
    origin: str
    rows: tuple[tuple[Cell, ...], ...]
    finished: bool


def grid_ply(record: GameRecord) -> int:
    """The grid's position number: one up for every move and every takeback, so a grid from a
    position taken back never matches a later one at the same ply (2 * played - still on the board)."""
    return 2 * record.plies_played - len(record.moves)


def grid_state(record: GameRecord, game: Game, origin: str = "") -> GridState:
    view = game.view()
    legal = game.legal_moves()
    starts = {move[:2] for move in legal}
    targets = {move[2:] for move in legal if move[:2] == origin}
    if origin and origin not in starts:
        raise rules.IllegalMove(f"The man on {origin} cannot move." if origin in view.pieces
                                else f"There is no man on {origin}.")
    rows = []
    for rank in range(GRID_SIZE, 0, -1):
        row = []
        for file in "abcde":
            square = f"{file}{rank}"
            man = view.pieces.get(square)
            enabled = square in targets or square == origin if origin else square in starts
            row.append(Cell(square, SYMBOLS.get(man or "", EMPTY), man, enabled, square in view.marks,
                            square == origin))
        rows.append(tuple(row))
    return GridState(record.id or 0, grid_ply(record), record.players[0][0], origin, tuple(rows),
                     game.outcome is not None)
