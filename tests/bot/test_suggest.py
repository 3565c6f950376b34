"""/move autocomplete (bot/suggest.py): SAN with the from-to, prefixes of either, useful order."""
import pytest

import rules
from bot.suggest import NAME_LIMIT, suggest

from .conftest import ALICE, BOB, CAROL, CHANNEL

ITALIAN = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"]   # White may now take on f7 (mate), e5 or h7


def game_after(moves, slug="standard"):
    game = rules.new_game(slug)
    for move in moves:
        game.play(move)
    return game


def test_each_choice_shows_san_with_the_from_to_in_brackets():
    assert ("g1f3", "Nf3 (g1f3)") in suggest(rules.new_game("standard"), "", 25)
    assert suggest(rules.new_game("standard"), "e2", 25) == [("e2e3", "e3 (e2e3)"), ("e2e4", "e4 (e2e4)")]


@pytest.mark.parametrize("typed", ["N", "n"])
def test_a_piece_letter_lists_that_pieces_moves_in_any_case(typed):
    values = [value for value, _ in suggest(rules.new_game("standard"), typed, 25)]
    assert values == ["b1a3", "b1c3", "g1f3", "g1h3"]


@pytest.mark.parametrize("typed, values", [
    ("e2-", ["e2e3", "e2e4"]), ("e2-e", ["e2e3", "e2e4"]), ("e2–e4", ["e2e4"]), ("g1-", ["g1f3", "g1h3"]),
    ("g1-f", ["g1f3"]), ("1. e2-", ["e2e3", "e2e4"]),
])
def test_a_dash_after_the_from_square_keeps_the_choices_while_typing(typed, values):
    assert [value for value, _ in suggest(rules.new_game("standard"), typed, 25)] == values


def test_a_piece_letter_and_file_lists_its_moves_to_that_file():
    assert suggest(rules.new_game("standard"), "nf", 25) == [("g1f3", "Nf3 (g1f3)")]


def test_from_to_prefixes_still_match():
    assert [value for value, _ in suggest(rules.new_game("standard"), "G1", 25)] == ["g1f3", "g1h3"]


def test_a_move_number_before_the_prefix_is_ignored():
    assert [value for value, _ in suggest(rules.new_game("standard"), "1. nf", 25)] == ["g1f3"]


def test_checks_come_first_then_captures_then_the_rest_each_in_canonical_order():
    game = game_after(ITALIAN)
    values = [value for value, _ in suggest(game, "", 25)]
    assert values[:4] == ["c4f7", "h5e5", "h5f7", "h5h7"]   # Bxf7+, Qxe5+, Qxf7#, then Qxh7
    rest = values[4:]
    assert rest == sorted(rest)
    assert suggest(game, "Q", 3) == [("h5e5", "Qxe5 (h5e5)"), ("h5f7", "Qxf7 (h5f7)"), ("h5h7", "Qxh7 (h5h7)")]


def test_ordering_leaves_the_game_as_it_was():
    game = game_after(ITALIAN)
    before, history, legal = game.fen(), game.history, game.legal_moves()
    suggest(game, "", 25)
    assert (game.fen(), game.history, game.legal_moves()) == (before, history, legal)


def test_the_whole_list_without_a_limit_stays_in_canonical_order():
    game = game_after(ITALIAN)
    assert [value for value, _ in suggest(game, "", None)] == sorted(game.legal_moves())


def test_never_more_than_25_choices_or_100_characters():
    game = game_after(["d4"], "balanced-swap")
    for typed in ["", "b", "b8c6 ", "Nc6 "]:
        choices = suggest(game, typed, 25)
        assert 0 < len(choices) <= 25
        assert all(len(name) <= NAME_LIMIT and len(value) <= NAME_LIMIT for value, name in choices)


def test_turns_of_several_parts_are_still_narrowed_part_by_part_by_san_too():
    game = game_after(["d4"], "balanced-swap")
    firsts = suggest(game, "N", 25)
    assert ("b8c6", "Nc6 … (b8c6)") in firsts and all(" " not in value for value, _ in firsts)
    assert all(value.startswith("b8c6 ") for value, _ in suggest(game, "Nc6 ", 25))


@pytest.mark.asyncio
async def test_nothing_is_offered_to_the_player_not_to_move_or_to_a_stranger(service):
    await service.challenge(CHANNEL, ALICE, BOB, "standard")
    await service.accept(CHANNEL, BOB)
    assert await service.move_choices(CHANNEL, BOB, "") == []
    assert await service.move_choices(CHANNEL, CAROL, "") == []
    assert len(await service.move_choices(CHANNEL, ALICE, "")) == 20
    await service.move(CHANNEL, ALICE, "e4")
    assert await service.move_choices(CHANNEL, ALICE, "") == []
    assert ("g8f6", "Nf6 (g8f6)") in await service.move_choices(CHANNEL, BOB, "N")
