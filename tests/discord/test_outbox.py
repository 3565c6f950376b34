"""End to end: the answer to a committed change that Discord will not take for a while (5xx,
429, lost replies) is retried, then kept in the store's outbox and shown once Discord answers
again, also by the next process after a restart; a "thinking" message left behind is removed
later; and a turn-builder Confirm shows its board once when replies are lost."""
from __future__ import annotations

import asyncio
import socket
import sqlite3
from collections.abc import Awaitable, Callable
from types import SimpleNamespace

import discord.webhook.async_
import pytest

from bot.discord import interactions, outbox, transport
from bot.discord.answers import message
from bot.service import GameService, Reply
from bot.store import Delivery, SqliteStore
from tests.discord.conftest import running_bot, tiny_png
from tests.discord.fake_discord import Fault, FakeDiscord, Sent
from tests.discord.test_discord_commands import PNG_MAGIC, start_game
from tests.discord.test_deadlines import begin, posted, service_with
from tests.discord.test_discord_faults import _FastAsyncio
from tests.discord.test_turn_builder import build, builder_of, start

pytestmark = pytest.mark.asyncio

LINE = [("alice", "e2e4", "e4"), ("bob", "e7e5", "e5"), ("alice", "g1f3", "Nf3"), ("bob", "b8c6", "Nc6")]


@pytest.fixture
def threads():
    """Games get threads of their own (the other tests here play where the command runs)."""


@pytest.fixture(autouse=True)
def games_in_place(fake, request):
    if "threads" not in request.fixturenames:
        fake.deny_threads()


@pytest.fixture
def quick(monkeypatch):
    """The bot retries each way for half a second (not RETRY_FOR's 20), and discord.py's own 5xx
    back-off is 100 times shorter."""
    monkeypatch.setattr(transport, "RETRY_FOR", 0.5)
    monkeypatch.setattr(discord.webhook.async_, "asyncio", _FastAsyncio())


@pytest.fixture
def often(monkeypatch):
    """The outbox tries its rows 20 times as often: every 0.1 s, backing off up to 0.4 s."""
    monkeypatch.setattr(outbox, "POLL", outbox.POLL / 20)
    monkeypatch.setattr(outbox, "BACKOFF", outbox.BACKOFF / 20)


async def until(check: Callable[[], Awaitable[object]], timeout: float = 30.0) -> None:
    """Poll an async condition (the store's) until it holds."""
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.02)


async def start_in(fake: FakeDiscord, channel: str) -> None:
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"},
                                 user=fake.alice, channel=channel)
    accept_id = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    assert "accepts" in (await fake.click(accept_id, user=fake.bob)).reply.content


def shown(fake: FakeDiscord, channel: str, text: str) -> list[Sent]:
    """The messages that appeared in `channel` saying `text` (answers and the bot's own posts)."""
    return [s for s in fake.messages_in(channel) if text in s.content]


async def test_every_saved_move_is_shown_after_a_stretch_of_503s(bot, fake, service, quick):
    """Replies fail for good (dead tokens) and posts in the channel answer 503 for a stretch: no
    saved move goes unshown, none is shown twice, and each game's last post is its board, pinging
    the player to move."""
    channels = [fake.channel_id, *(fake.add_channel(f"board-{i}") for i in range(3))]
    await fake.wait_until(lambda: all(bot.get_channel(int(c)) for c in channels))
    for channel in channels:
        await start_in(fake, channel)
    fake.unknown_webhook("answer")
    stretch = fake.server_error("channel_message", status=503, times=None)
    for ply, (who, move, _) in enumerate(LINE):
        for channel in channels:
            await fake.slash("move", {"move": move}, user=getattr(fake, who), channel=channel, wait=False)
        for channel in channels:
            await until(lambda: _plies(service, channel, ply + 1))
    await until(lambda: _kept_every_ply(service, channels))   # the stretch lasts until every answer is kept
    fake.faults.remove(stretch)
    saved = [(channel, f"{who} plays **{san}**") for channel in channels for who, _, san in LINE]

    await fake.wait_until(lambda: all(shown(fake, c, text) for c, text in saved), timeout=60)
    await until(lambda: _kept_none(service))

    assert [(c, text) for c, text in saved if len(shown(fake, c, text)) != 1] == []   # each shown once
    assert any(r.status == 503 for r in fake.requests_to("channel_message"))   # the stretch was felt
    for channel in channels:
        last = fake.messages_in(channel)[-1]
        assert "bob plays **Nc6**" in last.content and last.content.startswith(f"<@{fake.alice['id']}>")
        assert [str(u) for u in last.allowed_mentions["users"]] == [fake.alice["id"]]
        assert last.files[0].data.startswith(PNG_MAGIC) and "alice to move" in last.content


