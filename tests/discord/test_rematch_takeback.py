"""Rematch and takeback end to end through the Discord stand-in, in the game's thread."""
from __future__ import annotations


import pytest

from tests.discord.conftest import message_noted, running_bot
from tests.discord.fake_discord import CHANNEL_MESSAGE, FakeDiscord, InteractionLog

pytestmark = pytest.mark.asyncio


def button(log: InteractionLog, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c.get("label") == label)


def labels(message: dict) -> list[str]:
    return [c.get("label") for row in message.get("components") or [] for c in row["components"]]


async def begin(fake: FakeDiscord) -> str:
    """alice (White) v bob, accepted: the game's thread."""
    made = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                            user=fake.alice)
    accepted = await fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message)
    assert "accepts" in accepted.reply.content
    return list(fake.threads)[-1]


async def play(fake: FakeDiscord, thread: str, *moves: str) -> None:
    for n, move in enumerate(moves):
        log = await fake.slash("move", {"move": move}, user=(fake.alice, fake.bob)[n % 2], channel=thread)
        assert "plays" in log.reply.content, log.reply.content


async def test_the_final_board_offers_a_rematch_with_colours_swapped(bot, fake, service):
    thread = await begin(fake)
    resigned = await fake.slash("resign", user=fake.bob, channel=thread)
    assert "bob resigns" in resigned.reply.content and labels(resigned.reply.message)[-1] == "Rematch"
    rematch = await fake.click(button(resigned, "Rematch"), user=fake.bob, message=resigned.reply.message)
    assert rematch.callbacks[0].type == CHANNEL_MESSAGE   # the challenge is the press's own message
    offer = rematch.reply
    assert not offer.ephemeral and offer.channel_id == thread
    assert "bob challenges alice" in offer.content and "bob would play White" in offer.content
    assert [u["id"] for u in offer.message["mentions"]] == [fake.alice["id"]]   # the challenged one is pinged
    assert labels(offer.message) == ["Accept", "Decline"]
    game_id = int(button(rematch, "Accept").split(":")[2])
    assert await message_noted(service, game_id) == offer.message["id"]   # to be edited when settled, as a /challenge's
    accepted = await fake.click(button(rematch, "Accept"), user=fake.alice, message=offer.message)
    board = [m for m in fake.messages_in(thread) if "The game begins" in m.content][-1]
    assert "White: bob · Black: alice" in board.content and "accepts" in accepted.reply.content
    moved = await fake.slash("move", {"move": "e4"}, user=fake.bob, channel=thread)
    assert "bob plays" in moved.reply.content


async def test_a_rematch_is_not_for_onlookers_and_is_offered_once(bot, fake):
    thread = await begin(fake)
    resigned = await fake.slash("resign", user=fake.alice, channel=thread)
    final = resigned.reply.message
    refused = await fake.click(button(resigned, "Rematch"), user=fake.carol, message=final)
    assert refused.reply.ephemeral and "not playing" in refused.reply.content
    await fake.click(button(resigned, "Rematch"), user=fake.alice, message=final)
    again = await fake.click(button(resigned, "Rematch"), user=fake.bob, message=final)
    assert again.reply.ephemeral and "alice has already offered a rematch" in again.reply.content


async def test_an_old_rematch_button_is_refused_while_the_rematch_is_played_there(bot, fake, service):
    thread = await begin(fake)
    resigned = await fake.slash("resign", user=fake.bob, channel=thread)
    rematch = await fake.click(button(resigned, "Rematch"), user=fake.bob, message=resigned.reply.message)
    await fake.click(button(rematch, "Accept"), user=fake.alice, message=rematch.reply.message)
    again = await fake.click(button(resigned, "Rematch"), user=fake.alice, message=resigned.reply.message)
    assert again.reply.ephemeral and again.reply.content == \
        "Game #2 is in play here; a rematch can be offered once it is over."
    assert await service.store.challenges(thread) == []
    await fake.slash("resign", user=fake.alice, channel=thread)   # once game 2 is over, it may be asked again
    later = await fake.click(button(resigned, "Rematch"), user=fake.alice, message=resigned.reply.message)
    assert "alice challenges bob" in later.reply.content and not later.reply.ephemeral


