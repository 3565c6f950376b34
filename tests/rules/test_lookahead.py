"""The shared look-ahead helpers against brute force over python-chess."""
import random

import chess

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
