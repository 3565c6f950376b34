"""The rules' shortcuts give the answers of the full tests they spare: a move that provably needs
no push is not pushed (Counselor, Regent, Separation, Linkage), and a costly question is answered
once per position (`rules.lookahead.per_position`, Series-Helpmate's demonstration). Each shortcut
is checked against the plain push-and-test over seeded positions built to stress it: men alone or
two between a royal man and an enemy line-mover, en passant, castling, dense boards."""
import random

import chess
import pytest

import rules
from rules.lookahead import each_after, lone_blockers, per_position, scratch
from rules.variants.regent import is_restricted

ROYALS = {"counselor": "KkQq", "regent": "Qq", "separation": "KkQq", "linkage": "Kk"}
OTHERS = {"counselor": "KQkqRBNPrbnp", "regent": "QqKkRBNPrbnp", "separation": "RBNPrbnp",
          "linkage": "QRBNPqrbnp"}
POSITIONS = 120   # per variant; loaded ones (a random board is often refused as a set-up)


def boards(slug: str, seed: int):
    """Seeded set-ups of `slug`: its royal men, 4 to 30 others, now and then an en passant square
    (a pawn that just stepped two, one of the mover's beside it) or castling rights."""
    rng, loaded = random.Random(f"{slug}/{seed}"), 0
    while loaded < POSITIONS:
        board = chess.Board(None)
        letters = list(ROYALS[slug]) + [rng.choice(OTHERS[slug]) for _ in range(rng.randint(4, 30))]
        for square, letter in zip(rng.sample(range(64), len(letters)), letters):
            if not (letter in "Pp" and chess.square_rank(square) in (0, 7)):
                board.set_piece_at(square, chess.Piece.from_symbol(letter))
        board.turn = rng.random() < 0.5
        if rng.random() < 0.4:   # en passant
            us, file = board.turn, rng.randrange(8)
            rank = 4 if us else 3
            step = 1 if us else -1
            board.remove_piece_at(chess.square(file, rank + step))
            board.remove_piece_at(chess.square(file, rank + 2 * step))
            board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, not us))
            board.set_piece_at(chess.square(file + 1 if file < 7 else file - 1, rank), chess.Piece(chess.PAWN, us))
            board.ep_square = chess.square(file, rank + step)
        if slug == "linkage" and rng.random() < 0.3:   # castling
            for colour, home, corners in ((chess.WHITE, chess.E1, (chess.A1, chess.H1)),
                                          (chess.BLACK, chess.E8, (chess.A8, chess.H8))):
                king = board.king(colour)
                if king is not None:
                    board.remove_piece_at(king)
                board.set_piece_at(home, chess.Piece(chess.KING, colour))
                for corner in corners:
                    if rng.random() < 0.7:
                        board.set_piece_at(corner, chess.Piece(chess.ROOK, colour))
                        board.castling_rights |= chess.BB_SQUARES[corner]
        try:
            game = rules.new_game(slug, fen=board.fen(en_passant="fen"))
        except ValueError:
            continue
        loaded += 1
        yield game


def full_counselor(variant, board):
    work = scratch(board)
    safe = list(variant.safe_moves(work))
    mating = [m for m, now in each_after(work, safe)
              if now.queens & now.occupied_co[now.turn] and variant.mates_queen(now)]
    return safe, mating


def full_regent(variant, board):
    barred = variant.barred_all(board)
    free = (m for m in variant.pseudo(board) if not is_restricted(m, barred))
    return {m.uci() for m, now in each_after(scratch(board), free) if variant.fault(board.turn, now) is None}


def full_separation(variant, position):
    board = position.board
    checks = variant.checks(board)
    return {m: variant.verdict(board, now, m, checks) for m, now in each_after(scratch(board), variant.steps(position))}


@pytest.mark.parametrize("slug", sorted(ROYALS))
def test_a_shortcut_agrees_with_the_full_test_it_spares(slug):
    for game in boards(slug, 1):
        variant, board = game.variant, game.position.board
        if slug == "counselor":
            assert variant.sorted_moves(board) == full_counselor(variant, board), game.fen()
        elif slug == "regent":
            assert set(variant.turns(game.position)) == full_regent(variant, board), game.fen()
        elif slug == "separation":
            assert variant.verdicts(game.position) == full_separation(variant, game.position), game.fen()
        else:
            assert variant.legal(board, None) == [m for m in variant.generate(board, None)
                                                  if variant.allows(board, None, m)], game.fen()


@pytest.mark.parametrize("first, then", [("b", "w"), ("w", "b")])
def test_series_helpmates_remembered_demonstration_is_the_one_of_the_side_to_move(first, then):
    """The same men with either side to move, one after the other in one process: a demonstration
    is only the mover's (1 f3 e5 2 g4: White to move wins, Black could mate with Qh4)."""
    men = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR"
    judged = {turn: rules.new_game("series-helpmate", fen=f"{men} {turn} KQkq - 0 3").outcome for turn in (first, then)}
    assert judged["b"] is None
    assert judged["w"].result == "1-0" and "Black could mate White with Qh4#" in judged["w"].reason


def test_a_question_per_position_is_asked_again_for_another_mover_castling_or_en_passant_and_kept_within_bound():
    asked = []
    question = per_position(keep=3)(lambda board: asked.append(board.fen()) or len(asked))
    board = chess.Board()
    assert question(board) == question(board.copy()) == 1   # the same position: asked once
    other_mover, no_castling = board.copy(), board.copy()
    other_mover.turn = chess.BLACK
    no_castling.castling_rights = chess.BB_EMPTY
    passant = chess.Board("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
    no_passant = passant.copy()
    no_passant.ep_square = None
    assert [question(b) for b in (other_mover, no_castling, passant)] == [2, 3, 4]
    assert question(no_passant) == 5   # full at 3 answers: started over, so the first is asked again below
    assert question(board) == 6 and len(asked) == 6


def test_lone_blockers_are_the_movers_men_alone_on_a_line_to_the_target():
    board = chess.Board("4r2k/8/8/8/8/8/4N3/4K2r w - - 0 1")   # Ne2 alone between Ke1 and Re8; Rh1 checks along rank 1
    snipers = chess.BB_E8 | chess.BB_H1
    assert lone_blockers(board, chess.E1, snipers) == chess.BB_E2
    board.set_piece_at(chess.E3, chess.Piece(chess.BISHOP, chess.WHITE))   # two men between: neither is alone
    assert lone_blockers(board, chess.E1, snipers) == chess.BB_EMPTY
    board.remove_piece_at(chess.E3)
    board.set_piece_at(chess.G1, chess.Piece(chess.KNIGHT, chess.BLACK))   # alone between, but not the mover's
    assert lone_blockers(board, chess.E1, snipers) == chess.BB_E2
