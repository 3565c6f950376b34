"""A turn chosen from menus: the legal next parts after the parts chosen so far. Knows nothing of
Discord; the service (`GameService.build_menu`, `play_built`) and the front ends use it.

A player builds a turn part by part. At each step `menu(game, parts, origin, page)` answers with
the options for the next part (each the canonical part text and a label a player reads) and
whether `parts` already form a complete legal turn. Where the next parts are many, or the
variant's turns are single moves, the player first picks the man (grouped by the square it
stands on, or "from hand" for drops), then its target: `origin` is that choice. More than
`PAGE` options are split into pages, the last option of each page leading to the next.

Option values are one of
    a part's text ("b8c6", "f8/g7", "Q@a1", "pass")   add it to the turn
    "#" + origin ("#e2", "#N@")                       pick the man first
    ">" + page (">1")                                 show another page
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules import LABEL_JOIN, BoardView, Game, IllegalMove
from rules.core import PIECE_NAMES

PAGE = 25                 # Discord's cap on the options of one select menu
_LEADING_SQUARE = re.compile(r"[a-z][0-9]+")
_STALE_CHOICE = "That choice is no longer legal here. Start the turn again."


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    description: str = ""   # the canonical form, beside the label


@dataclass(frozen=True)
class Menu:
    parts: tuple[str, ...]       # the parts chosen so far, canonical
    origin: str                  # the man picked first ("e2", "N@"), or ""
    page: int
    pages: int
    prompt: str                  # what to pick next, as a sentence
    options: tuple[Option, ...]  # this page's options (empty when nothing can follow)
    complete: bool               # `parts` already form a complete legal turn
    summary: str                 # the turn so far in words ("Nc6, then swap ...")
    label: str = ""              # a complete turn as players write it ("Nh6, h6/f7"), for its Confirm

    @property
    def text(self) -> str:
        return " ".join(self.parts)


def origin_of(part: str) -> str:
    """The group a part belongs to: the square its man stands on, "N@" for a drop, "" for none."""
    if "@" in part:
        return part.split("@", 1)[0] + "@"
    match = _LEADING_SQUARE.match(part)
    return match.group(0) if match and part != "pass" else ""


def menu(game: Game, parts: tuple[str, ...] = (), origin: str = "", page: int = 0, *,
         view: BoardView | None = None) -> Menu:
    """The options for the next part after `parts`. Raises IllegalMove when `parts` do not begin
    any legal turn (the position changed, or a hand-made choice). `view`: the game's current
    view, when the caller has it already (building it again is half the cost of a first menu)."""
    turns = [tuple(t.split(" ")) for t in game.legal_moves()]
    depth = len(parts)
    matching = [t for t in turns if t[:depth] == parts]
    if not matching:
        raise IllegalMove(_STALE_CHOICE if parts else "There is no legal move here.")
    complete = any(len(t) == depth for t in matching)
    following = list(dict.fromkeys(t[depth] for t in matching if len(t) > depth))
    pieces = _pieces_after(game, parts, view)
    if origin:
        following = [p for p in following if origin_of(p) == origin]
        if not following:
            raise IllegalMove(_STALE_CHOICE)
    by_origin: dict[str, list[str]] = {}
    for part in following:
        by_origin.setdefault(origin_of(part), []).append(part)
    groups = list(by_origin)
    single_moves = all(len(t) == 1 for t in turns)
    grouped = not origin and len(groups) > 1 and "" not in groups and (len(following) > PAGE or single_moves)
    if grouped:
        options = [_group_option(g, by_origin[g], pieces) for g in groups]
        prompt = "Pick a man to move." if all(not g.endswith("@") for g in groups) else "Pick a man to move or drop."
    else:   # the words for each part cost a SAN each: worked out only when the parts are shown
        labels = _part_labels(game, parts, matching, pieces)
        options = [Option(p, labels[p], p if labels[p] != p else "") for p in following]
        prompt = _prompt(following, origin, depth, pieces)
    shown, pages, page = _paged(options, page)
    summary = ", then ".join(labels_for(game, parts, matching, view)) if parts else ""
    return Menu(parts, origin, page, pages, prompt, tuple(shown), complete, summary,
                game.label(" ".join(parts)) if complete else "")


def _paged(options: list[Option], page: int) -> tuple[list[Option], int, int]:
    if len(options) <= PAGE:
        return options, 1, 0
    size = PAGE - 1
    pages = -(-len(options) // size)
    page = page % pages
    shown = options[page * size:(page + 1) * size]
    after = (page + 1) % pages
    word = "more…" if after else "back to the first"
    shown.append(Option(f">{after}", f"{word} (page {after + 1} of {pages})"))
    return shown, pages, page


def _group_option(origin: str, parts: list[str], pieces: dict[str, str]) -> Option:
    count = len(parts)
    if origin.endswith("@"):
        name = PIECE_NAMES.get(origin[0].lower(), origin[0]).capitalize()
        return Option(f"#{origin}", f"drop a {name}", f"{count} square{'s' if count > 1 else ''}")
    man = _man(pieces, origin)
    return Option(f"#{origin}", f"{man} {origin}".strip(), f"{count} move{'s' if count > 1 else ''}")


def _prompt(following: list[str], origin: str, depth: int, pieces: dict[str, str]) -> str:
    if not following:
        return "Nothing can follow: confirm the turn."
    if origin.endswith("@"):
        return f"Pick where to drop the {PIECE_NAMES.get(origin[0].lower(), origin[0])}."
    if origin:
        return f"Pick where the {_man(pieces, origin)} {origin} goes."
    if all("/" in p for p in following):
        return "Pick the swap."
    if depth and all("@" in p for p in following):
        return "Pick where to place the man."
    return "Pick your move." if depth == 0 else "Pick the next part."


def labels_for(game: Game, parts: tuple[str, ...], matching: list[tuple[str, ...]],
               view: BoardView | None = None) -> list[str]:
    """Words for each part already chosen (`view`: the game's current view, if at hand)."""
    words = []
    for index in range(len(parts)):
        before = _pieces_after(game, parts[:index], view)
        words.append(_part_labels(game, parts[:index], [t for t in matching if len(t) > index], before)
                     .get(parts[index], parts[index]))
    return words


def _part_labels(game: Game, parts: tuple[str, ...], matching: list[tuple[str, ...]],
                 pieces: dict[str, str]) -> dict[str, str]:
    """part text -> words, for every part that can come after `parts`."""
    depth = len(parts)
    labels: dict[str, str] = {}
    for turn in matching:
        if len(turn) <= depth or turn[depth] in labels:
            continue
        part = turn[depth]
        labels[part] = _words(game, turn, depth, part, pieces)
    return labels


def _words(game: Game, turn: tuple[str, ...], depth: int, part: str, pieces: dict[str, str]) -> str:
    if part == "pass":
        return "pass"
    if "@" in part:
        letter, square = part.split("@", 1)
        name = PIECE_NAMES.get(letter.lower(), letter).capitalize()
        return f"drop a {name} on {square}" if depth == 0 else f"place the {name} on {square}"
    if "/" in part:
        first, rest = part.split("/", 1)
        second, promo = rest, ""
        match = re.fullmatch(r"([a-z][0-9]+)([qrbn]?)", rest)
        if match:
            second, promo = match.group(1), match.group(2)
        words = f"swap the {_man(pieces, first)} {first} with the {_man(pieces, second)} {second}"
        return words + (f", promoting to a {PIECE_NAMES[promo]}" if promo else "")
    if "|" in part:
        first, second = part.split("|", 1)
        return f"the {_man(pieces, first)} {first} mirrors the {_man(pieces, second)} {second}"
    san = game.label(" ".join(turn)).split(LABEL_JOIN)
    if len(san) == len(turn) and san[depth] != part:
        return san[depth]
    match = re.fullmatch(r"([a-z][0-9]+)([a-z][0-9]+)([qrbnk]?)", part)
    if not match:
        return part
    start, end, promo = match.groups()
    target = pieces.get(end)
    words = f"{_man(pieces, start)} {start} {'takes ' + _man(pieces, end) + ' ' if target else 'to '}{end}"
    return words + (f", becoming a {PIECE_NAMES.get(promo, promo)}" if promo else "")


def _man(pieces: dict[str, str], square: str) -> str:
    letter = pieces.get(square, "")
    return PIECE_NAMES.get(letter.lower(), "man") if letter else "man"


def _pieces_after(game: Game, parts: tuple[str, ...], view: BoardView | None = None) -> dict[str, str]:
    """The men by square after `parts` (enough to name them in labels; castling's rook and en
    passant are left out). `view`: the game's current view, if at hand."""
    pieces = dict((view or game.view()).pieces)
    for part in parts:
        if "@" in part:
            letter, square = part.split("@", 1)
            pieces[square] = letter
        elif "/" in part:
            first, second = part[:2], part[3:5]
            pieces[first], pieces[second] = pieces.get(second, ""), pieces.get(first, "")
        else:
            match = re.fullmatch(r"([a-z][0-9]+)([a-z][0-9]+)([qrbnk]?)", part)
            if match:
                start, end, promo = match.groups()
                man = pieces.pop(start, "")
                pieces[end] = (promo.upper() if man.isupper() else promo) if promo else man
    return {square: letter for square, letter in pieces.items() if letter}
