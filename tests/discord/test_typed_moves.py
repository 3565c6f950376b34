"""End to end: moves typed as people type them, and /move autocomplete, through the fake Discord."""
from __future__ import annotations

import pytest

from tests.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """These tests play where the command runs; games in threads: tests/discord/test_threads.py."""
    fake.deny_threads()


async def start_game(fake: FakeDiscord) -> None:
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
    accept_id = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    await fake.click(accept_id, user=fake.bob)


async def test_moves_typed_with_lower_case_letters_move_numbers_and_dashes_are_played(bot, fake):
    await start_game(fake)
    knight = await fake.slash("move", {"move": "nf3"}, user=fake.alice)
    assert "1. alice plays **Nf3**." in knight.reply.content and not knight.reply.ephemeral
    numbered = await fake.slash("move", {"move": "1...e5"}, user=fake.bob)
    assert "1… bob plays **e5**." in numbered.reply.content
    dashed = await fake.slash("move", {"move": "e2-e4"}, user=fake.alice)
    assert "2. alice plays **e4**." in dashed.reply.content
    spaced = await fake.slash("move", {"move": "b8 c6"}, user=fake.bob)
    assert spaced.reply.ephemeral and "b8 c6" in spaced.reply.content


async def test_autocomplete_lists_checks_and_captures_first_and_filters_by_piece_letter(bot, fake):
    await start_game(fake)
    for player, move in [(fake.alice, "e4"), (fake.bob, "e5"), (fake.alice, "Bc4"), (fake.bob, "Nc6"),
                         (fake.alice, "Qh5"), (fake.bob, "Nf6")]:
        await fake.slash("move", {"move": move}, user=player)
    choices = await fake.autocomplete("move", {"move": ""}, "move", user=fake.alice)
    assert [c["name"] for c in choices[:4]] == ["Bxf7 (c4f7)", "Qxe5 (h5e5)", "Qxf7 (h5f7)", "Qxh7 (h5h7)"]
    assert len(choices) <= 25 and all(len(c["name"]) <= 100 for c in choices)
    knights = await fake.autocomplete("move", {"move": "N"}, "move", user=fake.alice)
    assert [c["value"] for c in knights] == ["b1a3", "b1c3", "g1e2", "g1f3", "g1h3"]
    assert all(c["name"].startswith("N") for c in knights)


async def test_autocomplete_offers_nothing_to_the_player_not_to_move(bot, fake):
    await start_game(fake)
    assert await fake.autocomplete("move", {"move": ""}, "move", user=fake.bob) == []
    assert len(await fake.autocomplete("move", {"move": ""}, "move", user=fake.alice)) == 20



async def test_a_promotion_typed_without_its_piece_asks_which_privately_and_changes_nothing(bot, fake, service):
    await start_game(fake)
    for player, move in [(fake.alice, "h4"), (fake.bob, "g5"), (fake.alice, "hxg5"), (fake.bob, "Bg7"),
                         (fake.alice, "g6"), (fake.bob, "a6"), (fake.alice, "gxh7"), (fake.bob, "a5")]:
        await fake.slash("move", {"move": move}, user=player)
    for typed in ("hxg8", "h7g8", "h7-g8"):
        asked = await fake.slash("move", {"move": typed}, user=fake.alice)
        [answer] = asked.messages
        assert answer.ephemeral and answer.content == \
            "Promote to which piece? hxg8=Q, hxg8=R, hxg8=B or hxg8=N"
    assert len((await service.store.open_game(fake.channel_id)).moves) == 8
    promoted = await fake.slash("move", {"move": "hxg8=N"}, user=fake.alice)
    assert "alice plays **hxg8=N**." in promoted.reply.content


async def test_a_capital_file_letter_as_a_phone_types_it_is_played(bot, fake):
    await start_game(fake)
    pawn = await fake.slash("move", {"move": "E4"}, user=fake.alice)
    assert "1. alice plays **e4**." in pawn.reply.content and not pawn.reply.ephemeral
    await fake.slash("move", {"move": "D5"}, user=fake.bob)
    capture = await fake.slash("move", {"move": "Exd5"}, user=fake.alice)
    assert "2. alice plays **exd5**." in capture.reply.content