async def test_an_accepted_takeback_undoes_the_move_and_closes_the_request(bot, fake, service):
    thread = await begin(fake)
    await play(fake, thread, "e4", "e5", "Nf3")
    asked = await fake.slash("takeback", user=fake.alice, channel=thread)
    assert not asked.reply.ephemeral
    assert "alice asks to take back **Nf3**. bob, accept or decline" in asked.reply.content
    assert labels(asked.reply.message) == ["Accept", "Decline"]
    onlooker = await fake.click(button(asked, "Accept"), user=fake.carol, message=asked.reply.message)
    assert onlooker.reply.ephemeral and "not playing" in onlooker.reply.content
    accepted = await fake.click(button(asked, "Accept"), user=fake.bob, message=asked.reply.message)
    assert "bob accepts the takeback" in accepted.reply.content and "alice to move" in accepted.reply.content
    assert [u["id"] for u in accepted.reply.message["mentions"]] == [fake.alice["id"]]   # her move again
    assert any(s.kind == "edit" and s.body.get("components") == [] for s in accepted.sent)   # buttons gone
    record = await service.store.latest(thread)
    assert record.moves == ["e2e4", "e7e5"]
    await play(fake, thread, "d4")


async def test_a_declined_takeback_leaves_the_game_as_it_was(bot, fake, service):
    thread = await begin(fake)
    await play(fake, thread, "e4")
    asked = await fake.slash("takeback", user=fake.alice, channel=thread)
    declined = await fake.click(button(asked, "Decline"), user=fake.bob, message=asked.reply.message)
    assert "bob declines the takeback" in declined.reply.content
    assert (await service.store.latest(thread)).moves == ["e2e4"]


async def test_takeback_refusals_are_private_and_immediate(bot, fake):
    thread = await begin(fake)
    nothing = await fake.slash("takeback", user=fake.alice, channel=thread)
    assert not nothing.deferred and nothing.reply.ephemeral and "no move to take back" in nothing.reply.content
    await play(fake, thread, "e4")
    onlooker = await fake.slash("takeback", user=fake.carol, channel=thread)
    assert onlooker.reply.ephemeral and "not playing" in onlooker.reply.content
    assert not [m for m in fake.messages_in(thread) if "take back" in m.content and not m.ephemeral]


async def test_an_old_takeback_requests_buttons_do_not_answer_a_later_request(bot, fake, service):
    thread = await begin(fake)
    await play(fake, thread, "e4", "e5", "Nf3")
    first = await fake.slash("takeback", user=fake.alice, channel=thread)   # her Nf3 alone
    await fake.slash("move", {"move": "Nc6"}, user=fake.bob, channel=thread)   # bob's move declines it
    second = await fake.slash("takeback", user=fake.alice, channel=thread)
    assert "take back **Nf3** and **Nc6**" in second.reply.content
    for label in ("Accept", "Decline"):
        old = await fake.click(button(first, label), user=fake.bob, message=first.reply.message)
        assert old.reply.ephemeral and "That takeback request is no longer open" in old.reply.content
    record = await service.store.latest(thread)
    assert record.moves == ["e2e4", "e7e5", "g1f3", "b8c6"] and record.takeback_offer == fake.alice["id"]
    accepted = await fake.click(button(second, "Accept"), user=fake.bob, message=second.reply.message)
    assert "bob accepts the takeback" in accepted.reply.content
    assert (await service.store.latest(thread)).moves == ["e2e4", "e7e5"]


async def test_the_askers_own_old_request_does_not_accept_the_opponents_request(bot, fake, service):
    thread = await begin(fake)
    await play(fake, thread, "e4", "e5", "Nf3")
    hers = await fake.slash("takeback", user=fake.alice, channel=thread)
    await fake.click(button(hers, "Decline"), user=fake.bob, message=hers.reply.message)
    await fake.slash("takeback", user=fake.bob, channel=thread)   # same position, bob asks now
    old = await fake.click(button(hers, "Accept"), user=fake.alice, message=hers.reply.message)
    assert old.reply.ephemeral and "no longer open" in old.reply.content
    assert (await service.store.latest(thread)).moves == ["e2e4", "e7e5", "g1f3"]


async def test_the_rematch_button_works_after_a_restart(fake, service):
    async with running_bot(fake, service):
        thread = await begin(fake)
        resigned = await fake.slash("resign", user=fake.alice, channel=thread)
    async with running_bot(fake, service):
        rematch = await fake.click(button(resigned, "Rematch"), user=fake.alice, message=resigned.reply.message)
        assert "alice challenges bob" in rematch.reply.content and "alice would play Black" in rematch.reply.content
