"""The shared look-ahead helpers against brute force over python-chess."""
import random

import chess
import pytest

from rules import lookahead


def random_positions(count, seed=3):
    rng = random.Random(seed)
    while count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            count -= 1
            yield board


def test_prefilter_never_drops_a_checking_move():
    for board in random_positions(300):
        brute = {m for m in board.legal_moves if board.gives_check(m)}
        assert set(lookahead.checking_moves(board)) == brute, board.fen()


def test_prefilter_passes_far_fewer_moves_than_it_is_given():
    passed = total = 0
    for board in random_positions(100, seed=5):
        moves = list(board.legal_moves)
        total += len(moves)
        passed += sum(lookahead.may_check(board, m) for m in moves)
    assert passed < total / 2


def test_mating_moves_match_brute_force_and_leave_the_board_alone():
    board = chess.Board()
    for san in ["f3", "e5", "g4"]:
        board.push_san(san)
    before = board.fen()
    assert [board.san(m) for m in lookahead.mating_moves(board)] == ["Qh4#"]
    assert board.fen() == before
    for board in random_positions(200, seed=9):
        brute = set()
        for move in board.legal_moves:
            board.push(move)
            if board.is_checkmate():
                brute.add(move)
            board.pop()
        assert set(lookahead.mating_moves(board)) == brute


def test_passed_gives_the_same_side_another_move():
    board = chess.Board()
    board.push_san("e4")
    again = lookahead.passed(board)
    assert again.turn == chess.WHITE and again.ep_square is None
    assert again.board_fen() == board.board_fen()
    assert board.turn == chess.BLACK


def test_pushed_plays_the_move_for_the_block_and_always_takes_it_back():
    board = chess.Board()
    board.push_san("e4")
    before, reply = board.fen(), chess.Move.from_uci("e7e5")
    expected = lookahead.after(board, reply).fen()
    with lookahead.pushed(board, reply) as now:
        assert now is board and now.fen() == expected
    assert board.fen() == before and len(board.move_stack) == 1
    try:
        with lookahead.pushed(board, chess.Move.from_uci("d7d5")):
            raise ValueError("left early")
    except ValueError:
        pass
    assert board.fen() == before


def test_pushed_again_gives_the_mover_a_second_move_without_en_passant():
    board = chess.Board()
    with lookahead.pushed(board, chess.Move.from_uci("e2e4"), again=True) as now:
        assert now.turn == chess.WHITE and now.ep_square is None
        assert now.piece_at(chess.E4) == chess.Piece(chess.PAWN, chess.WHITE)
    assert board.fen() == chess.STARTING_FEN


def test_earlier_walks_back_the_moves_played_newest_first():
    board = chess.Board()
    seen = [board.fen()]
    for san in ["e4", "c5", "Nf3"]:
        board.push_san(san)
        seen.append(board.fen())
    now = board.fen()
    assert [probe.fen() for probe in lookahead.earlier(board, 3)] == seen[-2::-1]
    assert board.fen() == now and len(board.move_stack) == 3


def test_each_after_gives_each_position_after_and_takes_every_move_back():
    board = chess.Board()
    moves = list(board.legal_moves)
    seen = [(move, now.fen()) for move, now in lookahead.each_after(board, moves)]
    assert seen == [(move, lookahead.after(board, move).fen()) for move in moves]
    assert board.fen() == chess.STARTING_FEN and not board.move_stack
    for move, now in lookahead.each_after(board, moves):
        assert now.turn == chess.BLACK
        break
    assert board.fen() == chess.STARTING_FEN and not board.move_stack


def test_defended_matches_brute_force():
    for board in random_positions(100, seed=11):
        before = board.fen()
        brute = [m for m in board.legal_moves if lookahead.after(board, m).is_attacked_by(board.turn, m.to_square)]
        assert lookahead.defended(board, board.legal_moves) == brute, before
        assert board.fen() == before


def test_mates_allowed_match_brute_force():
    board = chess.Board()
    for san in ["f4", "e6"]:
        board.push_san(san)
    assert [(board.san(s), m.uci()) for s, m in lookahead.mates_allowed(board)] == [("g4", "d8h4")]
    for board in random_positions(60, seed=13):
        brute = [m for m in board.legal_moves
                 if any(lookahead.after(lookahead.after(board, m), r).is_checkmate()
                        for r in lookahead.after(board, m).legal_moves)]
        found = list(lookahead.mates_allowed(board))
        assert [s for s, _ in found] == brute
        assert all(lookahead.after(lookahead.after(board, s), m).is_checkmate() for s, m in found)


def test_kept_filters_moves_by_the_position_after_each_and_leaves_the_board_alone():
    for board in random_positions(50, seed=17):
        before = board.fen()
        brute = [m for m in board.legal_moves if lookahead.after(board, m).is_check()]
        mover = board.turn
        assert list(lookahead.kept(board, board.legal_moves, lambda now, by: now.is_check() and by == mover)) == brute
        assert board.fen() == before


def test_kept_takes_its_move_back_before_an_error_in_the_test_leaves_it():
    board = chess.Board()

    def refuse(now, by):
        raise ValueError(now.fen())

    with pytest.raises(ValueError) as raised:
        next(lookahead.kept(board, board.legal_moves, refuse))
    assert raised.value.args[0] != chess.STARTING_FEN   # the test saw the position after a move ...
    assert board.fen() == chess.STARTING_FEN and not board.move_stack   # ... taken back by the time it is caught
