"""Prop Chess through the public API: defended destinations, forward first, no check,
immobility loses, 25 moves without a capture draw."""
import pytest

import rules

SLUG = "prop"


def game_at(fen):
    return rules.new_game(SLUG, fen=fen)


def moves_at(fen):
    return sorted(game_at(fen).legal_moves())


# -- defended squares (ruling 1) ---------------------------------------------------------------

def test_start_position_has_fifteen_defended_forward_moves():
    # Eight single pawn steps (each covered by a neighbouring pawn or piece), a2-a4 (Ra1 sees
    # through the emptied a2), d2-d4 (Qd1), h2-h4 (Rh1) and the four knight moves.
    assert moves_at(rules.new_game(SLUG).fen()) == sorted([
        "a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3",
        "a2a4", "d2d4", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3"])


def test_move_to_undefended_square_is_refused_with_reason():
    game = rules.new_game(SLUG)
    with pytest.raises(rules.IllegalMove, match="defended"):
        game.play("e2e4")
    assert game.history == []


def test_defence_is_judged_after_the_move_through_the_vacated_square():
    # a2-a4 is covered by Ra1 only once a2 is empty.
    game = rules.new_game(SLUG)
    assert game.play("a2a4") == "a2a4"


def test_pawn_defends_only_its_forward_diagonals():
    # After 1.e3 e6, Nb1-c3 is covered by the b2 and d2 pawns; Bf1-c4 is not.
    game = rules.new_game(SLUG)
    game.play("e2e3")
    game.play("e7e6")
    assert "b1c3" in game.legal_moves()
    assert "f1c4" not in game.legal_moves()   # c4: b2/d2 pawns attack only c3


# -- forward first (ruling 2) ----------------------------------------------------------------

def test_forward_move_is_compulsory_when_a_defended_one_exists():
    # Re1 Rg1 Kh1: only Rg1-g2 (Kh1 covers g2) and Kh1-g2 (Rg1 covers it) are forward and
    # defended; Re1's climbs are uncovered. Sideways Re1-f1 is defended but not allowed.
    fen = "7k/8/8/8/8/8/8/4R1RK w - - 0 1"
    assert moves_at(fen) == ["g1g2", "h1g2"]
    game = game_at(fen)
    with pytest.raises(rules.IllegalMove, match="forward"):
        game.play("e1f1")


def test_undefended_forward_moves_force_nothing():
    # Rd1 Re1 Kh1: every climb is uncovered, so the six defended sideways moves are legal:
    # Rd1-c1/b1/a1 (Re1 behind), Re1-f1/g1 (Rd1 behind), Kh1-g1 (Re1 sees g1).
    assert moves_at("7k/8/8/8/8/8/8/3RR2K w - - 0 1") == [
        "d1a1", "d1b1", "d1c1", "e1f1", "e1g1", "h1g1"]


def test_black_moves_forward_toward_rank_one():
    # Ka8 Rb8: Rb8-b7 (Ka8 covers) and Ka8-b7 (Rb8 covers) go down the board; Rb8 sideways
    # moves are uncovered.
    assert moves_at("kr6/8/8/8/8/8/8/7K b - - 0 1") == ["a8b7", "b8b7"]


# -- no check (ruling 3) ----------------------------------------------------------------------

def test_king_may_move_onto_an_attacked_square():
    # Ra2 attacks d2; Ke1-d2 is forward and covered by Rd1, so it is legal; so is Rd1-d2.
    assert moves_at("4k3/8/8/8/8/8/r7/3RK3 w - - 0 1") == ["d1d2", "e1d2"]


def test_king_can_be_captured_and_the_game_goes_on():
    game = game_at("3rk3/3q4/8/8/8/8/PP6/3K1R2 b - - 0 1")
    game.play("d7d1")   # Qxd1 takes the king, covered by Rd8
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["a2a3", "b2b3"]
    assert game.view().checks == ()


# -- castling, promotion, en passant (rulings 4-6) ---------------------------------------------

def test_castling_ignores_attacks_and_is_written_e1g1():
    # Nothing forward is covered; sideways Ke1-d1/f1, Rh1-f1 and castling (Rf1 covers g1)
    # are legal although Rf8 attacks f1.
    fen = "k4r2/8/8/8/8/8/8/4K2R w K - 0 1"
    assert moves_at(fen) == ["e1d1", "e1f1", "e1g1", "h1f1"]
    game = game_at(fen)
    assert game.play("O-O") == "e1g1"
    assert game.fen().split()[0] == "k4r2/8/8/8/8/8/8/5RK1"


def test_castling_is_not_forward_so_a_forward_move_beats_it():
    # Same position plus a covered pawn step (a2-a3 covered by b2): castling must wait.
    game = game_at("k4r2/8/8/8/8/8/PP6/4K2R w K - 0 1")
    assert "e1g1" not in game.legal_moves()
    with pytest.raises(rules.IllegalMove, match="forward"):
        game.play("e1g1")


def test_promotion_must_land_on_a_defended_square():
    # Rb1 sees b8 once b7 is empty: four promotions, nothing else is covered and forward.
    assert moves_at("7k/1P6/8/8/8/8/8/1R5K w - - 0 1") == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]


def test_en_passant_is_allowed_onto_a_defended_square():
    # Either pawn takes d6 en passant, covered by the other; nothing else is covered.
    fen = "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2"
    assert moves_at(fen) == ["c5d6", "e5d6"]
    game = game_at(fen)
    game.play("c5d6")
    assert game.fen().split()[0] == "4k3/8/3P4/4P3/8/8/8/4K3"


# -- the end (rulings 7-9) --------------------------------------------------------------------

def test_player_without_a_legal_move_loses():
    # White's pawn could promote but b8 is uncovered, and the lone king covers nothing.
    game = game_at("7k/1P6/8/8/8/8/8/7K w - - 0 1")
    assert game.legal_moves() == []
    assert game.outcome == rules.Outcome("0-1", "cannot move")


def test_a_lone_king_loses_as_soon_as_it_is_to_move():
    game = game_at("4k3/8/8/8/8/8/3p4/3RK3 w - - 0 1")
    assert sorted(game.legal_moves()) == ["d1d2", "e1d2"]
    game.play("d1d2")
    assert game.outcome.result == "1-0"
    assert game.outcome.reason == "cannot move"
    with pytest.raises(rules.IllegalMove):
        game.play("e8d8")


def test_fifty_half_moves_without_capture_draw():
    game = game_at("k6r/8/8/8/8/8/4R3/4R2K w - - 49 60")
    game.play("e2e7")
    assert game.outcome == rules.Outcome("1/2-1/2", "25 moves without a capture")


def test_loss_by_immobility_is_checked_before_the_capture_free_draw():
    # Re2-e8 is the 50th capture-free half-move and cuts Rh8 from b8: Black cannot move.
    game = game_at("k6r/8/8/8/8/8/4R3/4R2K w - - 49 60")
    game.play("e2e8")
    assert game.outcome == rules.Outcome("1-0", "cannot move")


def test_pawn_moves_do_not_reset_the_capture_free_count():
    game = rules.new_game(SLUG, fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10 6")
    game.play("e2e3")
    assert game.fen().split()[4] == "11"
    game.undo()
    assert game.fen().split()[4] == "10"


def test_capture_resets_the_count_and_it_survives_fen_and_undo():
    game = game_at("4k3/8/8/8/8/8/3p4/3RK3 w - - 30 40")
    game.play("e1d2")
    assert game.fen().split()[4] == "0"
    again = rules.new_game(SLUG, fen=game.fen())
    assert again.fen() == game.fen()
    game.undo()
    assert game.fen() == "4k3/8/8/8/8/8/3p4/3RK3 w - - 30 40"


def test_threefold_repetition_may_be_claimed_and_fivefold_is_automatic():
    game = game_at("3rr2k/8/8/8/8/8/8/3RR2K w - - 0 1")
    shuffle = ["d1c1", "d8c8", "c1d1", "c8d8"]
    for move in shuffle * 2:
        game.play(move)
    assert game.outcome is None
    assert game.claimable_draw() == "threefold repetition"
    for move in shuffle * 2:
        game.play(move)
    assert game.outcome == rules.Outcome("1/2-1/2", "fivefold repetition")


def test_no_dead_position_draw():
    # Same-coloured bishops: FIDE calls this dead, Prop plays on. White has Bf1-e2 (Ke1
    # covers e2) and Ke1-e2 (Bf1 covers e2), both forward.
    game = game_at("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1")
    assert game.outcome is None
    assert sorted(game.legal_moves()) == ["e1e2", "f1e2"]


def test_repetition_checks_do_not_disturb_the_capture_free_count():
    # python-chess's repetition test replays moves with the FIDE clock (pawn moves reset it);
    # the Prop count must still be "half-moves since the last capture": 13 after 13 quiet plies
    # that start with a pawn move and then shuffle rooks so that occupancies repeat.
    game = game_at("3rr2k/8/7p/8/8/PP6/8/3RR2K w - - 0 1")
    moves = ["a3a4", "d8c8", "e1f1", "c8b8", "f1e1", "b8d8", "e1f1",
             "d8c8", "f1e1", "c8b8", "e1f1", "b8d8", "f1e1"]
    for count, move in enumerate(moves, start=1):
        game.play(move)
        game.claimable_draw()
        assert game.outcome is None
        assert game.fen().split()[4] == str(count)
    game.undo()
    assert game.fen().split()[4] == "12"