async def _plies(service: GameService, channel: str, plies: int) -> bool:
    record = await service.store.latest(channel)
    return record is not None and len(record.moves) >= plies


async def _kept_none(service: GameService) -> bool:
    return await service.store.deliveries() == []


async def _kept_in_all(service: GameService, channels: list[str]) -> bool:
    return {d.channel_id for d in await service.store.deliveries()} >= set(channels)


async def _kept_every_ply(service: GameService, channels: list[str]) -> bool:
    """Whether the answer to every move of LINE is kept in each channel (a kept board tells its own ply
    and those of the earlier boards merged into it)."""
    told: dict[str, set[int]] = {channel: set() for channel in channels}
    for row in await service.store.deliveries():
        earlier = {e[0] for e in row.reply.get("earlier", []) if isinstance(e, (list, tuple))}
        told.setdefault(row.channel_id, set()).update({row.reply.get("ply"), *earlier})
    return all(told[channel] >= set(range(1, len(LINE) + 1)) for channel in channels)


async def test_a_kept_answer_survives_a_restart_and_the_next_process_shows_it(fake, tmp_path, quick):
    path = tmp_path / "kibitz.sqlite3"
    store = await SqliteStore.open(path)
    async with running_bot(fake, GameService(store, renderer=tiny_png)):
        await start_game(fake)
        fake.unknown_webhook("answer")
        fake.server_error("channel_message", status=503, times=None)   # as long as this process runs
        await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
        await until(store.deliveries)
    await store.close()
    fake.clear_faults()
    assert fake.channel_messages == []

    store = await SqliteStore.open(path)   # the same database, a new process
    try:
        async with running_bot(fake, GameService(store, renderer=tiny_png)):
            await fake.wait_until(lambda: fake.channel_messages, timeout=20)
            await until(lambda: _kept_none_in(store))
        [posted] = fake.channel_messages
        assert posted.content.startswith(f"<@{fake.bob['id']}> 1. alice plays **e4**") and "bob to move" in posted.content
        assert posted.files[0].data.startswith(PNG_MAGIC) and posted.files[0].description
        game_id = (await store.latest(fake.channel_id)).id
        assert builder_of(posted.message)["select"]["custom_id"].startswith(f"kibitz:tb:{game_id}:1:")
        assert {c.get("label") for row in posted.body["components"] for c in row["components"]} >= {"Draw", "Resign"}
    finally:
        await store.close()


async def _kept_none_in(store: SqliteStore) -> bool:
    return await store.deliveries() == []


@pytest.mark.parametrize("fault", ["dead token", "503 for a stretch"])
async def test_a_thinking_message_that_could_be_neither_replaced_nor_deleted_is_removed_later(
        bot, fake, service, quick, often, monkeypatch, fault):
    monkeypatch.setattr(interactions, "DEFER_AFTER", 0)   # the move defers: "thinking" first
    await start_game(fake)
    if fault == "dead token":
        fake.unknown_webhook("edit_original")
        fake.unknown_webhook("delete_original")
    else:
        for route in ("edit_original", "delete_original", "delete_channel_message"):
            fake.server_error(route, status=503, times=None)
    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await fake.wait_until(lambda: played.callbacks)
    thinking = played.callbacks[0].message["id"]
    if fault != "dead token":   # 503s until the thinking message's deletion is kept
        await until(lambda: _kept_kind(service, "delete"))
        fake.clear_faults()
    await fake.wait_until(lambda: any(m["id"] == thinking for m in fake.deleted_messages), timeout=30)

    [posted] = fake.channel_messages
    assert "alice plays **e4**" in posted.content and posted.files
    assert played.sent[-1].kind != "edit" and not played.original_deleted   # neither way worked
    assert [r.status for r in fake.requests_to("delete_original") if played.token in r.path][-1] in (404, 503)
    await until(lambda: _kept_none(service))


