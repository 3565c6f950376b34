"""Moves typed as people type them (rules/spelling.py and Game.play), in every family of variant."""
import pytest

import rules
from rules import spelling
from rules.core import BoardView, Game, VariantInfo

PROMOTING = "3q4/k3P3/8/8/8/8/8/4K3 w - - 0 1"    # White's pawn on e7 may go to e8 or take on d8


def refusal(game, text):
    before, history = game.fen(), game.history
    with pytest.raises(rules.IllegalMove) as refused:
        game.play(text)
    assert (game.fen(), game.history) == (before, history)
    return refused.value


@pytest.mark.parametrize("typed, read", [
    ("1. e4", "e4"), ("1.e4", "e4"), ("1...e5", "e5"), ("12... Nf6", "Nf6"), ("12…Nf6", "Nf6"),
    ("Nf3+", "Nf3"), ("Qh4#", "Qh4"), ("e4!?", "e4"), ("Bb5!!", "Bb5"), ("e2-e4", "e2e4"),
    ("Ng1-f3", "Ng1f3"), ("0-0", "O-O"), ("0-0-0+", "O-O-O"), ("o-o", "O-O"),
    ("b8-c6 f8/g7", "b8c6 f8/g7"), ("3. Nc6 f8/g7", "Nc6 f8/g7"), ("e2 e4", "e2 e4"),
])
def test_typed_spellings_are_read_without_their_decoration(typed, read):
    assert spelling.normalise(typed) == read


def test_a_lower_case_piece_letter_is_read_as_the_piece_and_from_to_parts_are_left_alone():
    assert spelling.capitalised("nf3") == "Nf3"
    assert spelling.capitalised("ngf6 nfd7") == "Ngf6 Nfd7"
    assert spelling.capitalised("b1c2") is None and spelling.capitalised("e4") is None


def test_a_placement_is_read_with_its_letter_in_upper_case_and_its_square_in_lower():
    assert [spelling.placed(typed) for typed in ("q@A1", "Q@a1", "n@H8")] == ["Q@a1", "Q@a1", "N@h8"]


@pytest.mark.parametrize("slug", ["standard", "zoo", "contravention", "donnybrook", "balanced-swap"])
@pytest.mark.parametrize("typed, canonical", [
    ("nf3", "g1f3"), ("1. e4", "e2e4"), ("1.e4", "e2e4"), ("e2-e4", "e2e4"), ("  Nf3+  ", "g1f3"),
    ("1. Nc3!?", "b1c3"),
])
def test_every_family_reads_the_first_move_as_typed(slug, typed, canonical):
    game = rules.new_game(slug)   # in Balanced Swap too, White's first turn is one move
    assert game.play(typed) == canonical
    assert game.history == [canonical]


def test_black_moves_may_carry_their_move_number():
    game = rules.new_game("standard")
    game.play("1. e4")
    assert game.play("1...e5") == "e7e5"
    game.play("2. nf3")
    assert game.play("2... Nc6") == "b8c6"
    assert game.play("3.Bb5 ") == "f1b5"


