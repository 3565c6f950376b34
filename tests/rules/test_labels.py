"""What a player reads, a player can type: every turn's label plays as that turn, in every variant.

A label (`game.label(move)`, `game.last_move_label()`: what autocomplete, menus and messages show)
is SAN per part joined by ", ", and `play` takes it back to the canonical turn; the parts of a
turn may also be typed with "," or ", " between them, each part in any spelling `play` reads.
`game.describe_move(move)` says the turn in words for messages and buttons.
"""
from __future__ import annotations

import random

import chess
import pytest

import rules
from rules.notation import numbered
from bot.service import suggest

SLUGS = sorted(rules.VARIANTS)
SEEDS = (0,)      # one seeded game per variant: the behaviour corpus replays every label it recorded as well
PLIES = 40        # plies of seeded random play per game
CHECKED = 12      # legal turns checked per position (all of them where there are fewer)


def positions(slug: str):
    """Games of seeded random play, the game yielded at each position reached (then played on)."""
    for seed in SEEDS:
        game = rules.new_game(slug, seed=seed)
        rng = random.Random(f"{slug}/{seed}")
        while game.outcome is None and len(game.history) < PLIES:
            moves = game.legal_moves()
            yield game, rng
            game.play(rng.choice(moves))


def plays_as(game: rules.Game, text: str) -> str:
    """The canonical turn `play(text)` returns, taken back again at once."""
    played = game.play(text)
    assert game.undo() == played
    return played


@pytest.mark.parametrize("slug", SLUGS)
def test_every_label_plays_as_its_turn_and_every_turn_is_described(slug):
    for game, rng in positions(slug):
        if game.history:   # the last turn as messages show it, typed where it was played
            last, label = game.history[-1], game.last_move_label()
            assert game.last_move_description().strip()
            game.undo()
            assert plays_as(game, label) == last, f"{slug} at {game.fen()}: {last} labelled {label!r}"
            game.play(last)
        moves = sorted(game.legal_moves())
        joined = 0   # turns of several parts typed with commas here
        for move in moves if len(moves) <= CHECKED else rng.sample(moves, CHECKED):
            label = game.label(move)
            where = f"{slug} at {game.fen()}: {move} labelled {label!r}"
            assert plays_as(game, label) == move, where
            words = game.describe_move(move)
            assert words.strip() and words == " ".join(words.split()), where
            if " " not in move and "@" not in move:
                assert words == label, where   # a turn of one move is said as its label
                continue
            parts = label.split(", ")
            assert len(parts) == len(move.split()) and words != label, where
            joined += 1
            if joined > 3:
                continue
            assert plays_as(game, ",".join(parts)) == move, where
            assert plays_as(game, ", ".join(move.split())) == move, where
            assert plays_as(game, ",".join(move.split())) == move, where



# -- a lower-case b is a pawn's file, as in SAN ------------------------------------------------------