async def _kept_kind(service: GameService, kind: str) -> bool:
    return any(d.kind == kind for d in await service.store.deliveries())


def _board_shown(fake: FakeDiscord, text: str) -> list[Sent]:
    return [s for s in fake.messages_in(fake.channel_id) if text in s.content and s.files]


@pytest.mark.parametrize("fault", ["followups lost", "every answer lost three times", "slow, edits lost"])
async def test_a_confirm_shows_its_board_once_when_replies_are_lost(bot, fake, service, quick, monkeypatch, fault):
    board = await start(fake, "standard")
    message = await build(fake, board, fake.alice, "e2e4")
    confirm = builder_of(message)["Confirm"]["custom_id"]
    if fault == "followups lost":
        fake.disconnect("followup", after=True, times=None)
    elif fault == "every answer lost three times":
        fake.disconnect("answer", after=True, times=3)
    else:
        monkeypatch.setattr(interactions, "DEFER_AFTER", 0)
        fake.disconnect("edit_original", after=True, times=2)
    await fake.click(confirm, user=fake.alice, message=message, wait=False)
    await until(lambda: _plies(service, fake.channel_id, 1))
    task = f"discord-ui-dynamic-item-ConfirmButton-{confirm}"   # the click's handling, answer and all
    await fake.wait_until(lambda: not any(t.get_name() == task and not t.done() for t in asyncio.all_tasks()),
                          timeout=30)

    assert len(_board_shown(fake, "alice plays **e4**")) == 1
    assert fake.messages[message["id"]]["components"] == []   # the old board's builder is off
    assert await service.store.deliveries() == []


async def test_a_kept_board_overtaken_by_a_newer_one_is_told_not_redrawn(bot, fake, service, quick):
    """A board kept for later whose game moved on before it could be sent (the next move was
    answered as soon as Discord was back) is posted as its headline alone: no old picture, no
    stale builder, no ping."""
    await start_game(fake)
    await bot.outbox.stop()   # no timer: the next move is answered before the kept board is tried
    fake.unknown_webhook("answer")
    fake.server_error("channel_message", status=503, times=None)
    await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await until(service.store.deliveries)
    fake.clear_faults()
    answered = await fake.slash("move", {"move": "e7e5"}, user=fake.bob)
    assert "bob plays **e5**" in answered.reply.content and answered.reply.files

    await bot.outbox.flush()
    [told] = shown(fake, fake.channel_id, "alice plays **e4**")
    assert told.kind == "channel_message" and told.files == [] and not told.body.get("components")
    assert not told.content.startswith("<@") and "bob to move" not in told.content
    assert await service.store.deliveries() == []


def _kept(fake: FakeDiscord, game_id: int, ply: int, text: str, ping: dict) -> tuple:
    """keep_post's arguments for the board of `game_id` at `ply` ("…plays…" headline, pinging `ping`)."""
    interaction = SimpleNamespace(guild_id=int(fake.guild_id), channel_id=int(fake.channel_id), id=ply)
    reply = Reply(text, image=b"board", game_id=game_id, ply=ply, pings=(ping["id"],))
    return interaction, reply, f"<@{ping['id']}> {text}", f"n{ply}"


