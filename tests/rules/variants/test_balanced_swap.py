"""Balanced Swap Chess through the public API: a regular move then a swap, every turn."""
import random

import chess
import pytest

import rules
from rules.variants.balanced_swap import VARIANT, men_after, men_of

from .support import refusal

SLUG = "balanced-swap"

# Neto vs Taylor, 1998, from the seed document: every turn as typed there (plies numbered).
SEED_GAME = ["d4", "Nc6 f8/g7", "Nf3 f1/g2", "B:d4 d4/a7", "N:d4 d4/e2", "f6 d8/d7", "B:c6 a1/a2",
             "Q:c6 c6/h1", "R:c7 c7/c2", "d8:c7 h1/h2", "R:a7 a7/a1", "Q:h1 h8/h7", "Bf4 e2/d4",
             "Bh3 h7/e7", "Kd2 b1/d2", "Q:f1 f1/f2", "Nb5 d1/d2", "Q:f1 e8/f8", "Be3 e2/e3", "Q:e2 e2/b5"]
SEED_CANONICAL = ["d2d4", "b8c6 f8/g7", "g1f3 f1/g2", "g7d4 d4/a7", "f3d4 d4/e2", "f7f6 d8/d7",
                  "g2c6 a1/a2", "d7c6 c6/h1", "c6c7 c7/c2", "d8c7 h1/h2", "a2a7 a7/a1", "h2h1 h8/h7",
                  "c1f4 e2/d4", "c8h3 h7/e7", "e1d2 b1/d2", "h1f1 f1/f2", "d4b5 d1/d2", "f2f1 e8/f8",
                  "f4e3 e2/e3", "f1e2 e2/b5"]
SEED_FINAL = "r3pknp/Ppp1r2p/5p2/1q6/8/4P2b/1PRQN3/RK1N4 w"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def turns_after(game, regular):
    return sorted(m for m in game.legal_moves() if m.split()[0] == regular)


# -- the seed document's sample game ------------------------------------------------------------

def test_seed_game_replays_turn_by_turn_to_the_final_diagram():
    game = rules.new_game(SLUG)
    for typed, canonical in zip(SEED_GAME, SEED_CANONICAL):
        assert canonical in game.legal_moves(), canonical
        assert game.play(typed) == canonical
        assert game.outcome is None
    assert game.fen().startswith(SEED_FINAL)
    assert len(game.legal_moves()) == 522   # White resigned with turns to spare


def test_seed_game_canonical_turns_replay_from_a_stored_history():
    game = rules.new_game(SLUG)
    for move in SEED_CANONICAL:
        game.play(move)
    assert game.history == SEED_CANONICAL
    for _ in SEED_CANONICAL:
        game.undo()
    assert game.fen() == chess.STARTING_FEN


def test_every_turn_shows_both_parts_and_highlights_the_swap():
    game = rules.new_game(SLUG)
    game.play("d4")
    game.play("Nc6 f8/g7")
    assert game.last_move_label() == "Nc6, f8/g7"
    view = game.view()
    assert view.parts == (("b8", "c6"), ("f8", "g7"))
    assert view.last_move == ("b8", "c6")
    assert "swap f8 and g7" in game.describe()


# -- rule 2: a turn is a regular move then a swap; White's first turn has no swap ----------------

def test_whites_first_turn_is_the_regular_move_alone():
    game = rules.new_game(SLUG)
    assert sorted(game.legal_moves()) == sorted(m.uci() for m in chess.Board().legal_moves)
    assert "first turn" in refusal(game, "d2d4 a1/a2")


def test_every_later_turn_needs_a_swap():
    game = rules.new_game(SLUG)
    game.play("d2d4")
    assert all(len(m.split()) == 2 for m in game.legal_moves())
    assert "must also swap" in refusal(game, "b8c6")