@pytest.mark.parametrize("slug, fen, pawn, bishop", [
    ("regent", "rnb1q1nr/3p1k1p/p4p2/1ppPp3/1P3Ppb/P1PQB1P1/4P2R/1N1RKBN1 w - - 0 20", "b4c5", "e3c5"),
    ("clerical", "rnb1q1nr/p2ppk1p/1p3p1b/5P2/2pP2pP/1PP1P1PN/P6R/RN1QKB2 w - - 0 14", "b3c4", "f1c4"),
    ("standard", "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "b2c3", "d2c3"),
])
def test_bxc4_is_the_pawn_and_Bxc4_the_bishop(slug, fen, pawn, bishop):
    game = rules.new_game(slug, fen=fen)
    written = game.label(pawn)
    assert written[0] == "b" and game.label(bishop) == "B" + written[1:]
    assert plays_as(game, written) == pawn
    assert plays_as(game, "B" + written[1:]) == bishop


# -- Reentrant and Concurrent write and read SAN ----------------------------------------------------

def test_reentrant_labels_its_moves_in_san_and_reads_them():
    game = rules.new_game("reentrant")
    assert game.label("e2e3") == "e3" and game.label("b1c3") == "Nc3" and game.label("f1e1") == "Ke1"
    assert plays_as(game, "e3") == "e2e3"
    assert plays_as(game, "Nc3") == "b1c3"
    assert plays_as(game, "nc3") == "b1c3"
    assert plays_as(game, "b1c3") == "b1c3"
    assert suggest(game, "e3", 25) == [("e2e3", "e3 (e2e3)")]


def test_reentrant_pawns_that_reach_one_square_are_told_apart_by_their_square():
    # The pawns on e2 and f3 (the first player's, white on e-h) may both step to e3.
    game = rules.new_game("reentrant", fen="RNQ2knr/PPPPpppp/8/8/8/5P2/ppppPP1P/rnq2KNR w - - 0 1")
    assert game.label("e2e3") == "e2e3" and game.label("f3e3") == "f3e3"
    assert str(refusal(game, "e3")) == "e3 is ambiguous: say which man, e.g. e2e3."
    assert plays_as(game, "f3e3") == "f3e3"


def test_reentrant_captures_are_read_by_who_owns_the_men():
    # The first player's black knight on c5 (a-d) takes the second player's white pawn on d3.
    game = rules.new_game("reentrant", fen="RNQ2knr/PPP1pppp/8/2n5/8/3P4/ppp1PPPP/r1q2KNR w - - 0 1")
    assert game.label("c5d3") == "Nxd3"
    assert plays_as(game, "Nxd3") == "c5d3"
    assert game.describe_move("c5d3") == "Nxd3"


def test_concurrent_labels_its_moves_in_san_and_reads_them():
    game = rules.new_game("concurrent")
    game.play("a2b3")
    game.play("a7b6")
    assert game.label("a1a3") == "Ra3" and plays_as(game, "Ra3") == "a1a3"
    assert game.label("b1c3") == "b1c3"   # the pawns on b2 and d2 may both step to c3
    assert str(refusal(game, "c3")) == "c3 is ambiguous: say which man, e.g. b2c3."
    assert str(refusal(game, "Nc3")) == "Nc3 is not a legal move here."


def test_concurrent_writes_a_mirror_then_the_move_in_san():
    game = rules.new_game("concurrent", fen="rnbqkbnr/ppp1pppp/2p5/8/P7/8/PPPPPPP1/RNBQKBNR b - - 0 2")
    assert game.label("c6|f6 c8d7") == "c6|f6, Bd7"
    assert game.describe_move("c6|f6 c8d7") == "mirrors c6 to f6, then Bd7"
    for typed in ("c6|f6, Bd7", "c6|f6,Bd7", "c6|f6 Bd7", "C6|F6, c8d7", "c6|f6, c8-d7"):
        assert plays_as(game, typed) == "c6|f6 c8d7", typed


# -- turns of several parts typed with commas ---------------------------------------------------------

@pytest.mark.parametrize("slug, fen, moves, turn, typed", [
    ("balanced-swap", None, ["d4"], "d7d5 f8/e7", ["d7d5, f8/e7", "d7d5,f8/e7", "d5, f8/e7", "d5,f8/e7", "d5 f8/e7"]),
    ("concurrent", "rnbqkbnr/ppp1pppp/2p5/8/P7/8/PPPPPPP1/RNBQKBNR b - - 0 2", [], "c6|f6 c8d7",
     ["c6|f6, c8d7", "c6|f6,c8d7", "c6|f6, Bd7"]),
    ("deadline", None, ["e3", "d6", "Bb5+"], "a7a6 a6b5", ["a6, axb5", "a6,axb5", "a7a6, a6b5", "a7a6,a6b5"]),
    ("donnybrook", "1r1q2n1/4pbbn/p4p1r/1p1p3p/1P1P1PpP/R1PK1NP1/1PQB3R/1N6[B] w - - 0 27", [], "B@a1 f3g5",
     ["B@a1, Ng5", "B@a1,Ng5", "b@a1, f3g5", "B@a1,f3g5"]),
    ("tyrant", "br1r1Nn1/p3k2p/P1p2ppP/1p1pp1N1/1PPPP3/B4P1R/1Q4q1/1R1K1B2 w - - 1 43", [], "b2g2 Q@a1",
     ["Qxg2, Q@a1", "Qxg2,Q@a1", "b2g2, q@a1", "Qxg2 Q@a1"]),
])
def test_the_parts_of_a_turn_may_be_typed_with_commas(slug, fen, moves, turn, typed):
    game = rules.new_game(slug, fen=fen)
    for move in moves:
        game.play(move)
    assert turn in game.legal_moves()
    assert game.label(turn).replace(", ", " ") != turn or " " not in turn   # the label is not the canonical text
    for text in typed:
        assert plays_as(game, text) == turn, text


def test_a_comma_alone_or_a_stray_comma_is_not_a_turn():
    game = rules.new_game("balanced-swap")
    game.play("d4")
    assert str(refusal(game, ",")) == "Type a move, for example e2e4."
    assert plays_as(game, "d7d5,, f8/e7") == "d7d5 f8/e7"


# -- turns in words --------------------------------------------------------------------------------

@pytest.mark.parametrize("slug, fen, moves, turn, label, words", [
    ("balanced-swap", None, ["d4"], "d7d5 f8/e7", "d5, f8/e7", "d5, then swaps f8 and e7"),
    ("tyrant", "br1r1Nn1/p3k2p/P1p2ppP/1p1pp1N1/1PPPP3/B4P1R/1Q4q1/1R1K1B2 w - - 1 43", [], "b2g2 Q@a1",
     "Qxg2, Q@a1", "Qxg2, then places the Queen on a1"),
    ("donnybrook", "1r1q2n1/4pbbn/p4p1r/1p1p3p/1P1P1PpP/R1PK1NP1/1PQB3R/1N6[B] w - - 0 27", [], "B@a1 f3g5",
     "B@a1, Ng5", "puts the Bishop back on a1, then Ng5"),
    ("deadline", None, ["e3", "d6", "Bb5+"], "a7a6 a6b5", "a6, axb5", "a6, then axb5"),
    ("reentrant", "RNQ2knr/PPP1pppp/8/8/8/8/ppppPPPP/rnq2KNR[P,] w - - 0 1", [], "P@e4", "P@e4",
     "drops a pawn on e4"),
    ("standard", None, [], "g1f3", "Nf3", "Nf3"),
])
def test_a_turn_is_described_in_words_and_its_label_stays_notation(slug, fen, moves, turn, label, words):
    game = rules.new_game(slug, fen=fen)
    for move in moves:
        game.play(move)
    assert (game.label(turn), game.describe_move(turn)) == (label, words)
    game.play(turn)
    assert game.last_move_description().rstrip("+#") == words


@pytest.mark.parametrize("slug, fen, moves, turn, said", [
    ("balanced-swap", None, ["d4"], "d7d5 f8/e7", ("plays", "d5, then swaps f8 and e7")),
    ("tyrant", "br1r1Nn1/p3k2p/P1p2ppP/1p1pp1N1/1PPPP3/B4P1R/1Q4q1/1R1K1B2 w - - 1 43", [], "b2g2 Q@a1",
     ("plays", "Qxg2, then places the Queen on a1")),
    ("donnybrook", "1r1q2n1/4pbbn/p4p1r/1p1p3p/1P1P1PpP/R1PK1NP1/1PQB3R/1N6[B] w - - 0 27", [], "B@a1 f3g5",
     ("puts", "the Bishop back on a1, then Ng5")),
    ("reentrant", "RNQ2knr/PPP1pppp/8/8/8/8/ppppPPPP/rnq2KNR[P,] w - - 0 1", [], "P@e4", ("drops", "a pawn on e4")),
    ("standard", None, [], "g1f3", ("plays", "Nf3")),
])
def test_the_rules_say_a_turns_verb_apart_from_what_follows_it(slug, fen, moves, turn, said):
    game = rules.new_game(slug, fen=fen)
    for move in moves:
        game.play(move)
    assert game.said_move(turn) == said and game.said_move(turn).text() == game.describe_move(turn)
    game.play(turn)
    assert game.last_move_said() == said


def test_a_swap_that_promotes_says_what_the_pawn_becomes():
    game = rules.new_game("balanced-swap", fen="R7/7k/8/8/8/8/P7/4K3 w - - 0 2")   # the rook on a8 may swap with a2
    turn = next(m for m in game.legal_moves() if m.startswith("e1e2 ") and m.endswith("n"))
    first, second = turn.split()[1][:-1].split("/")
    assert {first, second} == {"a2", "a8"}
    assert game.label(turn) == f"Ke2, {first}/{second}n"
    assert game.describe_move(turn) == f"Ke2, then swaps {first} and {second}, the pawn becoming a Knight"


def test_the_last_turn_in_words_says_check_after_a_part_that_is_not_a_move():
    # The first player holds a white pawn, dropped on e-h; on g7 it checks the King on f8.
    game = rules.new_game("reentrant", fen="RNQ2knr/PPPPpp1p/8/8/8/8/ppppPPPP/rnq2KNR[P,] w - - 0 1")
    game.play("P@g7")
    assert game.view().checks
    assert (game.last_move_label(), game.last_move_description()) == ("P@g7+", "drops a pawn on g7, check")
    assert game.last_move_said() == ("drops", "a pawn on g7, check")


def refusal(game: rules.Game, text: str) -> rules.IllegalMove:
    before, history = game.fen(), game.history
    with pytest.raises(rules.IllegalMove) as refused:
        game.play(text)
    assert (game.fen(), game.history) == (before, history)
    return refused.value


def test_numbered_writes_a_move_as_in_a_game_score():
    board = chess.Board()
    for san in ["f4", "e6", "Nf3"]:
        board.push_san(san)
    # Black to move at move 2: White's last move was 2 Nf3; Black's next is 2...
    assert numbered(board, "Nf3", last=True) == "2 Nf3"
    assert numbered(board, "Qh4#") == "2...Qh4#"
    board.push_san("a6")
    assert numbered(board, "a6", last=True) == "2...a6"
    assert numbered(board, "g4") == "3 g4"
