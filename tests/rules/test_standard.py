"""Standard chess through the public API: perft, SAN input, FIDE endings and claims."""
import pytest

import rules
from tests.rules.variants.support import perft


@pytest.mark.parametrize("depth,count", [(1, 20), (2, 400), (3, 8902)])
def test_perft_from_the_start(depth, count):
    assert perft(rules.new_game("standard"), depth) == count


def test_perft_kiwipete_depth_two():
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    assert perft(rules.new_game("standard", fen=fen), 2) == 2039


def test_san_and_uci_are_both_accepted_and_history_is_canonical():
    game = rules.new_game("standard")
    assert game.play("e4") == "e2e4"
    assert game.play("e7e5") == "e7e5"
    assert game.play("Nf3") == "g1f3"
    assert game.history == ["e2e4", "e7e5", "g1f3"]


def test_castling_is_written_as_the_king_move():
    game = rules.new_game("standard", fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert "e1g1" in game.legal_moves() and "e1c1" in game.legal_moves()
    assert game.play("O-O") == "e1g1"


def test_promotion_notation():
    game = rules.new_game("standard", fen="8/P7/8/8/8/8/8/k6K w - - 0 1")
    assert {"a7a8q", "a7a8r", "a7a8b", "a7a8n"} <= set(game.legal_moves())
    assert game.play("a8=N") == "a7a8n"


def test_ambiguous_san_is_refused_with_a_hint():
    game = rules.new_game("standard", fen="k7/8/8/8/8/8/8/KN3N2 w - - 0 1")
    with pytest.raises(rules.IllegalMove, match="ambiguous"):
        game.play("Nd2")
    assert game.play("Nbd2") == "b1d2"


def test_moving_into_check_is_explained():
    game = rules.new_game("standard", fen="k7/8/8/8/8/8/1r6/K7 w - - 0 1")
    with pytest.raises(rules.IllegalMove, match="check"):
        game.play("a1b1")


def test_fools_mate_is_checkmate():
    game = rules.new_game("standard")
    for move in ["f3", "e5", "g4", "Qh4"]:
        game.play(move)
    assert game.outcome.result == "0-1"
    assert game.outcome.reason == "checkmate"
    assert game.view().checks == ("e1",)


def test_stalemate_is_a_draw():
    game = rules.new_game("standard", fen="k7/8/1Q6/8/8/8/8/7K b - - 0 1")
    assert game.outcome.result == "1/2-1/2" and game.outcome.reason == "stalemate"


def test_insufficient_material_is_an_automatic_draw():
    game = rules.new_game("standard", fen="k7/8/8/8/8/8/8/6NK w - - 0 1")
    assert game.outcome.reason == "insufficient material"


def test_threefold_repetition_is_claimable_not_automatic():
    game = rules.new_game("standard")
    for _ in range(2):
        for move in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            game.play(move)
    assert game.outcome is None
    assert game.claimable_draw() == "threefold repetition"
    claim = game.claimable_outcome()   # the rules say the kind of the draw, not only its words
    assert (claim.result, claim.reason, claim.kind) == ("1/2-1/2", "threefold repetition", "repetition")


@pytest.mark.parametrize("slug", ["counselor", "tyrant"])   # turns of parts (rules.position) claim the same way
def test_a_claimable_repetition_has_its_kind_in_parts_variants_too(slug):
    game = rules.new_game(slug, seed=1)
    for _ in range(2):
        for move in ["g1f3", "g8f6", "f3g1", "f6g8"]:
            game.play(move)
    assert (game.claimable_draw(), game.claimable_outcome().kind) == ("threefold repetition", "repetition")


def test_fivefold_repetition_ends_the_game():
    game = rules.new_game("standard")
    for _ in range(4):
        for move in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            game.play(move)
    assert game.outcome.reason == "fivefold repetition"


def test_fifty_moves_claimable_and_seventy_five_automatic():
    game = rules.new_game("standard", fen="k7/8/8/8/8/8/8/KR6 w - - 100 80")
    assert game.outcome is None and game.claimable_draw().startswith("50 moves")
    assert game.claimable_outcome().kind == "fifty-moves"
    game = rules.new_game("standard", fen="k7/8/8/8/8/8/8/KR6 w - - 150 80")
    assert game.outcome.reason.startswith("75 moves")


def test_finish_records_resignation_and_undo_reopens():
    game = rules.new_game("standard")
    game.play("e4")
    game.finish(rules.Outcome.win("white", "black resigned"))
    assert game.outcome.result == "1-0"
    with pytest.raises(rules.IllegalMove):
        game.play("e5")


def test_invalid_fen_is_refused():
    with pytest.raises(ValueError):
        rules.new_game("standard", fen="not a fen")
    with pytest.raises(KeyError):
        rules.new_game("no-such-variant")


def test_a_refused_san_move_is_explained_by_the_variant():
    game = rules.new_game("moderation", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +3+0")
    with pytest.raises(rules.IllegalMove) as by_san:
        game.play("Ra8")
    with pytest.raises(rules.IllegalMove) as by_squares:
        game.play("a1a8")
    assert str(by_san.value) == str(by_squares.value)
    assert "not a legal move" not in str(by_san.value)


def test_last_move_label_is_san_with_check_and_mate_marks():
    game = rules.new_game("standard")
    assert game.last_move_label() == ""
    for move, label in [("e2e4", "e4"), ("f7f6", "f6"), ("d1h5", "Qh5+"), ("g7g6", "g6"), ("h5g6", "Qxg6+")]:
        game.play(move)
        assert game.last_move_label() == label
    game.undo()
    assert game.last_move_label() == "g6"
    game = rules.new_game("standard")
    for move in ["f3", "e5", "g4", "Qh4"]:
        game.play(move)
    assert game.last_move_label() == "Qh4#"


def test_puzzle_labels_are_the_canonical_moves():
    game = rules.new_game("kingswap", fen="5/5/5/5/R3K 1 0")
    game.play("a1a3")
    assert game.last_move_label() == "a1a3"


def test_a_capital_b_with_a_rank_is_a_bishop_not_the_b_file():
    # Bishops on d1 and b3 both reach c2; the king on b1 could step there too.
    fen = "4k2r/8/8/8/8/1B6/8/1K1B4 w - - 0 1"
    game = rules.new_game("standard", fen=fen)
    assert game.play("B1c2") == "d1c2"       # SAN: the bishop from the first rank
    game.undo()
    assert game.play("b1c2") == "b1c2"       # from-to: the king
    game = rules.new_game("standard", fen="4k2r/8/8/8/8/8/8/1K1B4 w - - 0 1")
    assert "b1c2" in game.legal_moves()
    with pytest.raises(rules.IllegalMove) as refused:
        game.play("B3c2")                    # no bishop on the third rank: never the king's b1c2
    assert game.history == [] and "b3" not in str(refused.value).split("No piece on ")[-1][:2]