async def test_boards_kept_out_of_order_show_the_newest_with_headlines_in_order(bot, fake, service):
    """The answer to ply 1 is kept after the answer to ply 2 (its retries lasted longer): the ply-2
    board is the one shown, pinging the player to move, with both headlines in the order played."""
    await start_game(fake)
    await bot.outbox.stop()   # sent when the test says
    await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    await fake.slash("move", {"move": "e7e5"}, user=fake.bob)
    game_id = (await service.store.latest(fake.channel_id)).id
    await bot.outbox.keep_post(*_kept(fake, game_id, 2, "bob plays **e5**, late.", fake.alice))
    await bot.outbox.keep_post(*_kept(fake, game_id, 1, "alice plays **e4**, late.", fake.bob))

    assert await bot.outbox.flush()
    [posted] = shown(fake, fake.channel_id, ", late.")
    assert posted.content.startswith(f"<@{fake.alice['id']}> alice plays **e4**, late.\nbob plays **e5**, late.")
    assert posted.files and posted.files[0].data.startswith(PNG_MAGIC)
    assert await service.store.deliveries() == []


async def test_an_answer_kept_with_the_older_ping_field_still_pings(bot, fake, service):
    """Rows kept before an update name their member in "ping" (now "pings"): still mentioned, and allowed to be."""
    await bot.outbox.stop()   # sent when the test says
    bob = fake.bob["id"]
    await service.store.add_delivery(Delivery("post", fake.guild_id, fake.channel_id, "n-old", None,
                                              {"text": "alice plays **e4**, kept.", "ping": bob}, service.clock()))
    assert await bot.outbox.flush()
    [posted] = shown(fake, fake.channel_id, ", kept.")
    assert posted.content == f"<@{bob}> alice plays **e4**, kept."
    assert posted.body["allowed_mentions"]["users"] == [int(bob)]


async def _first_answer_kept(bot, fake: FakeDiscord, service: GameService) -> None:
    """A game whose first move's answer is kept (posts refused with a 429 until clear_faults, so it
    may be merged); the outbox sends only when the test calls flush."""
    await start_game(fake)
    await bot.outbox.stop()
    fake.unknown_webhook("answer")
    _refuse_posts(fake)
    await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await until(service.store.deliveries)


async def test_a_kept_answer_outlives_a_database_hiccup(bot, fake, service, quick, often, monkeypatch):
    """Reading the game to draw a kept board fails once (the database is locked): the answer stays
    kept and is shown on the next try."""
    await _first_answer_kept(bot, fake, service)
    fake.clear_faults()
    get, failures = service.store.get, [sqlite3.OperationalError("database is locked")]

    async def hiccup(game_id: int):
        if failures:
            raise failures.pop()
        return await get(game_id)
    monkeypatch.setattr(service.store, "get", hiccup)

    assert not await bot.outbox.flush() and not failures
    assert fake.channel_messages == [] and len(await service.store.deliveries()) == 1
    await until(bot.outbox.flush)   # tried again once it is due
    [posted] = shown(fake, fake.channel_id, "alice plays **e4**")
    assert posted.files and posted.content.startswith(f"<@{fake.bob['id']}>")
    assert await service.store.deliveries() == []


async def test_a_channel_that_keeps_failing_holds_up_no_other(bot, fake, service, quick):
    """Posts to one channel keep failing: the answer kept for another channel is shown all the same,
    and the failing one stays kept, tried no more than once per round."""
    other = fake.add_channel("board-b")
    await fake.wait_until(lambda: bot.get_channel(int(other)))
    await start_in(fake, fake.channel_id)
    await start_in(fake, other)
    await bot.outbox.stop()   # sent when the test says
    fake.unknown_webhook("answer")
    fake.server_error("channel_message", status=503, times=None)
    for channel in (fake.channel_id, other):   # the failing channel's row is the older one
        await fake.slash("move", {"move": "e2e4"}, user=fake.alice, channel=channel, wait=False)
        await until(lambda: _kept_in(service, channel))
    fake.clear_faults()
    posts = f"POST /channels/{fake.channel_id}/messages"
    fake.server_error(posts, status=503, times=None)
    tried = len(fake.requests_to(posts))

    assert not await bot.outbox.flush()
    [posted] = shown(fake, other, "alice plays **e4**")
    assert posted.files and shown(fake, fake.channel_id, "alice plays **e4**") == []
    [kept] = await service.store.deliveries()
    assert kept.channel_id == fake.channel_id
    assert len(fake.requests_to(posts)) - tried == 1   # tried once (discord.py does not retry a 503)


