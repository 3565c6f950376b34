"""Donnybrook Chess through the public API: no check, both monarchs to take, returned men."""
import chess
import pytest

import rules
from bot.service import suggest
from rules.variants.donnybrook import VARIANT

from .support import refusal
from tests.rules.variants.support import perft

SLUG = "donnybrook"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


# -- an independent slow reading: queens become kings for python-chess, placements tried one by one
def slow_turns(fen):
    """Every turn by brute force: for each placement, python-chess's pseudo-legal moves on a board
    where each Queen is written as a King (they move alike), minus castling and Queen promotions,
    minus moves of the man just placed."""
    position = VARIANT.load(fen)
    board = position.board
    waiting = position.hand(board.turn)

    def moves(b, skip=None):
        twin = b.copy(stack=False)
        for sq in chess.scan_forward(b.queens):
            twin.set_piece_at(sq, chess.Piece(chess.KING, b.color_at(sq)))
        twin.castling_rights = 0
        return {m.uci() for m in twin.generate_pseudo_legal_moves()
                if m.promotion != chess.QUEEN and m.from_square != skip}

    if not waiting:
        return moves(board)
    out = set()
    for sq in chess.SQUARES:
        if board.piece_at(sq) is None:
            b = board.copy(stack=False)
            b.set_piece_at(sq, chess.Piece(chess.PIECE_SYMBOLS.index(waiting.lower()), b.turn))
            out |= {f"{waiting}@{chess.square_name(sq)} {m}" for m in moves(b, skip=sq)}
    return out


def slow_perft(fen, depth):
    if depth == 0:
        return 1
    game = game_at(fen)
    if game.outcome:
        return 1
    total = 0
    for move in slow_turns(fen):
        game.play(move)
        total += slow_perft(game.fen(), depth - 1)
        game.undo()
    return total


# -- movement ---------------------------------------------------------------------------------------
def test_the_queen_steps_one_square_in_any_direction_like_the_king():
    game = game_at("4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1")
    queen = {m for m in game.legal_moves() if m.startswith("d4")}
    assert queen == {"d4" + s for s in ("c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5")}
    assert "queen moves only one square" in refusal(game, "d4d8").lower()


def test_move_counts_at_depths_one_to_three_from_the_start():
    game = rules.new_game(SLUG)
    assert len(game.legal_moves()) == 20            # 16 pawn moves, 4 knight moves; the Queen is boxed in
    assert perft(game, 2, ends_count=True) == 400
    assert perft(game, 3, ends_count=True) == slow_perft(chess.STARTING_FEN, 3)


@pytest.mark.parametrize("fen, counts, deepest", [
    # a lone Queen in the centre: 8 steps; King on h1: 3 steps
    ("7k/8/8/8/3Q4/8/8/7K w - - 0 1", (11,), 3),
    # a Rook waiting for Black: 61 vacant squares times the King's 5 steps, minus the 5 placements
    # that take a square from the King (hand-counted)
    ("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1", (300,), 2),
    # Rooks and Queens that can take each other at once: placements at depth 2
    ("r3k3/1q6/8/8/8/8/1Q6/R3K3 w - - 0 1", (), 2),
    ("4k3/1p6/8/3b4/8/8/6P1/R3K2Q[R] w - - 0 1", (), 2),
])
def test_move_counts_agree_with_a_slow_reading(fen, counts, deepest):
    for depth, count in enumerate(counts, start=1):
        assert perft(game_at(fen), depth, ends_count=True) == count
    for depth in range(1, deepest + 1):
        assert perft(game_at(fen), depth, ends_count=True) == slow_perft(fen, depth)


def test_there_is_no_check_a_monarch_may_step_onto_an_attacked_square_or_be_left_en_prise():
    game = game_at("4k3/8/8/8/8/8/r7/4K3 w - - 0 1")
    assert {"e1d2", "e1e2", "e1f2"} <= set(game.legal_moves())
    assert game.view().checks == ()
    kings = game_at("8/8/8/3k4/8/3K4/8/8 w - - 0 1")
    assert "d3d4" in kings.legal_moves()          # Kings may stand side by side


def test_a_king_may_capture_a_defended_man_and_monarchs_are_captured_like_any_man():
    game = game_at("4k3/8/8/8/8/3r4/3q4/4K2Q w - - 0 1")
    assert "e1d2" in game.legal_moves()
    game.play("e1d2")
    game.play("d3d2")                             # the White King is taken; White keeps playing
    assert game.outcome is None


def test_there_is_no_castling():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" not in game.legal_moves() and "e1c1" not in game.legal_moves()
    assert game.fen().split()[2] == "-"
    assert "no castling" in refusal(game, "e1g1")


