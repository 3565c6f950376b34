"""The core's shared model: outcome kinds, per-ply caches, perft through the API, positions and hands."""
import chess
import pytest

import rules
from rules.core import Ending, Outcome, kind_from_reason
from rules.refusals import counted
from rules.position import (
    Drop,
    Position,
    Step,
    Swap,
    add_to_hand,
    format_crazyhouse_hands,
    parse_crazyhouse_hands,
    split_hands,
    take_from_hand,
    turn_text,
)
from tests.rules.corpus_record import load
from tests.rules.variants.support import perft


@pytest.mark.parametrize("fen,depth,nodes", [
    (chess.STARTING_FEN, 3, 8902),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2, 2039),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2812),
])
def test_perft_through_the_api_matches_known_counts(fen, depth, nodes):
    game = rules.new_game("standard", fen=fen)
    assert perft(game, depth) == nodes
    assert game.fen() == fen and game.history == []


def test_an_outcome_has_the_kind_its_maker_gives_and_none_read_from_its_words():
    assert Outcome.win("white", "checkmate").kind is None
    assert Outcome.draw("stalemate (no legal move)", "stalemate").kind is Ending.STALEMATE
    assert Outcome("solved", "tour complete", 3, Ending.SOLVED).kind == "solved"   # kinds compare as strings
    with pytest.raises(ValueError):
        Outcome.draw("stalemate", "stalemated")


@pytest.mark.parametrize("result,reason,kind", [
    ("1-0", "checkmate", "checkmate"), ("1/2-1/2", "fivefold repetition", "repetition"),
    ("1/2-1/2", "75 moves without a capture or pawn move", "fifty-moves"), ("1/2-1/2", "insufficient material", "material"),
    ("0-1", "all men except the monarchs eliminated", "goal"), ("solved", "tour complete", "solved"),
    ("1-0", "stalemate: Black failed to mate", "stalemate"), ("1/2-1/2", "neither side has a bishop", "goal"),
    # the service's own endings and claims
    ("1-0", "black resigned", "resignation"), ("1/2-1/2", "agreed", "agreement"),
    ("1/2-1/2", "threefold repetition claimed", "repetition"), ("failed", "gave up", "failed"),
    ("1/2-1/2", "50 moves without a capture or pawn move claimed", "fifty-moves"), ("0-1", "no legal moves", "no-move"),
])
def test_the_kind_of_an_old_stored_ending_is_read_from_its_reason(result, reason, kind):
    assert kind_from_reason(result, reason) == kind


def test_the_reading_of_old_reasons_agrees_with_every_ending_the_corpus_recorded():
    seen = {(slug, tuple(outcome[:2]), outcome[3]) for slug in rules.VARIANTS for _, games in [load(slug)]
            for game in games for position in game["positions"] if (outcome := position.get("outcome"))}
    assert len(seen) > 40
    assert [(slug, ending, kind) for slug, ending, kind in seen if kind_from_reason(*ending) != kind] == []


def test_outcome_kind_and_detail_can_be_given_and_detail_does_not_change_equality():
    a = Outcome.win("white", "blunder into mate", "goal", {"move": "e2e4", "mate": "d8h4"})
    assert a.kind == "goal" and a.detail["mate"] == "d8h4"
    assert a == Outcome.win("white", "blunder into mate", "goal")
    assert Outcome("1-0", "checkmate").winner == "white"


def test_mate_mark_is_decided_on_kind_not_on_reason():
    game = rules.new_game("standard")
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        game.play(move)
    assert game.outcome.kind == "checkmate"
    assert game.last_move_label() == "Qh4#"


def test_parent_position_is_judged_once_while_children_are_played_and_undone():
    game = rules.new_game("standard")
    calls = []
    judge = game.variant.judge

    def counting(board, state, legal):
        calls.append(board.fen())
        return judge(board, state, legal)

    game.variant = type(game.variant)()
    game.variant.judge = counting
    start = game.fen()
    for move in game.legal_moves():
        game.play(move)
        game.undo()
    game.legal_moves()
    assert calls.count(start) == 1


def test_after_gives_the_next_position_and_leaves_the_game_alone():
    game = rules.new_game("standard")
    position = game.after("Nf3")
    assert position.board.piece_at(chess.F3) == chess.Piece(chess.KNIGHT, chess.WHITE)
    assert position.turn == "black"
    assert game.fen() == chess.STARTING_FEN and game.history == []