def test_castling_with_zeros_or_a_check_mark():
    game = rules.new_game("standard", fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert game.play("0-0+") == "e1g1"


def test_turns_of_several_parts_keep_their_parts_under_move_numbers_and_dashes():
    game = rules.new_game("balanced-swap")
    game.play("1. d4")
    assert game.play("1... nc6 f8/g7") == "b8c6 f8/g7"
    game.undo()
    assert game.play("b8-c6 f8/g7!") == "b8c6 f8/g7"


def test_a_space_still_separates_parts_so_e2_e4_is_not_e2e4():
    game = rules.new_game("standard")
    refusal(game, "e2 e4")
    game = rules.new_game("balanced-swap")
    game.play("d4")
    refusal(game, "b8 c6 f8/g7")


def test_deadline_keeps_its_own_two_part_notation_typed_in_lower_case():
    game = rules.new_game("deadline")
    for move in ["e3", "d6", "Bb5+"]:
        game.play(move)
    assert game.play("2... nf6 nd7") == "g8f6 f6d7"


def test_a_lower_case_b_where_a_bishop_could_go_too_is_the_pawn_as_in_san():
    game = rules.new_game("standard", fen="4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1")
    assert game.label("b2c3") == "bxc3" and game.label("d2c3") == "Bxc3"
    assert game.play("bxc3") == "b2c3"
    game.undo()
    assert game.play("Bxc3") == "d2c3"
    game.undo()
    assert game.play("b2c3") == "b2c3"


def test_a_lower_case_b_that_is_only_a_bishop_move_plays_the_bishop():
    game = rules.new_game("standard", fen="4k3/8/8/8/8/2p5/3B4/4K3 w - - 0 1")   # no pawn on b2
    assert game.play("bxc3") == "d2c3"


def test_a_lower_case_b_that_is_only_a_pawn_move_plays_the_pawn():
    game = rules.new_game("standard", fen="4k3/8/8/8/8/2p5/1P6/B3K3 w - - 0 1")   # the bishop is blocked
    assert game.play("bxc3") == "b2c3"


def test_a_lower_case_letter_for_an_illegal_piece_move_says_so():
    game = rules.new_game("standard")
    assert str(refusal(game, "nf4")) == "Nf4 is not a legal move here."


@pytest.mark.parametrize("typed, moves, message", [
    ("e7e8", ["e7e8q", "e7e8r", "e7e8b", "e7e8n"], "Promote to which piece? e8=Q, e8=R, e8=B or e8=N"),
    ("e8", ["e7e8q", "e7e8r", "e7e8b", "e7e8n"], "Promote to which piece? e8=Q, e8=R, e8=B or e8=N"),
    ("e7-e8", ["e7e8q", "e7e8r", "e7e8b", "e7e8n"], "Promote to which piece? e8=Q, e8=R, e8=B or e8=N"),
    ("exd8", ["e7d8q", "e7d8r", "e7d8b", "e7d8n"], "Promote to which piece? exd8=Q, exd8=R, exd8=B or exd8=N"),
])
def test_a_promotion_without_its_piece_asks_which(typed, moves, message):
    game = rules.new_game("standard", fen=PROMOTING)
    choice = refusal(game, typed)
    assert isinstance(choice, rules.PromotionChoice)
    assert str(choice) == message and choice.moves == moves
    assert game.play(choice.moves[-1]) == moves[-1]


def test_a_promotion_with_its_piece_still_plays():
    game = rules.new_game("standard", fen=PROMOTING)
    assert game.play("exd8=N+") == "e7d8n"


def test_a_position_game_asks_only_among_its_own_promotion_pieces():
    game = rules.new_game("donnybrook", fen="7k/1P6/8/8/8/8/8/K7 w - - 0 1")
    choice = refusal(game, "b8")
    assert isinstance(choice, rules.PromotionChoice) and choice.moves == ["b7b8r", "b7b8b", "b7b8n"]
    assert str(choice) == "Promote to which piece? b8=R, b8=B or b8=N"


def test_without_san_the_question_names_the_men():
    choice = refusal(TwoPromotions(), "a7a8")
    assert isinstance(choice, rules.PromotionChoice) and choice.moves == ["a7a8q", "a7a8n"]
    assert str(choice) == "Promote to which piece: Queen or Knight? a7a8q or a7a8n"


def test_concurrent_asks_in_its_san():
    game = rules.new_game("concurrent", fen="7k/1P6/8/8/8/8/8/K7 w - - 0 1")
    choice = refusal(game, "b7a8")
    assert isinstance(choice, rules.PromotionChoice) and choice.moves == ["b7a8r", "b7a8b", "b7a8n"]
    assert str(choice) == "Promote to which piece? a8=R, a8=B or a8=N"
    assert game.play("a8=N") == "b7a8n"


class OnePromotion(Game):
    """A bare game whose only turns are a queen promotion and a pawn step."""
    info = VariantInfo("one-promotion", "One promotion", 2, "")

    def __init__(self):
        super().__init__()
        self.played = []

    turn = property(lambda self: rules.WHITE)

    def _moves(self):
        return [] if self.played else ["a7a8q", "h2h3"]

    def _resolve(self, text):
        if text in self._moves():
            return text
        raise rules.IllegalMove(f"{text} is not a legal move here.")

    def _apply(self, move):
        self.played.append(move)

    def _unapply(self):
        self.played.pop()

    def _judge(self):
        return None

    def fen(self):
        return " ".join(self.played)

    def view(self):
        return BoardView(8, 8, {})


class TwoPromotions(OnePromotion):
    """A bare game (no SAN: its labels are its moves) whose pawn may become a queen or a knight."""

    def _moves(self):
        return [] if self.played else ["a7a8q", "a7a8n", "h2h3"]


def test_a_single_promotion_piece_is_just_played():
    assert OnePromotion().play("a7a8") == "a7a8q"


@pytest.mark.parametrize("slug", ["standard", "zoo", "balanced-swap"])
@pytest.mark.parametrize("typed, canonical", [("E4", "e2e4"), ("E2e4", "e2e4"), ("E2-e4", "e2e4"), ("G1f3", "g1f3")])
def test_a_capital_file_letter_as_a_phone_types_it_is_read_as_the_pawns_file(slug, typed, canonical):
    assert rules.new_game(slug).play(typed) == canonical


def test_a_capital_b_before_a_capture_stays_a_bishop_and_a_capital_pawn_capture_is_read():
    game = rules.new_game("standard")
    for move in ["e4", "d5"]:
        game.play(move)
    assert refusal(game, "Bxd5").args[0] == "Bxd5 is not a legal move here."   # never the pawn's exd5
    assert refusal(game, "B2b3").args[0] == "B2b3 is not a legal move here."   # bishop SAN, never b2b3
    assert game.play("Exd5") == "e4d5"
    assert refusal(rules.new_game("standard"), "E5").args[0] == "e5 is not a legal move here."
    promoting = rules.new_game("standard", fen="k7/4P3/8/8/8/8/8/4K3 w - - 0 1")
    assert isinstance(refusal(promoting, "E8"), rules.PromotionChoice)
