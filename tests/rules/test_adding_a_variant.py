"""A variant declared in a few lines (tests/rules/king_of_the_hill.py) plays correctly."""
import re
from pathlib import Path

import chess
import chess.variant
import pytest

from rules.chess_variant import ChessGame
from tests.rules import king_of_the_hill
from tests.rules.king_of_the_hill import VARIANT

ROOT = Path(__file__).resolve().parents[2]


def new_game(fen: str | None = None) -> ChessGame[None]:
    return ChessGame(VARIANT, fen=fen)


def test_the_readme_example_is_this_fixture_word_for_word():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Adding a variant", 1)[1].split("\n#", 1)[0]
    example = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    fixture = Path(king_of_the_hill.__file__).read_text(encoding="utf-8")
    code = fixture.split('"""', 2)[2].lstrip("\n")   # after the docstring
    assert example == [code]


def test_a_king_reaching_the_hill_wins():
    game = new_game("4k3/p7/8/8/8/3K4/P7/8 w - - 0 1")
    game.play("Kd4")
    assert (game.outcome.result, game.outcome.kind) == ("1-0", "goal")
    assert game.legal_moves() == []


def test_a_king_next_to_the_hill_has_not_won():
    game = new_game("4k3/p7/8/8/8/3K4/P7/8 w - - 0 1")
    game.play("Kc4")
    assert game.outcome is None


def test_black_wins_on_the_hill_too():
    game = new_game("8/p7/4k3/8/8/8/P7/K7 b - - 0 1")
    game.play("Ke5")
    assert game.outcome.winner == "black"


def test_checkmate_still_wins_and_moves_are_fide():
    game = new_game()
    assert len(game.legal_moves()) == 20
    for move in ["f3", "e5", "g4", "Qh4"]:
        game.play(move)
    assert (game.outcome.result, game.outcome.kind) == ("0-1", "checkmate")


def test_a_king_may_not_walk_onto_the_hill_into_check():
    game = new_game("4k3/8/8/8/2r5/3K4/8/8 w - - 0 1")
    assert "d3d4" not in game.legal_moves() and "d3e4" not in game.legal_moves()
    assert chess.Board(game.fen()).fen() == "4k3/8/8/8/2r5/3K4/8/8 w - - 0 1"


@pytest.mark.parametrize("fen", ["4k3/8/8/8/3K4/8/8/8 w - - 0 1", "8/8/8/4k3/8/8/8/4K3 b - - 0 1",
                                 "8/8/8/4k3/8/8/8/4K3 w - - 0 1"])
def test_a_position_read_with_a_king_already_on_the_hill_is_over_as_in_python_chess(fen):
    expected = chess.variant.KingOfTheHillBoard(fen).outcome()
    outcome = new_game(fen).outcome
    assert expected is not None and outcome is not None
    assert outcome.winner == ("white" if expected.winner else "black") and outcome.kind == "goal"
