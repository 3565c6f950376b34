"""/move autocomplete: the legal turns a player may mean by what they have typed so far.

Each choice is (value, name): the value is the canonical turn to play, the name shows it as a
player writes it with the from-to in brackets ("Nf3 (g1f3)"). A prefix matches the SAN or the
from-to text, in any letter case ("N" lists knight moves, "e2" e2's moves, "nf" knight moves to
the f-file). Listed for picking (a limit given), checks come first, then captures, then the rest,
in canonical order within each group; the whole list (no limit) stays in canonical order.
Turns of several parts are narrowed part by part: while more turns match than the limit, the
distinct next parts are offered ("b8c6"), and typing "b8c6 " then offers only that move's parts.
"""
from __future__ import annotations

import re

from rules import LABEL_JOIN, Game, spelling

NAME_LIMIT = 100      # Discord's longest choice name and value
_HALF_DASHED = re.compile(r"(^| )([a-z]\d{1,2})[-–]")   # a from-square and its dash, the rest still to come
ORDERED_AT_MOST = 120  # checks are found by playing each turn: beyond this many, captures only


def suggest(game: Game, prefix: str, limit: int | None) -> list[tuple[str, str]]:
    """(value, name) pairs for the legal turns (or their first parts) that `prefix` begins."""
    typed = spelling.normalise(" ".join(prefix.replace(",", " ").split())).lower()   # "Nc6, f8" as "nc6 f8"
    typed = _HALF_DASHED.sub(r"\1\2", typed)   # "e2-" and "e2-e" on the way to "e2-e4"
    if typed and prefix.endswith((" ", ",")):
        typed += " "
    moves = sorted(game.legal_moves())
    labels: dict[str, str] = {}

    def label(move: str) -> str:
        if move not in labels:
            labels[move] = game.label(move)
        return labels[move]

    hits = [m for m in moves if m.lower().startswith(typed)
            or (typed and label(m).replace(LABEL_JOIN, " ").lower().startswith(typed))]
    if limit is not None:
        hits = _ordered(game, hits, label)
    depth = typed.count(" ") + 1
    if limit is not None and len(hits) > limit:
        hits = list(dict.fromkeys(" ".join(m.split()[:depth]) for m in hits))[:limit]
    complete = set(moves)
    out = []
    for value in hits:
        if value in complete:
            shown = label(value)
        else:
            example = next(m for m in moves if m.startswith(value + " "))
            shown = LABEL_JOIN.join(label(example).split(LABEL_JOIN)[:len(value.split())]) + " …"
        name = shown if shown.rstrip(" …") == value else f"{shown} ({value})"
        out.append((value, _fit(name)))
    return out


def _ordered(game: Game, moves: list[str], label) -> list[str]:
    """Checks first, then captures, then the rest; stable within each group."""
    if len(moves) > ORDERED_AT_MOST:
        return sorted(moves, key=lambda m: 0 if "x" in label(m) else 1)
    men = len(game.view().pieces)
    ranks = {}
    for move in moves:
        written = label(move)   # before playing: a label is worked out in the position it is played from
        game.play(move)
        try:
            view = game.view()
            check, capture = bool(view.checks), len(view.pieces) < men or "x" in written
        finally:
            game.undo()
        ranks[move] = 0 if check else 1 if capture else 2
    return sorted(moves, key=ranks.__getitem__)


def _fit(name: str) -> str:
    return name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"
