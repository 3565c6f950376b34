"""End to end: a command's answer when its callback fails on the way. A callback Discord refuses
as already made (40060) is checked against what the interaction shows: an answer already there
counts as delivered, a "thinking" message left by a defer is replaced, and nothing at all gets the
answer by followup or in the channel. A slow command's "thinking" message is always resolved;
a committed change is shown once, a private answer stays private, and no committed change is
reported as "something went wrong"."""
from __future__ import annotations

import discord.webhook.async_
import pytest

from bot.discord import interactions
from tests.discord.fake_discord import DEFERRED_CHANNEL_MESSAGE, LOADING, FakeDiscord, InteractionLog
from tests.discord.test_discord_commands import start_game
from tests.discord.test_discord_faults import WENT_WRONG, _FastAsyncio, board_messages, everything_said, moves, tries

pytestmark = pytest.mark.asyncio

ALREADY_MADE = {"message": "Interaction has already been acknowledged.", "code": 40060}


@pytest.fixture(autouse=True)
def games_in_place(fake):
    fake.deny_threads()


@pytest.fixture
def slow(monkeypatch):
    """A command that awaits anything (a move awaits its worker thread) counts as slow: it defers
    ("thinking") before its answer, as one still running after interactions.DEFER_AFTER seconds does."""
    monkeypatch.setattr(interactions, "DEFER_AFTER", 0)
    monkeypatch.setattr(discord.webhook.async_, "asyncio", _FastAsyncio())   # discord.py's 5xx back-off


def shows(log: InteractionLog) -> dict:
    """The interaction's own message (@original) as the user sees it now."""
    assert log.original is not None and not log.original_deleted, log.sent
    return log.original


def resolved(log: InteractionLog) -> bool:
    return log.original is not None and not log.original.get("flags", 0) & LOADING


# -- a slow command whose "thinking" defer failed on the way --------------------------------------------

@pytest.mark.parametrize("fault", ["500 after", "dropped after", "dropped before"])
async def test_a_slow_move_whose_defer_failed_on_the_way_still_shows_the_board_once(bot, fake, service, slow,
                                                                                   fault):
    await start_game(fake)
    if fault == "500 after":       # Discord made the defer, answered 500; discord.py's repeat is refused
        fake.server_error("callback", after=True)
    else:                          # the connection dropped, after or before Discord made the defer
        fake.disconnect("callback", after=fault == "dropped after")
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: resolved(played) or fake.channel_messages)
    assert fake.besides_stripped(await fake.nothing_more(user=fake.carol)) == []   # no second copy was coming

    [board] = board_messages(played)
    assert "alice plays **e4**" in board.content and not board.ephemeral
    assert "alice plays **e4**" in shows(played)["content"]   # no "thinking" left
    assert fake.channel_messages == [] and played.followups == []
    assert await moves(service, fake) == ["e2e4"]
    assert not any(WENT_WRONG in text for text in everything_said(fake))


async def test_a_mistake_after_a_defer_discord_made_before_a_500_stays_private(bot, fake, service, slow):
    await start_game(fake)
    fake.server_error("callback", after=True)
    refused = await fake.slash("move", {"move": "e7e5"}, user=fake.alice, wait=False)   # white to move: e7e5 is not hers
    await fake.wait_until(lambda: refused.followups)

    assert refused.callbacks[0].type == DEFERRED_CHANNEL_MESSAGE
    [answer] = refused.followups
    assert answer.ephemeral and answer.content
    assert refused.original_deleted   # the public "thinking" message is gone, not turned into the answer
    assert not any(not s.ephemeral for s in refused.messages) and fake.channel_messages == []
    assert await moves(service, fake) == []


# -- a quick answer's callback refused as already made ----------------------------------------------------

async def test_a_move_whose_first_callback_is_refused_as_already_made_still_reaches_the_user(bot, fake, service):
    """No attempt of ours went through, so the refusal does not mean the board was shown."""
    await start_game(fake)
    fake.inject("callback", status=400, body=ALREADY_MADE)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: played.messages or fake.channel_messages)
    assert fake.besides_stripped(await fake.nothing_more(user=fake.carol)) == []

    shown = [s for s in played.messages if s.files] + fake.channel_messages
    assert [("alice plays **e4**" in s.content) for s in shown] == [True]
    assert await moves(service, fake) == ["e2e4"]


async def test_a_repeated_callback_refused_as_already_made_asks_discord_once_and_posts_nothing(bot, fake,
                                                                                             service):
    await start_game(fake)
    fake.disconnect("callback", after=True)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    await fake.wait_until(lambda: any(r.method == "GET" for r in fake.requests if played.token in r.path))
    assert fake.besides_stripped(await fake.nothing_more(user=fake.carol)) == []   # no followup or channel post was coming

    [board] = board_messages(played)
    assert board.kind == "callback" and "alice plays **e4**" in board.content
    assert [(r.method, r.status) for r in fake.requests if played.token in r.path] == [
        ("POST", 0), ("POST", 400), ("GET", 200)]
    assert fake.channel_messages == [] and played.followups == []


# -- a slow command's answer failing (the "answer" faults of test_discord_faults.py now hit the callback) --

async def test_a_slow_move_whose_edit_discord_made_before_a_500_is_not_doubled(bot, fake, service, slow):
    await start_game(fake)
    fake.server_error("edit_original", after=True)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    await fake.wait_until(lambda: len(tries(fake, "edit_original", played)) == 2)
    assert fake.besides_stripped(await fake.nothing_more(user=fake.carol)) == []

    assert tries(fake, "edit_original", played) == [500, 200]
    [board] = board_messages(played)
    assert "alice plays **e4**" in board.content and board.message["id"] == played.original["id"]
    assert played.followups == [] and fake.channel_messages == []


async def test_a_slow_move_discord_will_not_answer_goes_to_the_channel_and_its_thinking_is_removed(
        bot, fake: FakeDiscord, service, slow):
    await start_game(fake)
    fake.unknown_webhook("edit_original")
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: fake.channel_messages and played.original_deleted)

    [posted] = fake.channel_messages
    assert "alice plays **e4**" in posted.content and posted.files
    assert played.callbacks[0].type == DEFERRED_CHANNEL_MESSAGE and board_messages(played) == []
    assert await moves(service, fake) == ["e2e4"]
    assert not any(WENT_WRONG in text for text in everything_said(fake))
