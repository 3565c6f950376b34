"""The python-chess variant base: pieces every FIDE-men variant leans on."""
import random

import chess
import pytest

import rules
from rules.chess_variant import repetitions


@pytest.mark.parametrize("seed", range(6))
def test_repetition_count_agrees_with_python_chess_in_plain_chess(seed):
    # Knight and king shuffles with the odd pawn move: many repetitions, some interrupted.
    rng = random.Random(seed)
    board = chess.Board("r3k2r/pppq1ppp/2n2n2/8/8/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1")
    for _ in range(160):
        moves = [m for m in board.legal_moves if board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.KING)
                 or rng.random() < 0.02]
        board.push(rng.choice(moves or list(board.legal_moves)))
        for count in (2, 3, 5):
            assert (repetitions(board) >= count) == board.is_repetition(count), board.fen()


def test_counting_repetitions_leaves_the_board_untouched():
    game = rules.new_game("kingmaker", fen="8/4P3/8/8/8/8/8/n6N w - - 0 1")
    game.play("e7e8k")
    for move in ["e8d8", "h1g3", "d8e8", "g3h1"] * 2:
        game.play(move)
    before = game.fen()
    assert game.claimable_draw() == "threefold repetition"
    assert game.fen() == before and game.view().pieces["e8"] == "k"


def test_a_variant_without_castling_ignores_castling_rights_in_a_fen():
    game = rules.new_game("zoo", fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert " - - 0 1" in game.fen()
    with pytest.raises(rules.IllegalMove, match="no castling"):
        game.play("O-O")


def test_non_royal_variants_keep_an_en_passant_square_a_royal_king_would_refuse():
    # The e5 pawn is pinned against its king by the rook on a5... only for a royal king.
    fen = "8/8/8/r2pP2K/8/8/8/4k3 w - d6 0 2"
    assert "e5d6" not in rules.new_game("standard", fen=fen).legal_moves()
    junta = rules.new_game("junta", fen="8/2n1n3/8/r2pP2K/8/8/8/N3k1N1 w - d6 0 2")
    assert "e5d6" in junta.legal_moves() and " d6 " in junta.fen()


def chess_variants():
    from rules.chess_variant import ChessGame
    games = [rules.new_game(slug) for slug in rules.VARIANTS]
    return [game.variant for game in games if isinstance(game, ChessGame)]


@pytest.mark.parametrize("variant", chess_variants(), ids=lambda v: v.slug)
def test_the_hooks_a_variant_declares_as_data_are_the_hooks_it_has(variant):
    # The fast paths are chosen from `fide_moves`, `filters_moves` and `after_effects`, so the
    # data must say what the class does: a hook without its flag would be skipped silently.
    from rules.chess_variant import ChessVariant
    kind = type(variant)
    has = {hook: getattr(kind, hook) is not getattr(ChessVariant, hook)
           for hook in ("generate", "allows", "after_move", "push")}
    assert (variant.fide_moves, variant.filters_moves, variant.after_effects) == (
        not has["generate"], has["allows"], has["after_move"] or has["push"])


def test_a_hook_without_its_flag_or_a_flag_without_its_hook_is_refused_when_the_class_is_written():
    from rules.chess_variant import ChessVariant

    def after_move(self, board, state, move, mover, captured):
        return state

    def generate(self, board, state):
        return iter(board.legal_moves)

    def allows(self, board, state, move):
        return True

    for hooks, flag in (({"after_move": after_move}, "after_effects = True"), ({"push": after_move}, "after_effects = True"),
                        ({"generate": generate}, "fide_moves = False"), ({"allows": allows}, "filters_moves = True"),
                        ({"after_effects": True}, "after_effects = False"), ({"fide_moves": False}, "fide_moves = True")):
        with pytest.raises(TypeError, match=flag):
            type("Unflagged", (ChessVariant,), {"initial_state": None, **hooks})


def test_a_variant_that_filters_moves_by_data_never_lists_a_refused_move():
    from rules.chess_variant import ChessGame, ChessVariant

    class NoKnights(ChessVariant[None]):
        initial_state = None
        filters_moves = True

        def allows(self, board, state, move):
            return board.piece_type_at(move.from_square) != chess.KNIGHT

    game = ChessGame(NoKnights())
    assert len(game.legal_moves()) == 16 and "g1f3" not in game.legal_moves()


def test_royal_men_are_data_and_the_derived_switch_cannot_be_set_by_hand():
    from rules.chess_variant import ChessVariant
    from rules.men import NO_ROYALTY

    class Kingless(ChessVariant[None]):
        royalty = NO_ROYALTY
        initial_state = None

    assert not Kingless.royal_king and ChessVariant.royal_king
    with pytest.raises(TypeError, match="royalty = NO_ROYALTY"):
        class Old(ChessVariant[None]):   # would silently keep a royal king otherwise
            royal_king = False
            initial_state = None