def test_a_fen_with_white_to_move_at_move_one_has_no_swap():
    game = game_at("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert all(" " not in m for m in game.legal_moves())


def test_the_swap_is_made_even_after_a_checking_move():
    game = game_at("4k3/8/8/8/8/8/8/R3K3 w - - 0 2")
    assert "a1a8 a8/e8" in game.legal_moves()   # the checking rook swaps with the king it checks


# -- rule 3 and ruling 2: the swap pattern ------------------------------------------------------

def test_a_rook_swaps_only_with_the_first_man_on_its_line():
    game = game_at("4k3/8/8/8/r7/n7/8/R3K3 w - - 0 2")
    assert "e1f1 a1/a3" in game.legal_moves()
    assert "e1f1 a1/a4" not in game.legal_moves()
    assert "could move or capture" in refusal(game, "e1f1 a1/a4")


def test_a_pawn_swaps_ahead_and_diagonally_ahead_with_friend_or_foe():
    game = game_at("4k3/8/8/8/2nRb3/3P4/8/4K3 w - - 0 2")
    swaps = {m.split()[1] for m in turns_after(game, "e1d1")}
    assert {"d3/c4", "d3/d4", "d3/e4"} <= swaps


def test_a_pawn_on_its_first_two_ranks_swaps_two_squares_ahead_over_an_empty_square():
    game = game_at("4k3/8/8/8/3n4/8/3P4/4K3 w - - 0 2")
    assert "e1d1 d2/d4" in game.legal_moves()
    blocked = game_at("4k3/8/8/8/3n4/3b4/3P4/4K3 w - - 0 2")
    assert "e1d1 d2/d4" not in blocked.legal_moves()


def test_two_men_of_the_same_colour_and_kind_never_swap():
    game = game_at("4k3/8/8/8/R7/8/8/R3K3 w - - 0 2")
    assert not any(m.endswith(" a1/a4") for m in game.legal_moves())
    assert "same colour" in refusal(game, "e1f1 a1/a4")


def test_one_of_the_two_men_must_be_the_movers():
    game = game_at("4k3/8/8/8/8/1n6/4P3/b3K3 w - - 0 2")
    assert "must be yours" in refusal(game, "e1d1 a1/b3")


def test_when_both_men_reach_each_other_the_lower_square_is_written_first():
    game = rules.new_game(SLUG)
    game.play("d2d4")
    assert "g8f6 d8/e8" in game.legal_moves() and "g8f6 e8/d8" not in game.legal_moves()
    assert game.play("g8f6 e8/d8") == "g8f6 d8/e8"


def test_a_swap_may_move_ones_own_king():
    game = rules.new_game(SLUG)
    for move in SEED_CANONICAL[:14]:
        game.play(move)
    assert game.play("Kd2 b1/d2") == "e1d2 b1/d2"
    assert game.fen().split()[0].endswith("1K1N4") is False
    assert game.fen().split()[0].split("/")[7].startswith("RK")


# -- rule 4: no complete turn loses -------------------------------------------------------------

def test_bare_kings_have_nothing_to_swap_so_the_side_to_move_loses():
    game = game_at("4k3/8/8/8/8/8/8/4K3 w - - 0 2")
    assert game.outcome.result == "0-1"
    assert game.outcome.reason == "no legal move or swap"
    assert game.outcome.kind == "no-move"


def test_checkmate_loses_even_where_a_swap_would_free_the_king():
    game = game_at("4k3/8/8/8/8/8/6PP/r6K w - - 0 2")
    assert game.outcome.result == "0-1" and game.outcome.kind == "checkmate"


def test_a_regular_move_with_no_swap_after_it_is_not_a_turn():
    # After e2-e3 no white man has another man in its swap pattern.
    game = game_at("4k3/8/8/8/8/8/4P3/N3K3 w - - 0 2")
    assert "e2e3" not in {m.split()[0] for m in game.legal_moves()} and game.legal_moves()
    assert "no swap can follow" in refusal(game, "e2e3")


def test_there_is_no_insufficient_material_draw():
    game = game_at("4k3/8/8/8/8/8/8/3BK3 w - - 0 2")
    assert game.outcome is None
    assert "e1f2 d1/e2" not in game.legal_moves() and game.legal_moves()


# -- rule 5: pawns on their own first rank ------------------------------------------------------

def test_a_pawn_on_its_own_first_rank_may_advance_two_squares_without_en_passant():
    game = game_at("4k3/8/8/8/7n/8/8/4K1P1 w - - 0 2")
    assert "g1g3 g3/h4" in game.legal_moves()
    game.play("g1g3 g3/h4")
    assert game.fen().split()[3] == "-"


def test_a_fen_with_pawns_on_their_own_first_rank_loads_but_not_on_their_last():
    assert game_at("4kp2/8/8/8/8/8/8/4KP2 w - - 0 2").fen().startswith("4kp2/8/8/8/8/8/8/4KP2")
    with pytest.raises(ValueError):
        game_at("4kP2/8/8/8/8/8/8/4K3 w - - 0 2")


# -- rule 6: promotion by swap ------------------------------------------------------------------

def test_a_swap_that_puts_a_pawn_on_its_last_rank_promotes_it_by_the_swappers_choice():
    game = game_at("n3k3/P7/8/8/8/8/8/4K3 w - - 0 2")
    assert {m for m in game.legal_moves() if m.startswith("e1f1 a7/a8")} == {
        "e1f1 a7/a8q", "e1f1 a7/a8r", "e1f1 a7/a8b", "e1f1 a7/a8n"}
    game.play("e1f1 a7/a8n")
    assert game.fen().startswith("N3k3/n7")
    assert "promotes" not in game.fen()


def test_the_swapper_promotes_an_enemy_pawn_too_but_not_into_a_check_on_himself():
    game = game_at("4k3/8/8/8/8/8/1p6/1R2K3 w - - 0 2")
    after_kd1 = {m.split()[1] for m in turns_after(game, "e1d1")}
    assert {"b1/b2b", "b1/b2n"} <= after_kd1
    assert "b1/b2q" not in after_kd1 and "b1/b2r" not in after_kd1   # it would check the king on d1
    game.play("e1e2 b1/b2q")
    assert game.fen().startswith("4k3/8/8/8/8/8/1R2K3/1q6")


def test_a_promoting_swap_needs_its_letter():
    game = game_at("n3k3/P7/8/8/8/8/8/4K3 w - - 0 2")
    assert "q, r, b or n" in refusal(game, "e1f1 a7/a8")


# -- rule 7 and ruling 4: check ------------------------------------------------------------------

def test_a_swap_may_not_leave_the_swappers_king_attacked():
    # The bishop on e2 sees the rook on h5; swapping them would put the rook beside the king.
    game = game_at("6k1/8/8/7r/8/8/P3B3/4K3 w - - 0 2")
    assert "a2a3 e2/h5" not in game.legal_moves()
    assert "king would be in check" in refusal(game, "a2a3 e2/h5")


def test_every_turn_gets_out_of_check_with_its_regular_part():
    game = game_at("4k3/8/8/8/8/8/3R4/r3K3 w - - 0 2")
    assert {m.split()[0] for m in game.legal_moves()} <= {m.uci() for m in chess.Board(game.fen()).legal_moves}
    assert "out of check" in refusal(game, "d2d3 d3/d4")


# -- rulings 7 and 8: en passant and castling after a swap -----------------------------------------

def test_en_passant_needs_the_advanced_pawn_still_on_its_square():
    moved = game_at("4k3/8/8/3n4/4p3/8/2NP4/4KB2 w - - 0 2")
    moved.play("d2d4 d4/d5")
    assert not any(m.startswith("e4d3") for m in moved.legal_moves())
    stayed = game_at("4k3/8/8/3n4/4p3/8/2NP4/4KB2 w - - 0 2")
    stayed.play("d2d4 e1/f1")
    assert any(m.startswith("e4d3") for m in stayed.legal_moves())


def test_a_swap_touching_a_castling_square_ends_that_castling_right():
    game = rules.new_game(SLUG)
    game.play("d2d4")
    game.play("g8f6 h8/h7")
    assert game.fen().split()[2] == "KQq"


def test_a_swap_that_moves_a_pawn_resets_the_fifty_move_count():
    game = game_at("4k3/8/8/8/8/8/P7/R3K3 w - - 7 20")
    game.play("e1d1 a1/a2")
    assert game.fen().split()[4] == "0"


# -- ruling 10: typed turns ----------------------------------------------------------------------

def test_san_and_either_order_of_the_swap_squares_are_accepted():
    game = rules.new_game(SLUG)
    assert game.play("d4") == "d2d4"
    assert game.play("Nc6 g7/f8") == "b8c6 f8/g7"
    assert game.play("Nf3 f1/g2") == "g1f3 f1/g2"


def test_squares_may_be_typed_in_capitals():
    game = rules.new_game(SLUG)
    game.play("D2D4")
    assert game.play("B8C6 F8/G7") == "b8c6 f8/g7"


def test_a_wrong_swap_names_the_part_and_the_reason():
    game = rules.new_game(SLUG)
    game.play("d4")
    message = refusal(game, "Nc6 a6/a7")
    assert message.startswith("Nc6 is fine, but a6/a7") and "no man on a6" in message
    assert refusal(game, "Nc7 f8/g7") == "Nc7 is not a legal regular move here."


# -- the generator agrees with a brute-force reading of the rules ---------------------------------

def brute_force_pattern(board, square):
    piece = board.piece_at(square)
    f, r = chess.square_file(square), chess.square_rank(square)
    found = set()

    def on(ff, rr):
        return 0 <= ff < 8 and 0 <= rr < 8

    if piece.piece_type == chess.PAWN:
        d = 1 if piece.color == chess.WHITE else -1
        own = r if piece.color == chess.WHITE else 7 - r
        if on(f, r + d):
            found.add(chess.square(f, r + d))
            if own <= 1 and board.piece_at(chess.square(f, r + d)) is None:
                found.add(chess.square(f, r + 2 * d))
        for df in (-1, 1):
            if on(f + df, r + d):
                found.add(chess.square(f + df, r + d))
        return found
    leaps = {chess.KNIGHT: [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
             chess.KING: [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]}
    if piece.piece_type in leaps:
        return {chess.square(f + a, r + b) for a, b in leaps[piece.piece_type] if on(f + a, r + b)}
    dirs = {chess.ROOK: [(1, 0), (-1, 0), (0, 1), (0, -1)], chess.BISHOP: [(1, 1), (1, -1), (-1, 1), (-1, -1)]}
    dirs[chess.QUEEN] = dirs[chess.ROOK] + dirs[chess.BISHOP]
    for a, b in dirs[piece.piece_type]:
        ff, rr = f + a, r + b
        while on(ff, rr):
            found.add(chess.square(ff, rr))
            if board.piece_at(chess.square(ff, rr)):
                break
            ff, rr = ff + a, rr + b
    return found


def brute_force_turns(board):
    out = set()
    mover = board.turn
    for regular in board.legal_moves:
        after = board.copy()
        after.push(regular)
        for a in chess.SQUARES:
            pa = after.piece_at(a)
            if pa is None or pa.color != mover:
                continue
            for b in brute_force_pattern(after, a):
                pb = after.piece_at(b)
                if pb is None or (pb.color == pa.color and pb.piece_type == pa.piece_type):
                    continue
                promoting = [(sq, p) for sq, p in ((b, pa), (a, pb)) if p.piece_type == chess.PAWN
                             and chess.square_rank(sq) == (7 if p.color == chess.WHITE else 0)]
                for choice in ([chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT] if promoting else [None]):
                    test = after.copy()
                    test.set_piece_at(a, pb)
                    test.set_piece_at(b, pa)
                    for sq, p in promoting:
                        test.set_piece_at(sq, chess.Piece(choice, p.color))
                    king = test.king(mover)
                    if king is not None and test.is_attacked_by(not mover, king):
                        continue
                    out.add((regular.uci(), frozenset((a, b)), choice))
    return out


def test_turns_match_a_brute_force_reading_over_random_games():
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        game = rules.new_game(SLUG, seed=seed)
        game.play(rng.choice(game.legal_moves()))
        for _ in range(rng.randrange(3, 14)):
            moves = game.legal_moves()
            if not moves:
                break
            ours = set()
            for move in moves:
                regular, swap = move.split()
                first, second = chess.parse_square(swap[0:2]), chess.parse_square(swap[3:5])
                promo = chess.PIECE_SYMBOLS.index(swap[5]) if len(swap) > 5 else None
                ours.add((regular, frozenset((first, second)), promo))
            assert ours == brute_force_turns(chess.Board(game.fen())), game.fen()
            assert len(ours) == len(moves), "each distinct turn is listed once"
            checked += 1
            game.play(rng.choice(moves))
    assert checked > 20


@pytest.mark.parametrize("fen", [
    "3K3k/3P4/8/8/8/8/8/8 w - - 0 2",                # the king swaps with its own pawn, which promotes
    "7k/8/8/8/8/8/3p4/2K5 w - - 0 2",                # the king swaps with an enemy pawn, which promotes
    "4k3/8/8/8/8/8/1p6/1R2K3 w - - 0 2",             # an enemy promotion that would check
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 7",
])
def test_turns_match_a_brute_force_reading_in_set_positions(fen):
    game = game_at(fen)
    ours = set()
    for move in game.legal_moves():
        regular, swap = move.split()
        promo = chess.PIECE_SYMBOLS.index(swap[5]) if len(swap) > 5 else None
        ours.add((regular, frozenset((chess.parse_square(swap[0:2]), chess.parse_square(swap[3:5]))), promo))
    assert ours == brute_force_turns(chess.Board(fen))


@pytest.mark.parametrize("fen", [
    "r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 8",    # castling both ways
    "r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NP1N2/PPPQ1PPP/R3K2R b KQkq - 0 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",         # en passant
    "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b KQkq f3 0 3",
    "1r5k/P5p1/8/8/8/8/1p4P1/R5K1 w - - 0 30",                              # promotions, with a capture
    "1r5k/P5p1/8/8/8/8/1p4P1/R5K1 b - - 0 30",
])
def test_the_men_after_a_regular_move_are_those_python_chess_places(fen):
    board = chess.Board(fen)
    for move in board.legal_moves:
        played = board.copy(stack=False)
        played.push(move)
        assert men_after(board, men_of(board), move) == men_of(played), move.uci()


def test_a_king_swapping_with_its_own_pawn_promotes_the_pawn():
    game = game_at("3K3k/3P4/8/8/8/8/8/8 w - - 0 2")
    assert {m for m in game.legal_moves() if m.startswith("d8c8 ")} >= {"d8c8 d7/c8q", "d8c8 d7/c8n"}   # mutual reach: lower square first


def test_the_variant_is_registered():
    assert rules.VARIANTS[SLUG].name == VARIANT.name
