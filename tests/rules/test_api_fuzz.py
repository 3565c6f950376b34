"""The rules API under arbitrary input, for every registered variant (property-based).

Any text given to play() is either a move (returned in canonical form) or refused with
IllegalMove, leaving the game as it was; any FEN given to new_game() either loads a working game
or is refused with ValueError; legal moves and undos always agree with a replay from the start.
The positions fuzzed come from 16 seeded games per variant (16 deals of a seeded puzzle), each walked
once and shared by the tests, at any ply up to PLIES.
"""
from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import rules

SLUGS = sorted(rules.VARIANTS)
FUZZ = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
# Fewer examples for the variants whose turns are by far the costliest to list; their contract tests
# already play and undo every legal move, and their recorded games replay in test_behaviour_corpus.
FEWER = {"balanced-swap": 10}


def fuzzed(**strategies):
    """@given(**strategies) with FUZZ for each variant (FEWER's examples where it names one), as one
    test per slug taking the slug first."""
    def decorate(body):
        runs = {n: settings(FUZZ, max_examples=n)(given(**strategies)(body))
                for n in {FUZZ.max_examples, *FEWER.values()}}

        @pytest.mark.parametrize("slug", SLUGS)
        def test(slug):
            runs[FEWER.get(slug, FUZZ.max_examples)](slug)
        test.__name__ = test.__qualname__ = body.__name__
        return test
    return decorate


SQUARE = re.compile(r"[a-z][0-9]+")
LOOK_ALIKES = {
    "0": "O", "O": "0", "1": "١", "2": "２", "3": "³", "4": "٤", "5": "⁵", "6": "6\u0336",
    "7": "7\u200b", "8": "８", "e": "е", "a": "ａ", "-": "–", "x": "×", " ": "\u00a0",
}
SUFFIXES = ["+", "#", "!", "?", "!!", "=Q", "=q", "=K", "=k", "q", "k", "p", "x", "e.p.", " ",
            "\x00", "/", "/a1", " a1/a2", "\u0301", "🙂"]
PREFIXES = ["K", "Q", "R", "B", "N", "P", "x", "-", " ", "0-0", "O-O-O", "\ufeff"]
BAD_SQUARES = ["i9", "a0", "z99", "e10", "a-1", "h9", "j1", "e", "4", "00", "a1a1"]
MOVE_ALPHABET = "abcdefghijklmnopqrstuvwxyzKQRBNPO0123456789-=+#x/@* .!?"


SEEDS = st.integers(0, 15)   # the seeded games whose positions are fuzzed (each walked once per variant)
PLIES = 30                   # at most this many random legal turns into such a game


@functools.cache
def line(slug: str, seed: int) -> tuple[tuple, ...]:
    """What `snapshot` says at each position of a game of `slug` along up to PLIES random legal
    turns, all fixed by `seed` (walked once: each example reads its position from here)."""
    game = rules.new_game(slug, seed=seed)
    rng = random.Random(seed)
    seen = [snapshot(game)]
    for _ in range(PLIES):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
        seen.append(snapshot(game))
    return tuple(seen)


def walked(slug: str, seed: int, plies: int) -> tuple[rules.Game, tuple]:
    """A game of `slug` after the first `plies` turns of `line(slug, seed)`, each played as listed
    (with nothing of the walk cached in it), and the snapshot of that position."""
    seen = line(slug, seed)
    before = seen[min(plies, len(seen) - 1)]
    game = rules.new_game(slug, seed=seed)
    for move in before[1]:
        game.play_listed(move)
    return game, before


def snapshot(game: rules.Game) -> tuple:
    return game.fen(), game.history, sorted(game.legal_moves()), game.outcome


