"""Men as data: FIDE men written as data move and attack exactly as python-chess says."""
import random

import chess
import pytest

from rules.men import FIDE_MEN, Man, MenTable, Royalty, parse_betza


def random_positions(count, seed=1):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        found.append(board.copy(stack=False))
    return found


def test_fide_men_as_data_give_python_chess_pseudo_legal_moves_without_castling():
    table = MenTable(FIDE_MEN)
    for board in random_positions(150):
        ours = {m.uci() for m in table.pseudo_moves(board)}
        theirs = {m.uci() for m in board.pseudo_legal_moves if not board.is_castling(m)}
        assert ours == theirs, board.fen()


def test_fide_men_as_data_attack_exactly_as_python_chess():
    table = MenTable(FIDE_MEN)
    for board in random_positions(60, seed=2):
        for square in chess.SQUARES:
            for colour in chess.COLORS:
                assert table.attackers(board, colour, square) == int(board.attackers(colour, square)), \
                    (board.fen(), chess.square_name(square))


def perft(board, table, royalty, depth):
    if depth == 0:
        return 1
    total = 0
    for move in table.pseudo_moves(board):
        board.push(move)
        if royalty.is_safe(board, not board.turn, table):
            total += perft(board, table, royalty, depth - 1)
        board.pop()
    return total


def fide_perft_without_castling(board, depth):
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        if not board.is_castling(move):
            board.push(move)
            total += fide_perft_without_castling(board, depth - 1)
            board.pop()
    return total


@pytest.mark.parametrize("fen,depth,nodes", [
    (chess.STARTING_FEN, 3, 8902),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3, 2812),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w - - 1 8", 2, None),
])
def test_perft_of_fide_men_as_data_with_a_royal_king(fen, depth, nodes):
    board = chess.Board(fen)
    expected = fide_perft_without_castling(board, depth)
    assert perft(board, MenTable(FIDE_MEN), Royalty("k"), depth) == expected
    assert nodes is None or expected == nodes


def test_a_queen_that_moves_as_a_knight_attacks_as_a_knight():
    table = MenTable({**FIDE_MEN, "q": Man("separation queen", "N"), "n": Man("separation knight", "Q")})
    board = chess.Board("4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1")
    assert table.attackers(board, chess.WHITE, chess.E6) == chess.BB_D4
    assert table.attackers(board, chess.WHITE, chess.D8) == 0
    targets = {m.uci() for m in table.pseudo_moves(board) if m.from_square == chess.D4}
    assert targets == {"d4" + s for s in ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]}


def test_move_only_and_capture_only_modifiers():
    table = MenTable({"r": Man("tyrant rook", "mR"), "k": Man("king", "K"), "p": Man("p", "mWcF")})
    board = chess.Board("4k3/8/8/8/r3P3/8/8/R3K3 w - - 0 1")
    rook = {m.uci() for m in table.pseudo_moves(board) if m.from_square == chess.A1}
    assert "a1a4" not in rook and "a1a3" in rook
    pawn = {m.uci() for m in table.pseudo_moves(board) if m.from_square == chess.E4}
    assert pawn == {"e4e5", "e4e3", "e4d4", "e4f4"}


def test_a_colour_bound_man_never_changes_square_colour():
    table = MenTable({"q": Man("bound queen", "Q", colour_bound=True), "k": Man("king", "K")})
    board = chess.Board("4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1")
    targets = [m.to_square for m in table.pseudo_moves(board) if m.from_square == chess.D4]
    assert targets and all(chess.BB_SQUARES[t] & chess.BB_DARK_SQUARES for t in targets)
    assert table.attackers(board, chess.WHITE, chess.D5) == 0           # d5 is light: out of reach
    assert table.attackers(board, chess.WHITE, chess.A7) == chess.BB_D4   # a7, dark, on the diagonal


def test_betza_reading_refuses_what_it_cannot_read():
    with pytest.raises(ValueError):
        parse_betza("xyz")
    assert len(parse_betza("K")) == 2 and parse_betza("R")[0].ride


def test_royalty_both_king_and_queen_must_be_safe():
    table = MenTable(FIDE_MEN)
    board = chess.Board("4k3/8/8/8/8/8/3q4/Q3K3 w - - 0 1")
    assert Royalty("k").checked(board, chess.WHITE, table) == [chess.E1]
    assert sorted(Royalty("kq").checked(board, chess.WHITE, table)) == [chess.E1]
    board = chess.Board("4k3/8/8/8/8/8/1q6/Q3K3 w - - 0 1")
    assert Royalty("kq").checked(board, chess.WHITE, table) == [chess.A1]
    assert Royalty("").is_safe(board, chess.WHITE, table)
    assert Royalty("k", uncapturable="q").uncapturable_mask(board, chess.WHITE) == chess.BB_A1
