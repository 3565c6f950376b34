"""Rematch and takeback end to end through the Discord stand-in."""
from __future__ import annotations

import pytest

from tests.discord.conftest import running_bot
from tests.discord.fake_discord import CHANNEL_MESSAGE, FakeDiscord, InteractionLog

pytestmark = pytest.mark.asyncio


def button(log: InteractionLog, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c.get("label") == label)


def labels(message: dict) -> list[str]:
    return [c.get("label") for row in message.get("components") or [] for c in row["components"]]


async def begin(fake: FakeDiscord) -> None:
    log = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard"}, user=fake.alice)
    accepted = await fake.click(button(log, "Accept"), user=fake.bob)
    assert "accepts" in accepted.reply.content


async def play(fake: FakeDiscord, *moves: str) -> None:
    for n, move in enumerate(moves):
        log = await fake.slash("move", {"move": move}, user=(fake.alice, fake.bob)[n % 2])
        assert "plays" in log.reply.content, log.reply.content


async def test_the_final_board_offers_a_rematch_with_colours_swapped(bot, fake):
    await begin(fake)
    resigned = await fake.slash("resign", user=fake.bob)
    assert "bob resigns" in resigned.reply.content and labels(resigned.reply.message)[-1] == "Rematch"
    rematch = await fake.click(button(resigned, "Rematch"), user=fake.bob)
    offer = rematch.reply
    assert rematch.callbacks[0].type == CHANNEL_MESSAGE   # the challenge is the press's own message
    assert not offer.ephemeral and "bob challenges alice" in offer.content and "bob would play White" in offer.content
    assert labels(offer.message) == ["Accept", "Decline"]
    accepted = await fake.click(button(rematch, "Accept"), user=fake.alice)
    assert "White: bob · Black: alice" in accepted.reply.content
    moved = await fake.slash("move", {"move": "e4"}, user=fake.bob)
    assert "bob plays" in moved.reply.content


async def test_a_rematch_is_not_for_onlookers_and_is_offered_once(bot, fake):
    await begin(fake)
    resigned = await fake.slash("resign", user=fake.alice)
    refused = await fake.click(button(resigned, "Rematch"), user=fake.carol)
    assert refused.reply.ephemeral and "not playing" in refused.reply.content
    await fake.click(button(resigned, "Rematch"), user=fake.alice)
    again = await fake.click(button(resigned, "Rematch"), user=fake.bob, message=resigned.reply.message)
    assert again.reply.ephemeral and "alice has already offered a rematch" in again.reply.content


async def test_an_accepted_takeback_undoes_the_move_and_closes_the_request(bot, fake, service):
    await begin(fake)
    await play(fake, "e4", "e5", "Nf3")
    asked = await fake.slash("takeback", user=fake.alice)
    assert not asked.deferred and not asked.reply.ephemeral   # answered at once, publicly
    assert "alice asks to take back `g1f3`. bob, accept or decline" in asked.reply.content
    assert labels(asked.reply.message) == ["Accept", "Decline"]
    onlooker = await fake.click(button(asked, "Accept"), user=fake.carol)
    assert onlooker.reply.ephemeral and "not playing" in onlooker.reply.content
    accepted = await fake.click(button(asked, "Accept"), user=fake.bob)
    assert "bob accepts the takeback" in accepted.reply.content and "alice to move" in accepted.reply.content
    assert any(s.kind == "edit" and s.body.get("components") == [] for s in accepted.sent)   # buttons gone
    record = await service.store.latest(fake.channel_id)
    assert record.moves == ["e2e4", "e7e5"]
    await play(fake, "d4")


async def test_a_declined_takeback_leaves_the_game_as_it_was(bot, fake, service):
    await begin(fake)
    await play(fake, "e4")
    asked = await fake.slash("takeback", user=fake.alice)
    declined = await fake.click(button(asked, "Decline"), user=fake.bob)
    assert "bob declines the takeback" in declined.reply.content
    assert (await service.store.latest(fake.channel_id)).moves == ["e2e4"]


async def test_takeback_refusals_are_private_and_immediate(bot, fake):
    await begin(fake)
    nothing = await fake.slash("takeback", user=fake.alice)
    assert not nothing.deferred and nothing.reply.ephemeral and "no move to take back" in nothing.reply.content
    await play(fake, "e4")
    onlooker = await fake.slash("takeback", user=fake.carol)
    assert onlooker.reply.ephemeral and "not playing" in onlooker.reply.content
    assert not [m for m in fake.messages_in(fake.channel_id) if "take back" in m.content and not m.ephemeral]


async def test_the_rematch_button_works_after_a_restart(fake, service):
    async with running_bot(fake, service):
        await begin(fake)
        resigned = await fake.slash("resign", user=fake.alice)
    async with running_bot(fake, service):
        rematch = await fake.click(button(resigned, "Rematch"), user=fake.alice, message=resigned.reply.message)
        assert "alice challenges bob" in rematch.reply.content and "alice would play Black" in rematch.reply.content
