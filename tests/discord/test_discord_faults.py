"""Discord failing after the service has committed: rate limits, server errors, dead tokens and
lost connections on the way back. A committed change is reported once, as made, and never as
"something went wrong"; a failure before the commit is still an error reply."""
from __future__ import annotations

import asyncio
import logging

import discord
import discord.webhook.async_
import pytest

from bot.discord import transport
from tests.discord.fake_discord import FakeDiscord, InteractionLog, Sent
from tests.discord.test_discord_commands import (
    PNG_MAGIC,
    assert_private_error,
    start_game,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """These tests play where the command runs; games in threads: tests/discord/test_threads.py."""
    fake.deny_threads()

WENT_WRONG = "went wrong"


async def moves(service, fake: FakeDiscord) -> list[str]:
    """The moves the store holds for the channel's latest game."""
    record = await service.store.latest(fake.channel_id)
    assert record is not None
    return list(record.moves)


def everything_said(fake: FakeDiscord) -> list[str]:
    """Every text the bot sent anywhere: answers, followups, edits and channel messages."""
    texts = [s.content for log in fake.interactions.values() for s in log.sent]
    return texts + [s.content for s in fake.channel_messages]


def board_messages(log: InteractionLog) -> list[Sent]:
    """The answers carrying a board, one per message the user sees (a callback, a followup or an
    edit; an edit repeated by a retry changes the same message)."""
    by_message = {s.message["id"]: s for s in log.messages if s.files and s.message is not None}
    return list(by_message.values())


def tries(fake: FakeDiscord, route: str, log: InteractionLog) -> list[int]:
    """The statuses of the requests to `route` about this interaction (0: connection dropped)."""
    return [r.status for r in fake.requests_to(route) if log.token in r.path]


class _FastAsyncio:
    """discord/webhook/async_.py's view of asyncio with sleeps 100 times shorter: discord.py
    backs off 1, 3, 5, 7 and 9 s between its five attempts on a 5xx, too slow for a test."""

    def __getattr__(self, name: str):
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result=None):
        return await asyncio.sleep(delay / 100, result)


# -- what discord.py retries by itself ----------------------------------------------------------------


def read_back(fake, played) -> bool:
    """Whether the bot has read the interaction's answer back (GET @original), once it was refused."""
    return any(r.method == "GET" and played.token in r.path and r.path.endswith("@original") for r in fake.requests)

async def test_a_rate_limited_answer_is_waited_out_and_the_move_sent_once(bot, fake, service):
    await start_game(fake)
    fake.rate_limit("answer", retry_after=0.3)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)

    [refused, accepted] = [r for r in fake.requests_to("answer") if played.token in r.path]
    assert (refused.status, accepted.status) == (429, 200)
    assert accepted.at - refused.at >= 0.3
    [board] = board_messages(played)
    assert "alice plays **e4**" in board.content and not board.ephemeral
    assert board.files[0].data.startswith(PNG_MAGIC)
    assert fake.channel_messages == []
    assert await moves(service, fake) == ["e2e4"]


async def test_an_answer_refused_with_500_is_retried_and_nothing_is_doubled(bot, fake, service):
    await start_game(fake)
    fake.server_error("answer")
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)

    assert tries(fake, "answer", played) == [500, 200]
    assert len(played.messages) == 1 and "alice plays **e4**" in played.reply.content
    assert fake.channel_messages == []
    assert await moves(service, fake) == ["e2e4"]
    after = await fake.slash("move", {"move": "e7e5"}, user=fake.bob)   # the game goes on
    assert "bob plays **e5**" in after.reply.content
    assert await moves(service, fake) == ["e2e4", "e7e5"]


async def test_an_answer_discord_made_before_failing_with_500_is_not_doubled(bot, fake, service):
    """Discord carried out the callback, then answered 500, and discord.py repeated it: Discord
    refuses a second callback (40060), and the bot takes that refusal as the answer delivered, so
    the board appears once, neither posted again nor sent to the channel."""
    await start_game(fake)
    fake.server_error("answer", after=True)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    await fake.wait_until(lambda: len(tries(fake, "answer", played)) == 2)   # discord.py retries after 1 s
    await fake.wait_until(lambda: read_back(fake, played))   # after 40060 the bot reads what Discord shows
    assert fake.besides_stripped(await fake.nothing_more(user=fake.carol)) == []   # no followup or channel post was coming

    assert tries(fake, "answer", played) == [500, 400]
    [board] = board_messages(played)
    assert "alice plays **e4**" in board.content
    assert played.followups == [] and fake.channel_messages == []
    assert await moves(service, fake) == ["e2e4"]


