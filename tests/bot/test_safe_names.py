"""Names are safe everywhere they go: PGN tags escape quotes and backslashes and stay on one line;
thread names drop control and text-direction characters."""
from __future__ import annotations

import io
import re

import chess.pgn
import pytest

from bot.names import escape
from bot.pgn import game_pgn
from bot.store import GameRecord
from bot.discord.components.threads import thread_name

TYPED = 'Ann "the \\Rook"\n[Black "x"]'   # what a member could call themselves
SHOWN = 'Ann "the \\Rook" [Black "x"]'     # on one line, otherwise as typed


@pytest.mark.parametrize("slug, moves", [("standard", ["e2e4", "e7e5"]), ("zoo", [])])
def test_pgn_tags_escape_quotes_and_backslashes_and_stay_on_one_line(slug, moves):
    record = GameRecord(slug, "c", [("1", TYPED), ("2", "bob")], "x", "active", "g", id=5, seed=1, moves=moves,
                        created_at="2026-11-23T10:00:00+00:00")
    text = game_pgn(record, moves, "final")
    tags = [line for line in text.splitlines() if line.startswith("[")]
    assert '[White "Ann \\"the \\\\Rook\\" [Black \\"x\\"]"]' in tags
    assert [t for t in tags if t.startswith("[Black ")] == ['[Black "bob"]']
    white = re.fullmatch(r'\[White "((?:[^"\\]|\\.)*)"\]', next(t for t in tags if t.startswith("[White ")))
    assert white is not None and re.sub(r"\\(.)", r"\1", white[1]) == SHOWN   # PGN's string token, read back
    assert chess.pgn.read_game(io.StringIO(text)).headers["Black"] == "bob"


def test_thread_names_drop_control_and_direction_characters():
    name = thread_name(escape("eve\u202elivE\u2066\u200f\x00\tbob\u2069"), "Zoo Chess")
    assert name == "evelivE bob · Zoo Chess"


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85"])
def test_line_and_paragraph_separators_become_a_space_in_thread_names_and_pgn_tags(brk):
    assert thread_name(escape(f"ann{brk}[Black \"x\"]"), "Zoo Chess") == 'ann [Black "x"] · Zoo Chess'
    record = GameRecord("zoo", "c", [("1", f"ann{brk}eve"), ("2", "bob")], "x", "active", "g", id=5, seed=1,
                        moves=[], created_at="2026-11-23T10:00:00+00:00")
    assert '[White "ann eve"]' in game_pgn(record, [], "final").split("\n")
