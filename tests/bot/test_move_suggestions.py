"""/move autocomplete and refusals for turns of several parts."""
import pytest

import rules
from bot.service import UserError, suggest

from .conftest import ALICE, BOB, CHANNEL

pytestmark = pytest.mark.asyncio


def swap_game():
    game = rules.new_game("balanced-swap")
    game.play("d2d4")
    return game


async def test_many_turns_narrow_to_their_first_parts_with_san_names():
    game = swap_game()
    choices = suggest(game, "", 25)
    assert 0 < len(choices) <= 25
    assert all(" " not in value for value, _ in choices)
    assert ("b8c6", "Nc6 … (b8c6)") in choices


async def test_typing_a_first_part_and_a_space_offers_only_its_turns():
    game = swap_game()
    choices = suggest(game, "b8c6 ", 25)
    legal = {m for m in game.legal_moves() if m.startswith("b8c6 ")}
    assert choices and {value for value, _ in choices} <= legal and len(choices) == min(25, len(legal))
    assert ("b8c6 f8/g7", "Nc6, f8/g7 (b8c6 f8/g7)") in suggest(game, "b8c6 f8", 25)
    assert ("b8c6 f8/g7", "Nc6, f8/g7 (b8c6 f8/g7)") in suggest(game, "Nc6, f8", 25)


async def test_few_turns_are_offered_whole_never_more_than_25():
    game = rules.new_game("standard")
    assert suggest(game, "g1", 25) == [("g1f3", "Nf3 (g1f3)"), ("g1h3", "Nh3 (g1h3)")]
    assert len(suggest(swap_game(), "b", 25)) <= 25


async def test_service_suggestions_and_per_part_refusals(service):
    await service.challenge(CHANNEL, ALICE, BOB, "balanced-swap")
    await service.accept(CHANNEL, BOB)
    assert await service.move_suggestions(CHANNEL, ALICE, "d2") == ["d2d3", "d2d4"]
    await service.move(CHANNEL, ALICE, "d4")
    assert all(s.startswith("b8c6 ") for s in await service.move_suggestions(CHANNEL, BOB, "b8c6 "))
    with pytest.raises(UserError, match="Nc6 is fine, but a6/a7"):
        await service.move(CHANNEL, BOB, "Nc6 a6/a7")
    with pytest.raises(UserError, match="must also swap"):
        await service.move(CHANNEL, BOB, "Nc6")
    reply = await service.move(CHANNEL, BOB, "Nc6 f8/g7")
    assert "bob plays **Nc6, then swaps f8 and g7**." in reply.text