async def test_a_rate_limited_followup_to_a_button_is_waited_out(bot, fake, service):
    """A button's answer is a real followup (POST): discord.py waits out Discord's 429 there too."""
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
    accept_id = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    fake.rate_limit("followup", retry_after=0.2)
    accepted = await fake.click(accept_id, user=fake.bob)

    [refused, sent] = [r for r in fake.requests_to("followup") if accepted.token in r.path]
    assert (refused.status, sent.status) == (429, 200) and sent.at - refused.at >= 0.2
    assert len(accepted.followups) == 1 and "bob accepts" in accepted.reply.content
    assert fake.channel_messages == []


# -- what the bot retries itself ----------------------------------------------------------------------

async def test_a_429_discord_py_will_not_wait_out_is_waited_out_by_the_bot(bot, fake, service):
    """Without Discord's Via header discord.py gives up on a 429 at once; a short Retry-After
    is then ours to honour."""
    await start_game(fake)
    fake.rate_limit("answer", retry_after=0.2, via=False)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)

    [refused, accepted] = [r for r in fake.requests_to("answer") if played.token in r.path]
    assert (refused.status, accepted.status) == (429, 200)
    assert accepted.at - refused.at >= 0.2
    assert len(board_messages(played)) == 1 and fake.channel_messages == []
    assert await moves(service, fake) == ["e2e4"]


async def test_a_connection_dropped_before_discord_answered_is_retried(bot, fake, service):
    await start_game(fake)
    fake.disconnect("answer")
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)

    assert tries(fake, "answer", played) == [0, 200]
    assert len(board_messages(played)) == 1 and fake.channel_messages == []
    assert await moves(service, fake) == ["e2e4"]


async def test_an_answer_that_arrived_but_whose_reply_was_lost_is_not_doubled(bot, fake, service):
    """Discord made the answer, then the connection dropped: the bot's retry is refused as already
    made (40060), which tells it the board went out, so it is not posted a second time."""
    await start_game(fake)
    fake.disconnect("answer", after=True)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    await fake.wait_until(lambda: len(tries(fake, "answer", played)) == 2)
    await fake.wait_until(lambda: read_back(fake, played))   # after 40060 the bot reads what Discord shows
    assert fake.besides_stripped(await fake.nothing_more(user=fake.carol)) == []   # no followup or channel post was coming

    assert tries(fake, "answer", played) == [0, 400]
    [board] = board_messages(played)
    assert "alice plays **e4**" in board.content and board.message["id"] == played.original["id"]
    assert played.followups == [] and fake.channel_messages == []
    assert await moves(service, fake) == ["e2e4"]


# -- refused for good: the channel gets the message ----------------------------------------------------

async def test_a_refused_answer_still_shows_the_move_as_played_in_the_channel(bot, fake, service):
    await start_game(fake)
    fake.unknown_webhook("answer")
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: fake.channel_messages)

    [posted] = fake.channel_messages
    assert "alice plays **e4**" in posted.content and "bob to move" in posted.content
    assert not posted.ephemeral and posted.message["channel_id"] == fake.channel_id
    [upload] = posted.files
    assert upload.data.startswith(PNG_MAGIC) and upload.description
    assert tries(fake, "answer", played) == [404]
    assert await moves(service, fake) == ["e2e4"]

    fake.clear_faults()
    retried = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    assert_private_error(retried, "It is not your turn.")
    assert await moves(service, fake) == ["e2e4"]
    assert not any(WENT_WRONG in text for text in everything_said(fake))


async def test_an_answer_failing_past_the_bots_retries_goes_to_the_channel(bot, fake, service, monkeypatch):
    """500s for good: discord.py's own five attempts, then the bot's retries (transport.RETRY_FOR,
    cut short here), then the channel."""
    monkeypatch.setattr(discord.webhook.async_, "asyncio", _FastAsyncio())
    monkeypatch.setattr(transport, "RETRY_FOR", 2.0)
    await start_game(fake)
    fake.server_error("answer", times=None)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: fake.channel_messages)

    assert set(tries(fake, "answer", played)) == {500} and len(tries(fake, "answer", played)) > 5
    [posted] = fake.channel_messages
    assert "alice plays **e4**" in posted.content and posted.files
    assert played.messages == [] and played.original is None   # no "thinking..." left beside it
    assert await moves(service, fake) == ["e2e4"]
    assert not any(WENT_WRONG in text for text in everything_said(fake))


async def test_a_channel_post_whose_answer_was_lost_is_not_posted_twice(bot, fake, service):
    """The channel fallback carries a nonce, so its retry returns the first message."""
    await start_game(fake)
    fake.unknown_webhook("answer")
    fake.disconnect("channel_message", after=True)
    await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: len(fake.requests_to("channel_message")) == 2
                          and fake.requests_to("channel_message")[-1].status == 200)

    first, second = fake.requests_to("channel_message")
    assert first.body["nonce"] == second.body["nonce"] and first.body["enforce_nonce"] is True
    [posted] = fake.channel_messages
    assert "alice plays **e4**" in posted.content
    assert await moves(service, fake) == ["e2e4"]