@st.composite
def mutated(draw, base: str, alphabet: str = MOVE_ALPHABET) -> str:
    """`base` with one to three small mistakes in it."""
    text = base
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "swap-case", "look-alike", "square",
                                     "suffix", "prefix", "double", "cut"]))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(alphabet)) + text[at:]
        elif kind == "delete" and text:
            text = text[:at] + text[at + 1:]
        elif kind == "replace" and at < len(text):
            text = text[:at] + draw(st.sampled_from(alphabet)) + text[at + 1:]
        elif kind == "swap-case":
            text = text.swapcase()
        elif kind == "look-alike":
            text = "".join(LOOK_ALIKES.get(c, c) if draw(st.booleans()) else c for c in text)
        elif kind == "square" and SQUARE.search(text):
            text = SQUARE.sub(lambda _: draw(st.sampled_from(BAD_SQUARES + ["a1", "e4", "h8", "c3"])), text, count=1)
        elif kind == "suffix":
            text += draw(st.sampled_from(SUFFIXES))
        elif kind == "prefix":
            text = draw(st.sampled_from(PREFIXES)) + text
        elif kind == "double":
            text = text + draw(st.sampled_from(["", " ", "\n", "\t"])) + text
        elif kind == "cut":
            text = text[:at]
    return text


def move_texts(legal: list[str]) -> st.SearchStrategy[str]:
    """Random strings, near misses of the legal moves, very long strings, unicode."""
    choices = [
        st.text(max_size=30),
        st.text(alphabet=MOVE_ALPHABET, min_size=1, max_size=12),
        LONG_TEXTS,
        st.builds(lambda a, b: a + b, st.sampled_from(BAD_SQUARES + ["e2", "g1", "a7"]),
                  st.sampled_from(BAD_SQUARES + ["e4", "f3", "a8"])),
        st.sampled_from(["O-O", "0-0-0", "o-o", "Nf3", "e8=Q", "exd6", "e2e4", "Kxe1", "P@e4", "--", "0000",
                         "(none)", "None", "\x00", " ", "\u200b", "e2e4 " * 5]),
    ]
    if legal:
        choices.append(st.sampled_from(legal).flatmap(mutated))
        choices.append(st.builds(lambda a, b: f"{a} {b}", st.sampled_from(legal), st.sampled_from(legal)))
    return st.one_of(choices)


@fuzzed(seed=SEEDS, plies=st.integers(0, PLIES), data=st.data())
def test_any_text_is_a_move_or_refused_with_the_game_unchanged(slug, seed, plies, data):
    game, before = walked(slug, seed, plies)    # played on with its caches cold
    text = data.draw(move_texts(before[2]), label="text")
    try:
        played = game.play(text)
    except rules.IllegalMove as exc:
        assert str(exc).strip(), "a refusal must say why"
        assert snapshot(game) == before
        event("refused")
        return
    event("played")
    assert played in before[2], f"{text!r} played {played!r}, which is not a legal move"
    assert game.history == before[1] + [played]
    twin, _ = walked(slug, seed, plies)         # the same position, to compare with
    twin.play(played)
    assert game.fen() == twin.fen()


FEN_TOKENS = st.one_of(
    st.sampled_from(["-", "w", "b", "W", "x", "KQkq", "KQkqKQkq", "AHah", "e3", "e6", "a9", "0", "-1",
                     "99999999999999999999", "½", "²", "٣", "+0+0", "+9+9", "-/-", "q/-", "1", "2",
                     "8/8/8/8/8/8/8/8", "K7/8/8/8/8/8/8/7k", "9/8/8/8/8/8/8/8", "PPPPPPPP/" * 8]),
    st.text(alphabet="KQRBNPkqrbnp12345678/-wb", max_size=20),
    st.text(max_size=8),
)
# Strategies and composites are built once, here: built afresh for every example, hypothesis
# validates each again and reads the source of each composite (more time than the rules take).
LONG_TEXTS = st.builds(lambda part, n: part * n, st.text(min_size=1, max_size=6), st.integers(200, 3000))


@st.composite
def field_swapped(draw, fields: list[str]) -> str:
    parts = list(fields)
    at = draw(st.integers(0, len(parts)))
    token = draw(FEN_TOKENS)
    mode = draw(st.sampled_from(["replace", "insert", "drop"]))
    if mode == "replace" and at < len(parts):
        parts[at] = token
    elif mode == "insert":
        parts.insert(at, token)
    elif parts:
        del parts[min(at, len(parts) - 1)]
    return " ".join(parts)