async def _kept_in(service: GameService, channel: str) -> bool:
    return any(d.channel_id == channel for d in await service.store.deliveries())


async def test_a_kept_answer_too_old_to_matter_is_dropped_with_a_log_line(bot, fake, service, caplog):
    await bot.outbox.stop()   # sent when the test says
    fake.server_error("channel_message", status=503, times=None)
    await service.store.add_delivery(Delivery("post", fake.guild_id, fake.channel_id, "old", None,
                                              {"text": "alice plays **e4**."}, "2000-01-01T00:00:00+00:00"))

    assert await bot.outbox.flush()
    assert await service.store.deliveries() == [] and fake.requests_to("channel_message") == []
    assert any("too old" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)


async def test_a_board_merged_while_the_outbox_sends_is_told_once(bot, fake, service, quick, monkeypatch):
    """A row the outbox has read is merged into a newer board before its turn comes (the next move's
    answer is kept meanwhile): the old row is not sent as well, so its headline is told once."""
    await _first_answer_kept(bot, fake, service)
    deliveries, armed = service.store.deliveries, [True]

    async def meanwhile(limit: int = 100):
        rows = await deliveries(limit)
        if armed and armed.pop():   # flush has read the ply-1 row: the ply-2 answer is kept now
            await fake.slash("move", {"move": "e7e5"}, user=fake.bob, wait=False)
            await until(lambda: _merged(deliveries))
            fake.clear_faults()
        return rows
    monkeypatch.setattr(service.store, "deliveries", meanwhile)

    await bot.outbox.flush()
    await until(bot.outbox.flush)
    assert len(shown(fake, fake.channel_id, "alice plays **e4**")) == 1
    [posted] = shown(fake, fake.channel_id, "bob plays **e5**")
    assert posted.files and posted.content.startswith(f"<@{fake.alice['id']}> 1. alice plays **e4**")


async def _merged(deliveries: Callable[[], Awaitable[list[Delivery]]]) -> bool:
    return [d.reply.get("ply") for d in await deliveries()] == [2]


async def test_the_first_board_in_a_new_thread_is_shown_after_a_stretch_of_503s(bot, fake, service, quick, often, threads):
    """Accept while posts answer 503: the pointer names the thread, and the game's first board
    shows in it once Discord answers again, once."""
    made = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"},
                            user=fake.alice)
    accept_id = next(c["custom_id"] for c in made.components() if c["label"] == "Accept")
    fake.server_error("channel_message", status=503, times=None)
    accepted = await fake.click(accept_id, user=fake.bob, message=made.reply.message)
    assert "is played in" in accepted.reply.content
    thread = list(fake.threads)[-1]
    await until(lambda: _kept_in_all(service, [thread]))   # 503s until the first board is kept
    fake.clear_faults()

    await fake.wait_until(lambda: fake.messages_in(thread), timeout=30)
    await until(lambda: _kept_none(service))
    [board] = fake.messages_in(thread)
    assert board.files and board.files[0].data.startswith(PNG_MAGIC) and "alice to move" in board.content
    assert any(r.status == 503 for r in fake.requests_to("channel_message"))   # the stretch was felt


