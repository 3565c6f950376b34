"""Tyrant Chess through the public API: only monarchs capture, captured monarchs are placed back."""
import chess
import pytest

import rules
from rules.variants.tyrant import VARIANT, placements

from .support import refusal

SLUG = "tyrant"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def test_only_kings_and_queens_capture():
    game = game_at("4k3/8/8/3p4/8/8/8/3RK2Q w - - 0 1")
    assert "d1d5" not in game.legal_moves()
    assert "d1d4" in game.legal_moves()
    assert "Only Kings and Queens capture" in refusal(game, "d1d5")
    king_game = game_at("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
    assert "e1d2" in king_game.legal_moves()


def test_pawns_never_capture_and_there_is_no_en_passant():
    game = game_at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    assert "e5d6" not in game.legal_moves()
    assert game.fen().split()[3] == "-"
    blocked = game_at("4k3/8/8/8/8/3n4/3P4/4K3 w - - 0 1")
    assert not any(m.startswith("d2") for m in blocked.legal_moves())


def test_pawns_keep_their_initial_double_step():
    assert "e2e4" in rules.new_game(SLUG).legal_moves()


def test_there_is_no_check_a_king_may_step_onto_an_attacked_square():
    game = game_at("4k3/8/8/8/8/8/r7/4K3 w - - 0 1")
    assert {"e1e2", "e1d2", "e1f2"} <= set(game.legal_moves())
    assert game.view().checks == ()


def test_there_is_no_castling():
    game = game_at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" not in game.legal_moves()
    assert game.fen().split()[2] == "-"


def test_pawns_promote_only_to_rook_bishop_or_knight():
    game = game_at("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert {m for m in game.legal_moves() if m.startswith("a7a8")} == {"a7a8r", "a7a8b", "a7a8n"}
    assert "Rook, Bishop or Knight" in refusal(game, "a7a8q")


def test_capturing_a_monarch_places_it_back_as_the_second_part_of_the_turn():
    game = game_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")
    turns = [m for m in game.legal_moves() if m.startswith("d1d8")]
    assert turns and all(len(m.split()) == 2 and m.split()[1].startswith("Q@") for m in turns)
    assert game.play("Qxd8 Q@a1") == "d1d8 Q@a1"
    assert game.fen().startswith("3Qk3/8/8/8/8/8/8/q3K3")
    assert game.last_move_label() == "Qxd8, Q@a1"


def test_the_placement_part_is_compulsory():
    game = game_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")
    message = refusal(game, "d1d8")
    assert "d1d8" in message and "Q@" in message


def test_the_placed_monarch_avoids_squares_the_capturers_king_and_queen_attack():
    game = game_at("3qk3/8/8/8/8/8/p7/3QK3 w - - 0 1")
    squares = {m.split()[1][2:] for m in game.legal_moves() if m.startswith("d1d8")}
    board = chess.Board("3Qk3/8/8/8/8/8/p7/4K3 b - - 0 1")
    attacked = chess.SquareSet(board.attacks(chess.D8) | board.attacks(chess.E1))
    assert squares and not any(chess.parse_square(s) in attacked for s in squares)
    assert "a2" not in squares and "d1" not in squares    # occupied / attacked by the queen on d8
    assert "f1" not in squares                             # next to the white king
    assert "a1" in squares


def test_a_placement_with_no_safe_square_may_use_any_empty_square():
    board = chess.Board(None)
    board.set_piece_at(chess.A1, chess.Piece(chess.QUEEN, chess.WHITE))
    board.set_piece_at(chess.H8, chess.Piece(chess.KING, chess.WHITE))
    for square in chess.SQUARES:
        if board.piece_at(square) is None and not board.is_attacked_by(chess.WHITE, square):
            board.set_piece_at(square, chess.Piece(chess.PAWN, chess.BLACK))
    empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
    assert sorted(placements(board, chess.WHITE)) == sorted(empty)


def test_a_king_may_capture_the_enemy_king_and_place_it():
    game = game_at("8/8/8/8/8/8/3k4/4K3 w - - 0 1")
    assert any(m.startswith("e1d2 K@") for m in game.legal_moves())


def test_leaving_the_opponent_only_monarchs_wins():
    game = game_at("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
    game.play("e1d2")
    assert game.outcome.result == "1-0"
    assert game.outcome.reason == "all men except the monarchs eliminated"
    assert game.outcome.kind == "goal"


def test_a_position_with_only_monarchs_is_not_lost_before_a_move_is_made():
    game = game_at("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1")
    assert game.outcome is None


def test_no_legal_move_is_a_draw():
    game = game_at("kb6/ppp5/PPP5/8/8/8/8/7K b - - 0 1")
    assert game.outcome.result == "1/2-1/2"
    assert game.outcome.kind == "stalemate"


def test_seventy_five_moves_without_capture_or_pawn_move_draw():
    game = game_at("4k3/7p/8/8/8/8/8/R3K3 w - - 149 100")
    game.play("a1a2")
    assert game.outcome.kind == "fifty-moves"


def test_a_wrong_placement_says_why():
    game = game_at("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1")
    assert refusal(game, "d1d8 Q@d1").endswith("your King or Queen could capture it there at once.")
    assert refusal(game, "d1d8 Q@e1").endswith("e1 is not empty.")
    assert "so place it: Q@<square>" in refusal(game, "d1d8 K@a1")
    assert refusal(game, "Qxd8 Q@z9") == "Qxd8 is fine, but Q@z9 is not a placement you can make: 'z9' is not a square."


PLACING = "r3k3/1p6/8/3q4/8/2N5/1P1Q4/4K2R w - - 0 1"   # Qxd5 takes Black's Queen, to be placed back


def test_text_after_a_whole_turn_is_refused_plainly():
    assert refusal(rules.new_game(SLUG, seed=0), "e2e3 Q@a1") == "e2e3 is a whole turn: nothing follows it."
    game = game_at(PLACING)
    assert refusal(game, "Ke2 Q@a1") == "e1e2 is a whole turn: nothing follows it."
    assert refusal(game, "b2b3 x") == "b2b3 is a whole turn: nothing follows it."
    assert refusal(game, "Qxd5 Q@a1 Q@a2") == "d2d5 Q@a1 is a whole turn: nothing follows it."
    queen_takes_pawn = game_at("4k3/8/8/8/8/8/1p6/Q3K3 w - - 0 1")
    assert refusal(queen_takes_pawn, "a1b2 Q@h8") == "a1b2 is a whole turn: nothing follows it."
    assert (refusal(game, "d2d5 Q@d4 Q@a2")
            == "d2d5 is fine, but Q@d4 cannot follow it: twenty-nine parts can, e.g. d2d5 Q@a1.")


def test_a_placement_typed_in_capitals_is_the_same_placement():
    game = game_at(PLACING)
    assert game.play("d2d5 Q@A1") == "d2d5 Q@a1"
    game.undo()
    assert game.play("Qxd5 q@A1") == "d2d5 Q@a1"


def test_text_that_is_not_a_placement_is_refused_as_such():
    assert (refusal(game_at(PLACING), "d2d5 Q@a1@b2")
            == "d2d5 is fine, but 'Q@a1@b2' is not a placement: place the Queen on one square, like Q@a1.")


def test_no_placement_the_rules_allow_is_said_to_be_capturable():
    position = VARIANT.load(PLACING)
    turns = VARIANT.turns(position)
    allowed = [t.split()[1] for t in turns if t.startswith("d2d5 ")]
    assert allowed and all(VARIANT.why_not_later(position, ["d2d5", part], "d2d5", turns) is None for part in allowed)


def test_a_capture_by_a_man_that_never_captures_is_refused_alike_in_every_spelling():
    game = game_at(PLACING)
    for typed in ("c3d5", "Nxd5", "Nd5", "Ncd5", "N3d5", "Nc3xd5"):
        assert refusal(game, typed) == "Only Kings and Queens capture in Tyrant Chess.", typed
    promoting = game_at("3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1")
    for typed in ("e7e8q", "e8=Q"):
        assert refusal(promoting, typed) == "A pawn promotes only to a Rook, Bishop or Knight.", typed
    for typed in ("e7d8q", "exd8=Q"):   # a pawn's capture is refused for the capture first
        assert refusal(promoting, typed) == "Only Kings and Queens capture in Tyrant Chess.", typed


def test_a_set_up_with_two_kings_or_two_queens_of_one_side_is_refused():
    for fen in ("3qk3/8/8/8/8/8/8/Q2QK3 w - - 0 1", "3qk3/8/8/8/8/8/8/K2QK3 w - - 0 1"):
        with pytest.raises(ValueError, match="^Each side has at most one King and one Queen.$"):
            game_at(fen)


def fide_reading(fen):
    """Turns by python-chess's pseudo-legal moves and the ruling's filters, written independently."""
    board = chess.Board(fen)
    found = set()
    for move in board.generate_pseudo_legal_moves():
        piece = board.piece_type_at(move.from_square)
        target = board.piece_at(move.to_square)
        if board.is_castling(move) or board.is_en_passant(move) or move.promotion == chess.QUEEN:
            continue
        if target is not None and piece not in (chess.KING, chess.QUEEN):
            continue
        if target is not None and target.piece_type in (chess.KING, chess.QUEEN):
            after = board.copy()
            after.push(move)
            mine = [sq for sq in chess.SQUARES if after.piece_at(sq) and after.piece_at(sq).color == board.turn
                    and after.piece_type_at(sq) in (chess.KING, chess.QUEEN)]
            empty = [sq for sq in chess.SQUARES if after.piece_at(sq) is None]
            safe = [sq for sq in empty if not any(sq in after.attacks(m) for m in mine)] or empty
            letter = chess.piece_symbol(target.piece_type).upper()
            found |= {f"{move.uci()} {letter}@{chess.square_name(sq)}" for sq in safe}
        else:
            found.add(move.uci())
    return found


def test_turns_match_an_independent_reading_over_random_games():
    import random
    rng = random.Random(9)
    checked = 0
    for seed in range(6):
        game = rules.new_game(SLUG, seed=seed)
        for _ in range(80):
            if game.outcome:
                break
            moves = game.legal_moves()
            assert set(moves) == fide_reading(game.fen()), game.fen()
            checked += 1
            captures = [m for m in moves if " " in m]
            game.play(rng.choice(captures) if captures and rng.random() < 0.7 else rng.choice(moves))
    assert checked > 200
