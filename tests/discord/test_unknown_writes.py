"""End to end: an accept or a puzzle whose store answer is lost keeps its thread. Where the write
landed, the game goes on there as if answered; where the store cannot say, the member is told so
and the thread stays (it holds the game): a thread is never removed while a game is stored in it."""
from __future__ import annotations

import pytest
import pytest_asyncio

from bot.service import GameService
from tests.bot.lost_answers import LosesAnswers
from tests.discord.conftest import tiny_png

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def service() -> GameService:
    return GameService(LosesAnswers(), renderer=tiny_png)


def button(log, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c["label"] == label)


async def challenge(fake):
    return await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                            user=fake.alice)


async def test_an_accept_whose_answer_is_lost_is_played_in_its_thread(bot, fake, service):
    made = await challenge(fake)
    service.store.lose = True
    accepted = await fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message)
    assert "bob accepts" in accepted.reply.content and accepted.reply.ephemeral   # where to play, for bob
    assert fake.deleted_threads == []
    [(thread_id, thread)] = fake.threads.items()
    assert thread["name"] == "alice vs bob · Standard chess"
    assert any("alice to move" in m.content for m in fake.messages_in(thread_id))   # the board, in the thread
    assert (await service.store.open_game(thread_id)).players[1][1] == "bob"
    assert fake.messages[made.reply.message["id"]]["components"] == []             # the challenge is settled


async def test_an_accept_whose_outcome_cannot_be_told_keeps_the_thread_its_game_is_stored_in(bot, fake, service):
    made = await challenge(fake)
    service.store.lose, service.store.blind_after = True, 1
    unsure = await fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message)
    assert unsure.reply.ephemeral and "cannot tell whether that went through" in unsure.reply.content
    assert fake.deleted_threads == []
    [thread_id] = fake.threads
    assert (await service.store.open_game(thread_id)).status == "active"
    moved = await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread_id)
    assert "alice plays **e4**" in moved.reply.content


async def test_a_puzzle_whose_outcome_cannot_be_told_keeps_its_thread(bot, fake, service):
    service.store.lose, service.store.blind_after = True, 1
    unsure = await fake.slash("puzzle", {"variant": "kingswap", "seed": 1}, user=fake.alice)
    assert unsure.reply.ephemeral and "cannot tell" in unsure.reply.content
    assert fake.deleted_threads == []
    [thread_id] = fake.threads
    assert (await service.store.open_game(thread_id)).players[0][1] == "alice"
