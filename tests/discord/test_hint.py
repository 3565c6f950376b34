"""End to end through the Discord stand-in: /hint in a solo puzzle, counted beside the score."""
from __future__ import annotations

import pytest

import rules

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """These puzzles are played where the command runs (no thread of their own), unless a test says otherwise."""
    fake.deny_threads()


async def test_a_hint_names_a_legal_move_and_why_and_is_counted(bot, fake, service):
    await fake.slash("puzzle", {"variant": "kingswap", "seed": 7}, user=fake.alice)
    log = await fake.slash("hint", user=fake.alice, timeout=10)
    assert "Hint for alice" in log.text and "1 hint taken" in log.text
    move = log.text.split("`")[1]
    assert move in rules.new_game("kingswap", seed=7).legal_moves()
    assert (await service.store.open_game(fake.channel_id)).hints == 1


async def test_hints_are_shown_beside_the_final_score(bot, fake, service):
    await fake.slash("puzzle", {"variant": "solitary-patience", "seed": 3}, user=fake.alice)
    await fake.slash("hint", user=fake.alice, timeout=10)
    await fake.slash("hint", user=fake.alice, timeout=10)
    gave_up = await fake.slash("resign", user=fake.alice)
    assert "Men not home:" in gave_up.text and "Hints: 2." in gave_up.text


async def test_hint_is_refused_in_a_two_player_game(bot, fake, service):
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard"}, user=fake.alice)
    accept = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    await fake.click(accept, user=fake.bob)
    log = await fake.slash("hint", user=fake.alice)
    assert log.reply.ephemeral and "solo puzzles" in log.reply.content


async def test_hint_is_refused_to_someone_not_playing(bot, fake, service):
    await fake.slash("puzzle", {"variant": "kingswap", "seed": 7}, user=fake.alice)
    log = await fake.slash("hint", user=fake.bob)
    assert log.reply.ephemeral and "not playing" in log.reply.content
    assert (await service.store.open_game(fake.channel_id)).hints == 0


async def test_hint_without_a_game_says_so(bot, fake, service):
    log = await fake.slash("hint", user=fake.alice)
    assert log.reply.ephemeral and "No game in this channel" in log.reply.content
