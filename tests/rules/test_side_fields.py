"""Extra state kept per side as one FEN field (rules.side_fields), and refusals worded by part, as data."""
import chess
import pytest

import rules
from rules.chess_variant import ChessGame, ChessVariant
from rules.side_fields import Counts, Kinds, of


def test_counts_read_and_write_plus_w_plus_b_up_to_their_top():
    checks = Counts(3, "Counts as +W+B, 0-3 each.")
    assert checks.parse(["+2+0"]) == (2, 0) and checks.format((2, 0)) == ["+2+0"]
    for fields in (["+4+0"], ["+1"], ["3+3"], ["+1+1", "x"], ["+٣+0"]):
        with pytest.raises(ValueError, match=r"^Counts as \+W\+B, 0-3 each\.$"):
            checks.parse(fields)
    assert checks.add((2, 3), chess.WHITE) == (3, 3) and checks.add((2, 3), chess.BLACK) == (2, 3)
    assert of((2, 3), chess.BLACK) == 3


def test_kinds_are_written_in_a_fixed_order_once_each():
    taken = Kinds("Some Chess", "captured kinds")
    assert taken.parse(["NP/-"]) == ("pn", "") and taken.parse(["-"]) == ("", "")
    assert taken.format(("pn", "")) == ["pn/-"]
    assert taken.add(("pn", "q"), chess.WHITE, chess.PAWN) == ("pn", "q")
    assert taken.add(("pn", "q"), chess.BLACK, chess.KING) == ("pn", "qk")
    for fields, said in ((["pn", "-"], "Some Chess FEN has at most seven fields"),
                         (["pn"], "lists captured kinds as W/B"),
                         (["px/-"], "Captured kinds must be letters from 'pnbrqk'"), (["pp/-"], "not 'pp'")):
        with pytest.raises(ValueError, match=said):
            taken.parse(fields)


def test_a_variant_with_a_state_field_carries_it_as_fen_field_seven():
    class Counted(ChessVariant[tuple[int, int]]):
        initial_state = (0, 0)
        state_field = Counts(3, "No.")

    game = ChessGame(Counted(), fen=chess.STARTING_FEN + " +1+2")
    assert game.fen().endswith(" +1+2") and ChessGame(Counted()).fen().endswith(" +0+0")


class Worded(ChessVariant[None]):
    name = "Worded Chess"
    initial_state = None
    promotions = "qr"
    castling_refusal = "You may not castle through an attacked square."
    promotion_refusal = "Only a Queen or Rook."


def test_refusals_by_part_word_the_castling_tries_and_promotions_the_rules_leave_out():
    fen = "1n2k2r/P7/8/8/8/8/8/4KR2 b k - 0 1"     # the f1 Rook guards f8
    game = ChessGame(Worded(), fen=fen.replace(" b ", " w "))
    for typed in ("a7a8n", "a8=N", "axb8=B"):
        with pytest.raises(rules.IllegalMove, match="^Only a Queen or Rook.$"):
            game.play(typed)
    assert {m for m in game.legal_moves() if m.startswith("a7")} == {"a7a8q", "a7a8r", "a7b8q", "a7b8r"}
    game = ChessGame(Worded(), fen=fen)
    for typed in ("O-O", "0-0"):
        with pytest.raises(rules.IllegalMove, match="^You may not castle through an attacked square.$"):
            game.play(typed)
    assert game.fen() == fen and "e8g8" not in game.legal_moves()