async def test_a_loss_on_time_is_shown_after_a_stretch_of_503s(fake, quick, often, threads):
    """The reminder and the final board of a game lost on time, posted by the scheduler while
    posts answer 503, each show once Discord answers again, once."""
    service = service_with(KIBITZ_MOVE_DEADLINE="2")
    async with running_bot(fake, service):
        thread = await begin(fake)
        fake.server_error("channel_message", status=503, times=None)
        await until(lambda: _kept_saying(service, "ran out of time"))   # 503s until the final board is kept
        fake.clear_faults()
        await fake.wait_until(lambda: posted(fake, thread, "ran out of time"), timeout=30)
        await until(lambda: _kept_none(service))
        [final] = posted(fake, thread, "ran out of time")
        assert "**bob wins** (0-1): Time." in final.content and final.files
        assert len(posted(fake, thread, "your move in")) == 1
        assert any(r.status == 503 for r in fake.requests_to("channel_message"))


async def _kept_saying(service: GameService, text: str) -> bool:
    return any(text in d.reply.get("text", "") for d in await service.store.deliveries())


async def test_a_kept_board_whose_post_may_have_gone_is_not_merged_into_the_next(bot, fake, service, quick):
    """The outbox's post of a kept board is made but its answer is lost, and the next move's answer
    is kept before the board is tried again: the board is tried again under its own nonce (Discord
    answers with the message it made), not told a second time inside the next move's board."""
    await _first_answer_kept(bot, fake, service)
    fake.clear_faults()
    fake.disconnect("channel_message", after=True)   # made, then the connection drops
    assert not await bot.outbox.flush()
    assert len(shown(fake, fake.channel_id, "alice plays **e4**")) == 1   # Discord shows it, the bot cannot tell
    await _second_answer_kept(fake, service)

    await until(bot.outbox.flush)
    assert len(shown(fake, fake.channel_id, "alice plays **e4**")) == 1
    [posted] = shown(fake, fake.channel_id, "bob plays **e5**")
    assert posted.files and posted.content.startswith(f"<@{fake.alice['id']}>")
    assert await service.store.deliveries() == []


@pytest.mark.parametrize("end", ["answer lost", "killed"])
async def test_a_kept_board_whose_post_may_have_gone_stays_apart_after_a_restart(bot, fake, service, quick,
                                                                                 monkeypatch, end):
    """As above, with the outbox started afresh over the same store (a restart) between the try
    Discord made the post for and the next move, the try's answer lost or the process killed the
    moment the post was made: the store remembers the try, so the board is tried again under its
    own nonce, never inside the next move's board, and each move is told once."""
    await _first_answer_kept(bot, fake, service)
    [first] = await service.store.deliveries()
    fake.clear_faults()
    if end == "answer lost":
        fake.disconnect("channel_message", after=True)   # made, then the connection drops
        assert not await bot.outbox.flush()
    else:
        with monkeypatch.context() as patch:
            patch.setattr(discord.PartialMessageable, "send", _killed_once_made(discord.PartialMessageable.send))
            with pytest.raises(asyncio.CancelledError):
                await bot.outbox.flush()
    assert len(shown(fake, fake.channel_id, "alice plays **e4**")) == 1   # Discord shows it, the bot cannot tell
    _restart_outbox(bot, service)
    await _second_answer_kept(fake, service)

    await until(bot.outbox.flush)
    for who, _, san in LINE[:2]:
        assert len(shown(fake, fake.channel_id, f"{who} plays **{san}**")) == 1
    tries = [r for r in fake.requests_to("channel_message") if "alice plays **e4**" in r.body["content"]]
    assert {r.body["nonce"] for r in tries} == {first.ref} and len(tries) > 1   # retried under its own nonce alone
    assert await service.store.deliveries() == []


async def test_a_kept_board_discord_refused_to_post_is_still_merged_after_a_restart(bot, fake, service, quick):
    """The outbox's try of a kept board is refused with a 429 (so nothing was posted), then the outbox
    is started afresh and the next move's answer is kept: one board tells both moves."""
    await _first_answer_kept(bot, fake, service)
    assert not await bot.outbox.flush()   # 429 still
    _restart_outbox(bot, service)
    await _second_answer_kept(fake, service)

    await until(bot.outbox.flush)
    [posted] = shown(fake, fake.channel_id, "alice plays **e4**")
    assert posted.files and posted.content.startswith(f"<@{fake.alice['id']}> 1. alice plays **e4**")
    assert "bob plays **e5**" in posted.content and await service.store.deliveries() == []