def test_pawns_promote_only_to_rook_bishop_or_knight():
    game = game_at("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert {m for m in game.legal_moves() if m.startswith("a7a8")} == {"a7a8r", "a7a8b", "a7a8n"}
    assert "Rook, Bishop or Knight" in refusal(game, "a7a8q")


def test_double_step_and_en_passant_are_as_in_chess():
    game = game_at("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    game.play("d7d5")
    assert game.fen().split()[3] == "d6"
    game.play("e5d6")
    assert "d5" not in game.view().pieces


# -- the goal ---------------------------------------------------------------------------------------
def test_taking_one_monarch_does_not_end_the_game():
    game = game_at("4k3/8/8/8/8/8/8/r3K2Q b - - 0 1")
    game.play("a1e1")
    assert game.outcome is None
    assert "White: Queen." in game.view().caption


def test_taking_the_last_monarch_wins_whether_it_is_the_king_or_the_queen():
    queen_last = game_at("4k3/8/8/8/8/8/8/r6Q b - - 0 1")
    queen_last.play("a1h1")
    assert (queen_last.outcome.result, queen_last.outcome.reason) == ("0-1", "captured king and queen")
    king_last = game_at("4k3/8/8/8/8/8/8/r3K3 b - - 0 1")
    king_last.play("a1e1")
    assert (king_last.outcome.result, king_last.outcome.reason) == ("0-1", "captured king and queen")


def test_a_set_up_side_without_monarchs_has_lost():
    assert game_at("4k3/8/8/8/8/8/8/R7 w - - 0 1").outcome.result == "0-1"


def test_no_legal_turn_is_a_stalemate_draw():
    game = game_at("6bk/5prp/5PpP/6P1/8/8/8/K7 b - - 0 1")
    assert game.legal_moves() == []
    assert (game.outcome.result, game.outcome.reason) == ("1/2-1/2", "stalemate")


def test_a_placement_after_which_only_the_placed_man_could_move_is_no_turn():
    game = game_at("6bk/5prp/5PpP/6P1/8/8/8/K7[r] b - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome.reason == "stalemate"


def test_there_is_no_draw_for_insufficient_material():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert game.outcome is None


# -- returned men -------------------------------------------------------------------------------------
def capture_then_fen(fen, move):
    game = game_at(fen)
    game.play(move)
    return game


def test_a_captured_rook_always_returns_to_its_owner():
    game = capture_then_fen("2r1k3/8/8/8/8/2R5/8/7Q b - - 0 1", "c8c3")     # White has no King
    assert game.fen().startswith("4k3/8/8/8/8/2r5/8/7Q[R] w")
    assert game.view().hands["white"] == "R"


def test_a_captured_bishop_returns_only_while_its_owner_has_a_queen():
    assert "[B]" in capture_then_fen("2r1k3/8/8/8/8/2B5/8/4K2Q b - - 0 1", "c8c3").fen()
    assert "[" not in capture_then_fen("2r1k3/8/8/8/8/2B5/8/4K3 b - - 0 1", "c8c3").fen()


def test_a_captured_knight_returns_only_while_its_owner_has_a_king():
    assert "[N]" in capture_then_fen("2r1k3/8/8/8/8/2N5/8/4K3 b - - 0 1", "c8c3").fen()
    assert "[" not in capture_then_fen("2r1k3/8/8/8/8/2N5/8/7Q b - - 0 1", "c8c3").fen()


def test_captured_pawns_kings_and_queens_leave_the_game():
    for man in "PQ":
        fen = f"2r1k3/8/8/8/8/2{man}5/8/4K2Q b - - 0 1"
        assert "[" not in capture_then_fen(fen, "c8c3").fen()
    assert "[" not in capture_then_fen("4k3/8/8/8/8/8/8/r3K2Q b - - 0 1", "a1e1").fen()


def test_a_returned_bishop_for_black_is_written_in_lower_case():
    game = capture_then_fen("4k2q/8/8/2b5/8/8/8/2R1K3 w - - 0 1", "c1c5")
    assert game.fen() == "4k2q/8/8/2R5/8/8/8/4K3[b] b - - 0 1"


def test_a_promoted_man_returns_as_what_it_is_now():
    game = game_at("4k3/R7/8/8/8/8/8/4K3 b - - 0 1")
    # the Rook on a7 might have been a pawn: the board does not remember, it comes back a Rook
    game.play("e8d8")
    game.play("a7a8")
    game.play("d8c8")
    game.play("a8c8")
    assert game.fen() == "2R5/8/8/8/8/8/8/4K3 b - - 0 3"   # Black lost his King and had no Queen
    promoted = game_at("4k3/8/8/8/8/8/1p5r/R3K3 b - - 0 1")
    promoted.play("b2a1r")
    assert promoted.fen().startswith("4k3/8/8/8/8/8/7r/r3K3[R] w")


def test_the_owner_must_put_the_returned_man_back_before_moving():
    game = game_at("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1")
    assert all(m.startswith("R@") and len(m.split()) == 2 for m in game.legal_moves())
    message = refusal(game, "d8d7")
    assert "Rook comes back first" in message and "R@" in message


def test_the_man_put_back_may_not_move_that_turn():
    game = game_at("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1")
    assert not any(m.split()[1].startswith(m.split()[0][2:]) for m in game.legal_moves())
    assert "may not move this turn" in refusal(game, "R@d4 d4d5")


def test_a_returned_man_goes_on_any_vacant_square_and_a_bishop_on_either_colour():
    game = game_at("3k4/8/8/8/8/8/8/B3K2Q[b] b - - 0 1")
    squares = {m.split()[0][2:] for m in game.legal_moves()}
    vacant = {chess.square_name(s) for s in chess.SQUARES} - {"d8", "a1", "e1", "h1"}
    assert squares == vacant
    assert "not vacant" in refusal(game, "B@e1 d8d7")
    assert "your Bishop" in refusal(game, "N@d4 d8d7")


def test_a_returned_man_may_be_put_where_it_attacks_an_enemy_monarch():
    game = game_at("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1")
    assert "R@e4 d8c7" in game.legal_moves()


def test_the_placement_and_move_can_be_typed_in_any_case_and_with_san():
    game = game_at("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1")
    assert game.play("r@d4 Kc7") == "R@d4 d8c7"
    assert game.last_move_label() == "R@d4, Kc7"


def test_the_placement_alone_is_not_a_turn():
    game = game_at("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1")
    assert "only the placement" in refusal(game, "R@d4")


def test_without_a_waiting_man_a_placement_is_refused():
    assert "no captured man waiting" in refusal(rules.new_game(SLUG), "R@d4 g1f3")


def test_placing_a_man_does_not_reset_the_fifty_move_count():
    game = game_at("3k4/8/8/8/8/8/R7/4K3[r] b - - 7 1")
    game.play("R@d4 d8c7")
    assert game.fen().split()[-2] == "8"


def test_a_waiting_man_is_part_of_the_position_for_repetition():
    waiting = VARIANT.load("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1")
    plain = VARIANT.load("3k4/8/8/8/8/8/R7/4K3 b - - 0 1")
    assert waiting.key() != plain.key()


# -- FEN and what the board shows -----------------------------------------------------------------------
def test_the_fen_round_trips_the_waiting_man_and_a_plain_fen_means_nothing_waits():
    fen = "3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1"
    assert game_at(fen).fen() == fen
    assert game_at("3k4/8/8/8/8/8/R7/4K3 b - - 0 1").legal_moves()[0].count(" ") == 0


@pytest.mark.parametrize("fen", [
    "3k4/8/8/8/8/8/R7/4K3[rn] b - - 0 1",     # two men waiting
    "3k4/8/8/8/8/8/R7/4K3[R] b - - 0 1",      # White's man while Black moves
    "3k4/8/8/8/8/8/R7/4K3[p] b - - 0 1",      # pawns never return
])
def test_impossible_waiting_men_are_refused(fen):
    with pytest.raises(ValueError):
        rules.new_game(SLUG, fen=fen)


def test_the_caption_names_the_waiting_man_and_each_sides_monarchs():
    view = game_at("3k4/8/8/8/8/8/R7/7Q[r] b - - 0 1").view()
    assert "Black's Rook waits to be put back" in view.caption
    assert "White: Queen." in view.caption and "Black: King." in view.caption
    assert view.hands == {"white": "", "black": "r"}   # in its owner's colour, as it is put back


def test_typed_turns_are_suggested_part_by_part():
    game = game_at("3k4/8/8/8/8/8/R7/4K3[r] b - - 0 1")
    firsts = [value for value, _ in suggest(game, "", 25)]
    assert firsts and all(" " not in v and v.startswith("R@") for v in firsts)
    seconds = [value for value, _ in suggest(game, "R@d4 ", 25)]
    assert set(seconds) == {"R@d4 " + m for m in ("d8c8", "d8c7", "d8d7", "d8e7", "d8e8")}


def test_en_passant_is_shown_even_when_it_would_expose_the_king():
    # the capture e5d6 would open the a5-h5... rank to the Rook on a5 against the King h5: no check here
    game = game_at("4k3/3p4/8/r3P2K/8/8/8/8 b - - 0 1")
    game.play("d7d5")
    assert game.fen().split()[3] == "d6"
    assert "e5d6" in game.legal_moves()