@st.composite
def men_moved(draw, fields: list[str]) -> str:
    """The same board with men added, removed or exchanged: mostly FENs that still parse."""
    rows = [re.sub(r"[0-9]", lambda m: "." * int(m.group()), row) for row in fields[0].split("/")]
    grid = [list(row) for row in rows]
    for _ in range(draw(st.integers(1, 4))):
        r, f = draw(st.integers(0, len(grid) - 1)), draw(st.integers(0, max(len(grid[0]) - 1, 0)))
        if f < len(grid[r]):
            grid[r][f] = draw(st.sampled_from("KQRBNPkqrbnp...."))
    board = "/".join(re.sub(r"\.+", lambda m: str(len(m.group())), "".join(row)) for row in grid)
    rest = list(fields[1:])
    if rest and draw(st.booleans()):
        rest[0] = draw(st.sampled_from(["w", "b"])) if len(rest[0]) == 1 else rest[0]
    return " ".join([board, *rest])


def fen_texts(fen: str) -> st.SearchStrategy[str]:
    fields = fen.split()
    return st.one_of(
        st.text(max_size=40),
        field_swapped(fields),
        men_moved(fields),
        mutated(fen, "KQRBNPkqrbnp0123456789/- wb+"),
        LONG_TEXTS,
    )


@fuzzed(seed=SEEDS, plies=st.integers(0, PLIES), data=st.data())
def test_any_fen_loads_a_working_game_or_is_refused_with_value_error(slug, seed, plies, data):
    seen = line(slug, seed)
    text = data.draw(fen_texts(seen[min(plies, len(seen) - 1)][0]), label="fen")
    try:
        game = rules.new_game(slug, fen=text)
    except ValueError as exc:
        assert str(exc).strip(), "a refused FEN must say why"
        event("refused")
        return
    event("loaded")
    fen = game.fen()
    legal = game.legal_moves()
    assert game.turn in (rules.WHITE, rules.BLACK)
    game.view()
    game.describe()
    outcome = game.outcome
    again = rules.new_game(slug, fen=fen)
    assert again.fen() == fen, "the FEN a game writes must load back to the same position"
    assert sorted(again.legal_moves()) == sorted(legal)
    assert again.outcome == outcome
    if legal:
        move = data.draw(st.sampled_from(legal), label="move")
        assert game.play(move) == move
        assert game.fen() and (game.outcome is None or game.outcome.result)
        assert game.undo() == move
        assert game.fen() == fen


STEP = st.one_of(st.just("undo"), st.integers(0, 10**6))


@fuzzed(seed=st.integers(-2**70, 2**70), steps=st.lists(STEP, max_size=40))
def test_legal_moves_and_undos_agree_with_a_replay_from_the_start(slug, seed, steps):
    game = rules.new_game(slug, seed=seed)
    start = game.fen()
    assert rules.new_game(slug, fen=start).fen() == start
    # A replay from the start of each history reached, kept: an undo goes back to a history seen
    # before, whose replay is known; a turn played on extends the replay only if it is the one played
    # from there last, else the replay is played again from the start (a replay never undoes).
    replayed: dict[tuple[str, ...], tuple] = {}
    replay = rules.new_game(slug, seed=seed)
    for step in steps:
        if step == "undo":
            history = game.history
            if history:
                assert game.undo() == history[-1]
            else:
                with pytest.raises(rules.IllegalMove):
                    game.undo()
                assert game.fen() == start
        else:
            legal = game.legal_moves()
            if not legal:
                continue
            move = legal[step % len(legal)]
            assert game.play(move) == move
        history = tuple(game.history)
        if history not in replayed:
            if replay.history != list(history[:-1]):
                replay = rules.new_game(slug, seed=seed)
                for move in history[:-1]:
                    replay.play(move)
            if history:
                replay.play(history[-1])
            replayed[history] = replay.fen(), sorted(replay.legal_moves()), replay.outcome
        assert replayed[history] == (game.fen(), sorted(game.legal_moves()), game.outcome)