def _killed_once_made(send: Callable[..., Awaitable[discord.Message]]) -> Callable[..., Awaitable[discord.Message]]:
    """`send`, after which the process dies at once (a kill -9): Discord made the post, and nothing
    of the bot runs after it (a cancel stands for the kill)."""
    async def killed(*args, **kwargs) -> discord.Message:
        await send(*args, **kwargs)
        raise asyncio.CancelledError
    return killed


def _restart_outbox(bot, service: GameService) -> None:
    """A new outbox over the same store, as the next process builds it (not started: flushed when the test says)."""
    bot.outbox = outbox.Outbox(bot, service, compose=message, owns=bot.owns_guild)


async def _second_answer_kept(fake: FakeDiscord, service: GameService) -> None:
    """The answer to bob's e5 is kept (dead token, posts refused with a 429 until the end: it may be
    merged); then Discord answers again."""
    fake.unknown_webhook("answer")
    _refuse_posts(fake)
    await fake.slash("move", {"move": "e7e5"}, user=fake.bob, wait=False)
    await until(lambda: _kept_ply(service, 2))
    fake.clear_faults()


async def _kept_ply(service: GameService, ply: int) -> bool:
    return any(d.reply.get("ply") == ply for d in await service.store.deliveries())


def _refuse_posts(fake: FakeDiscord) -> Fault:
    """Posts in channels refused with a 429 until cleared: Discord surely made none of them."""
    return fake.rate_limit("channel_message", 0.05, times=None)


@pytest.mark.parametrize("lost", ["first", "second"])
async def test_an_answer_whose_post_may_have_gone_is_kept_apart(bot, fake, service, quick, lost):
    """Two moves' answers are kept, one of them after posts whose replies were all lost (Discord made
    the post, the bot cannot tell), the other after posts Discord refused: neither is merged into the
    other, so each move is told once."""
    await start_game(fake)
    await bot.outbox.stop()   # sent when the test says
    fake.unknown_webhook("answer")
    for ply, (who, move, _) in enumerate(LINE[:2], start=1):
        fault = (fake.disconnect("channel_message", after=True, times=None) if (ply == 1) == (lost == "first")
                 else _refuse_posts(fake))
        await fake.slash("move", {"move": move}, user=getattr(fake, who), wait=False)
        await until(lambda: _kept_ply(service, ply))
        fake.faults.remove(fault)
    fake.clear_faults()

    await until(bot.outbox.flush)
    for who, _, san in LINE[:2]:
        assert len(shown(fake, fake.channel_id, f"{who} plays **{san}**")) == 1
    assert await service.store.deliveries() == []


async def test_a_kept_board_whose_try_may_have_gone_before_discord_py_retried_it_is_not_merged(bot, fake, service,
                                                                                            quick):
    """The outbox's try of a kept board is made and answered 502, and discord.py's own retry of it is
    answered 503 (all the bot sees): the board may have been posted, so the next move's answer is
    not merged with it, and each move is told once."""
    await _first_answer_kept(bot, fake, service)
    fake.clear_faults()
    fake.server_error("channel_message", status=502, after=True)   # made, answered 502
    fake.server_error("channel_message", status=503, times=None)   # discord.py's retry, and every one after it
    assert not await bot.outbox.flush()
    await _each_move_told_once(bot, fake, service)


async def test_an_answer_posted_then_retried_into_503s_is_kept_apart(bot, fake, service, quick, monkeypatch):
    """The channel post of a move's answer is made but its reply is lost, and the bot's retries of it
    are answered 503: kept after a 503, it is still kept as a post Discord may have made, so the
    next move's answer is not merged with it, and each move is told once."""
    monkeypatch.setattr(transport, "RETRY_FOR", 2.0)   # time for a retry after the lost reply
    await start_game(fake)
    await bot.outbox.stop()   # sent when the test says
    fake.unknown_webhook("answer")
    fake.disconnect("channel_message", after=True)   # made, then the connection drops
    fake.server_error("channel_message", status=503, times=None)
    await fake.slash("move", {"move": "e2e4"}, user=fake.alice, wait=False)
    await until(service.store.deliveries)
    assert any(r.status == 503 for r in fake.requests_to("channel_message"))   # retried, into a 503
    await _each_move_told_once(bot, fake, service)