def test_turn_text_joins_parts_with_one_space_in_the_order_played():
    turn = (Step(chess.Move.from_uci("b8c6")), Swap(chess.F8, chess.G7))
    assert turn_text(turn) == "b8c6 f8/g7"
    assert turn_text((Step(chess.Move.from_uci("d1d8")), Drop("Q", chess.A1))) == "d1d8 Q@a1"
    assert Swap(chess.A1, chess.A4, chess.KNIGHT).text == "a1/a4n"


def test_a_count_in_a_refusal_is_in_words_with_its_plural():
    assert [counted(n, "part") for n in (0, 1, 2, 23, 40, 100)] == [
        "no parts", "one part", "two parts", "twenty-three parts", "forty parts", "100 parts"]


def test_hands_read_and_write_in_crazyhouse_form():
    board, hands = split_hands("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NPPb]")
    assert board.endswith("RNBQKBNR")
    white, black = parse_crazyhouse_hands(hands)
    assert (white, black) == ("NPP", "B")
    assert format_crazyhouse_hands((white, black)) == "NPPb"
    assert add_to_hand(("N", ""), chess.BLACK, "Q") == ("N", "Q")
    assert take_from_hand(("NPP", ""), chess.WHITE, "P") == ("NP", "")
    with pytest.raises(ValueError):
        parse_crazyhouse_hands("X")


def test_positions_with_the_same_men_hands_and_turn_share_a_key():
    a = Position(chess.Board(), ("N", ""))
    b = Position(chess.Board(), ("N", ""))
    c = Position(chess.Board(), ("", "N"))
    assert a.key() == b.key() != c.key()


def test_an_intrusion_mate_in_xenophobic_is_marked_as_mate():
    game = rules.new_game("xenophobic", fen="4k3/8/8/8/8/8/8/2R1K3 w - - 0 1")
    game.play("c1c8")    # on c8, out of the king's reach: a xenophobic checkmate, not a FIDE one
    assert game.outcome.reason == "xenophobic checkmate"
    assert game.outcome.kind == "checkmate"
    assert game.last_move_label() == "Rc8#"


def test_a_variant_written_on_todays_hooks_works_unchanged():
    from rules.chess_variant import ChessGame, ChessVariant

    class Counting(ChessVariant):
        slug, name = "counting", "Counting"
        initial_state = 0
        filters_moves = after_effects = True   # the hooks it uses, as data

        def parse_state(self, fields):
            return int(fields[0]) if fields else 0

        def format_state(self, state):
            return [str(state)]

        def after_move(self, board, state, move, mover, captured):
            return state + (captured is not None)

        def allows(self, board, state, move):
            return move.uci() != "e2e4"

        def judge(self, board, state, legal):
            return Outcome.win("white", "two captures", "goal") if state >= 2 else super().judge(board, state, legal)

    game = ChessGame(Counting())
    assert "e2e4" not in game.legal_moves()
    for move in ["d2d4", "e7e5", "d4e5", "d7d6", "e5d6"]:
        game.play(move)
    assert game.state == 2 and game.fen().endswith(" 2")
    assert game.outcome.reason == "two captures" and game.outcome.kind == "goal"
    game.undo()
    assert game.state == 1 and game.outcome is None
    assert game.board.fen() == ChessGame(Counting(), fen=game.fen()).board.fen()


@pytest.mark.parametrize("slug", ["balanced-swap", "separation", "tyrant", "reentrant", "standard", "zoo"])
def test_after_move_is_the_position_play_reaches(slug):
    import random
    rng = random.Random(slug)
    game = rules.new_game(slug, seed=1)
    for _ in range(25):
        moves = game.legal_moves()
        if not moves:
            break
        for move in rng.sample(moves, min(4, len(moves))):
            expected = game.after(move)
            before = game.fen()
            assert game.fen() == before, "after() leaves the game alone"
            game.play(move)
            assert game.position.board.fen() == expected.board.fen()
            assert game.position.key() == expected.key()
            game.undo()
        game.play(rng.choice(moves))


def test_a_long_game_keeps_caches_only_for_recent_positions():
    from rules.core import MEMO_PLIES
    import random
    rng = random.Random(4)
    game = rules.new_game("standard")
    while len(game.history) < 40 and game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
    assert sum(1 for memo in game._memo if memo) <= MEMO_PLIES
    while game.history:
        game.undo()
    assert game.legal_moves() and game.fen() == chess.STARTING_FEN
