"""Every variant behaves as the recorded corpus says, position by position (one test id per variant).

The corpus (tests/rules/data/corpus/, written by tests/rules/corpus_record.py) holds seeded random
games of every variant; replaying them through the public API must give the same FEN, turn,
legal turns, labels, outcome, claimable draw, score, last-turn label and board view at every
observed position, the same answer to every recorded text (the canonical turn, or the same
refusal sentence), the same canonical turn for each label typed, and the same FENs on undo.
"""
from __future__ import annotations

import pytest

import rules

from .corpus_record import CORPUS, info_of, load, observe

SLUGS = sorted(rules.VARIANTS)
UNDONE = 12   # plies taken back at the end of each game, each to its recorded position


def first_difference(expected: dict, got: dict) -> str | None:
    for key in sorted(set(expected) | set(got)):
        if expected.get(key) != got.get(key):
            return f"{key}: recorded {expected.get(key)!r}, now {got.get(key)!r}"
    return None


def test_the_corpus_covers_every_variant():
    recorded = sorted(path.name.removesuffix(".jsonl.gz") for path in CORPUS.glob("*.jsonl.gz"))
    assert recorded == SLUGS


@pytest.mark.parametrize("slug", SLUGS)
def test_variant_behaves_as_recorded(slug):
    info, games = load(slug)
    assert info_of(slug) == info
    for recorded in games:
        game = rules.new_game(slug, seed=recorded["seed"], fen=recorded.get("fen"))
        positions = recorded["positions"]
        for ply, seen in enumerate(positions):
            if "turn" in seen:
                got = observe(game, [text for text, _ in seen["probes"]], reload="reload" in seen)
            else:
                got = {"fen": game.fen()}
            if "typed" in seen:
                got["typed"], got["played"] = seen["typed"], game.play(seen["typed"])
            elif "played" in seen:
                got["played"] = game.play(seen["played"])
            difference = first_difference(seen, got)
            assert difference is None, f"{slug}, seed {recorded['seed']}, ply {ply}: {difference}"
        assert game.history == [seen["played"] for seen in positions[:-1]]
        for ply in range(len(positions) - 2, max(len(positions) - 2 - UNDONE, -1), -1):
            assert game.undo() == positions[ply]["played"]
            assert game.fen() == positions[ply]["fen"], f"{slug}, seed {recorded['seed']}: undo to ply {ply}"