async def _each_move_told_once(bot, fake: FakeDiscord, service: GameService) -> None:
    """After a post of alice's e4 Discord made (the bot cannot tell) and kept in doubt: the answer to
    bob's e5 is kept too, then both are sent, and each move is told once."""
    assert len(shown(fake, fake.channel_id, "alice plays **e4**")) == 1
    fake.clear_faults()
    await _second_answer_kept(fake, service)
    await until(bot.outbox.flush)
    for who, _, san in LINE[:2]:
        assert len(shown(fake, fake.channel_id, f"{who} plays **{san}**")) == 1
    assert await service.store.deliveries() == []


async def test_a_kept_board_whose_try_could_not_connect_is_still_merged(bot, fake, service, quick, monkeypatch):
    """The outbox's try of a kept board cannot reach Discord at all (the connection is refused: the
    request never left), then the next move's answer is kept: nothing was posted, so one board tells
    both moves."""
    await _first_answer_kept(bot, fake, service)
    fake.clear_faults()
    tried = len(fake.requests)
    with socket.socket() as closed, monkeypatch.context() as patch:
        closed.bind(("127.0.0.1", 0))   # bound, never listening: a connect to it is refused
        patch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed.getsockname()[1]}/api/v10")
        assert not await bot.outbox.flush()
    assert len(fake.requests) == tried   # nothing reached Discord
    await _second_answer_kept(fake, service)

    await until(bot.outbox.flush)
    [posted] = shown(fake, fake.channel_id, "alice plays **e4**")
    assert posted.files and posted.content.startswith(f"<@{fake.alice['id']}> 1. alice plays **e4**")
    assert "bob plays **e5**" in posted.content and await service.store.deliveries() == []


async def test_a_board_merged_while_the_outbox_sends_another_channels_is_told_once(bot, fake, service, quick,
                                                                                   monkeypatch):
    """As above, with the kept answer of another channel read before it: the rows are read again
    for that one, and the merged-away row is not sent after it (as its headlines alone, then once
    more in the newer board, or dropped in the newer board's place)."""
    other = fake.add_channel("board-b")
    await fake.wait_until(lambda: bot.get_channel(int(other)))
    await start_in(fake, other)
    await start_in(fake, fake.channel_id)
    await bot.outbox.stop()   # sent when the test says
    fake.unknown_webhook("answer")
    _refuse_posts(fake)
    for channel in (other, fake.channel_id):   # the other channel's row is the older one
        await fake.slash("move", {"move": "e2e4"}, user=fake.alice, channel=channel, wait=False)
        await until(lambda: _kept_in(service, channel))
    deliveries, armed = service.store.deliveries, [True]

    async def meanwhile(limit: int = 100):
        rows = await deliveries(limit)
        if armed and armed.pop():   # flush has read both rows: the ply-2 answer of this channel is kept now
            await fake.slash("move", {"move": "e7e5"}, user=fake.bob, wait=False)
            await until(lambda: _kept_ply(service, 2))
            fake.clear_faults()
        return rows
    monkeypatch.setattr(service.store, "deliveries", meanwhile)

    await bot.outbox.flush()
    await until(bot.outbox.flush)
    assert len(shown(fake, other, "alice plays **e4**")) == 1
    assert len(shown(fake, fake.channel_id, "alice plays **e4**")) == 1
    [posted] = shown(fake, fake.channel_id, "bob plays **e5**")
    assert posted.files and posted.content.startswith(f"<@{fake.alice['id']}> 1. alice plays **e4**")