async def test_a_rate_limited_channel_fallback_is_waited_out_and_posted_once(bot, fake, service):
    await start_game(fake)
    fake.unknown_webhook("answer")
    fake.rate_limit("channel_message", retry_after=0.2)
    await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: fake.channel_messages)
    fake.clear_faults()   # so that the later command is answered
    assert fake.besides_stripped(await fake.nothing_more(user=fake.carol)) == []   # no second post was coming

    refused, posted_request = fake.requests_to("channel_message")
    assert (refused.status, posted_request.status) == (429, 200) and posted_request.at - refused.at >= 0.2
    [posted] = fake.channel_messages
    assert "alice plays **e4**" in posted.content
    assert await moves(service, fake) == ["e2e4"]


async def test_accepting_a_challenge_discord_will_not_answer_still_starts_the_game(bot, fake, service):
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
    accept_id = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    fake.unknown_webhook("followup")
    fake.unknown_webhook("edit_original")
    await fake.click(accept_id, user=fake.bob, wait=False)
    await fake.wait_until(lambda: fake.channel_messages)

    [posted] = fake.channel_messages
    assert "bob accepts" in posted.content and posted.files
    # The buttons come off through the channel instead.
    [edit] = fake.requests_to("edit_channel_message")
    assert edit.status == 200 and fake.messages[challenge.reply.message["id"]]["components"] == []
    fake.clear_faults()
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    assert "alice plays **e4**" in played.reply.content
    assert not any(WENT_WRONG in text for text in everything_said(fake))


async def _puzzle(fake: FakeDiscord, service) -> None:
    await fake.slash("puzzle", {"variant": "kingswap", "seed": 1}, user=fake.alice)


async def _puzzle_with_a_move(fake: FakeDiscord, service) -> None:
    await _puzzle(fake, service)
    first = (await service.move_suggestions(fake.channel_id, _player(fake.alice), ""))[0]
    await fake.slash("move", {"move": first}, user=fake.alice)


async def _nothing(fake: FakeDiscord, service) -> None:
    pass


def _player(user):
    from bot.service import Player

    return Player(user["id"], user["global_name"])


@pytest.mark.parametrize("before, command, options, who, said", [
    (_nothing, "puzzle", {"variant": "kingswap", "seed": 1}, "alice", "alice starts"),
    (_nothing, "challenge", {"opponent": "bob", "variant": "standard"}, "alice", "alice challenges bob"),
    (_puzzle_with_a_move, "undo", {}, "alice", "alice"),
    (_puzzle, "resign", {}, "alice", "alice"),
    (start_game, "draw", {}, "alice", "alice offers a draw"),
    (start_game, "resign", {}, "bob", "bob resigns"),
], ids=["puzzle", "challenge", "undo", "resign-puzzle", "draw", "resign"])
async def test_every_command_that_changes_a_game_falls_back_to_the_channel(bot, fake, service, before, command,
                                                                          options, who, said):
    if before is start_game:
        await start_game(fake)
    else:
        await before(fake, service)
    users = {"alice": fake.alice, "bob": fake.bob}
    options = {k: users.get(v, v) for k, v in options.items()}
    state_before = await service.store.latest(fake.channel_id)
    before_copy = state_before.copy() if state_before else None
    fake.unknown_webhook("answer")

    def answers() -> list[Sent]:   # the KingSwap! grid comes on its board, in the same message
        return list(fake.channel_messages)

    await fake.slash(command, options, user=users[who], wait=False)
    await fake.wait_until(answers)

    [posted] = answers()
    assert said in posted.content and WENT_WRONG not in posted.content
    after = await service.store.latest(fake.channel_id)
    assert after is not None and (before_copy is None or after != before_copy)   # the change was committed
    if command == "challenge":
        assert {c["label"] for row in posted.body["components"] for c in row["components"]} == {"Accept", "Decline"}


# -- before the commit: still an error reply ------------------------------------------------------------

async def test_a_failure_before_the_commit_is_still_an_error_and_changes_nothing(bot, fake, service, monkeypatch,
                                                                                caplog):
    await start_game(fake)

    async def broken(channel, user, text):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(service, "move", broken)
    with caplog.at_level(logging.ERROR, logger="bot.discord.tree"):
        log = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    assert WENT_WRONG in assert_private_error(log)
    assert fake.channel_messages == []
    assert await moves(service, fake) == []
