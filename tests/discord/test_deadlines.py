"""Deadlines end to end through the Discord stand-in, with short real settings read as in
production (KIBITZ_CHALLENGE_TTL=2, KIBITZ_MOVE_DEADLINE=2): a challenge expires and its
message says so without buttons; the player to move is reminded with a ping, then loses on
time, with the final board posted in the game's thread; a deadline outlives a restart."""
from __future__ import annotations

import asyncio
import functools

import pytest

from bot.config import load as load_config
from bot.discord.app import service_options
from bot.discord.deadlines import show_event
from bot.scheduler import Scheduler
from bot.service import GameService, Player
from bot.store import InMemoryStore
from tests.discord.conftest import running_bot, tiny_png
from tests.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.asyncio

WAIT = 10.0   # generous: deadlines of 2 s on a busy machine


def service_with(**environ: str) -> GameService:
    cfg = load_config(environ)
    return GameService(InMemoryStore(), renderer=tiny_png, **service_options(cfg))


def service_player(user: dict) -> Player:
    return Player(user["id"], user["username"])


def button(log, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c.get("label") == label)


async def challenge(fake: FakeDiscord):
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                           user=fake.alice)
    return log, log.reply.message


async def begin(fake: FakeDiscord) -> str:
    """alice (White) v bob, accepted: the game's thread."""
    log, message = await challenge(fake)
    accepted = await fake.click(button(log, "Accept"), user=fake.bob, message=message)
    assert "accepts" in accepted.reply.content
    return list(fake.threads)[-1]


def posted(fake: FakeDiscord, where: str, text: str):
    return [m for m in fake.messages_in(where) if text in m.content]


async def test_a_challenge_expires_and_its_message_says_so_without_buttons(fake):
    service = service_with(KIBITZ_CHALLENGE_TTL="2")
    async with running_bot(fake, service):
        log, message = await challenge(fake)
        await fake.wait_until(lambda: any(e.message["id"] == message["id"] for e in fake.channel_edits), WAIT)
        [edit] = [e for e in fake.channel_edits if e.message["id"] == message["id"]]
        assert "expired without an answer" in edit.message["content"] and not edit.message.get("components")
        game_id = int(button(log, "Accept").split(":")[2])
        assert (await service.game_record(game_id)).status == "expired"
        late = await fake.click(button(log, "Accept"), user=fake.bob, message=message)
        assert late.reply.ephemeral and "no longer open" in late.reply.content


async def test_a_challenge_whose_message_is_unknown_expires_with_a_note_in_its_channel(fake):
    service = service_with(KIBITZ_CHALLENGE_TTL="2")
    async with running_bot(fake, service):
        made = await service.challenge(fake.channel_id, service_player(fake.alice), service_player(fake.bob),
                                       "standard")
        await fake.wait_until(lambda: posted(fake, fake.channel_id, "expired"), WAIT)
        [note] = posted(fake, fake.channel_id, "expired")
        assert "no answer within 2 seconds" in note.content
        assert (await service.game_record(made.game_id)).status == "expired"


async def test_the_player_to_move_is_reminded_then_loses_on_time_in_the_games_thread(fake):
    service = service_with(KIBITZ_MOVE_DEADLINE="2")
    async with running_bot(fake, service):
        thread = await begin(fake)
        alice = fake.alice["id"]
        await fake.wait_until(lambda: posted(fake, thread, "ran out of time"), WAIT)
        [reminder] = posted(fake, thread, "your move in")
        assert reminder.content.startswith(f"<@{alice}> alice, your move")
        assert [u["id"] for u in reminder.message["mentions"]] == [alice]
        assert [str(u) for u in reminder.allowed_mentions["users"]] == [alice]
        assert not reminder.message["mention_everyone"]
        [final] = posted(fake, thread, "ran out of time")
        assert "**bob wins** (0-1): Time." in final.content
        assert final.files and final.files[0].data.startswith(b"\x89PNG")
        labels = [c.get("label") for row in final.message["components"] for c in row["components"]]
        assert labels == ["Rematch"]
        record = await service.store.latest(thread)
        assert (record.status, record.result, record.reason) == ("finished", "0-1", "time")
        assert await service.store.leaderboard(fake.guild_id, "standard")   # rated
        over = await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread)
        assert over.reply.ephemeral


async def test_a_member_with_pings_off_is_reminded_without_a_ping(fake):
    service = service_with(KIBITZ_MOVE_DEADLINE="2")
    await service.store.set_pings(fake.alice["id"], False, "now")
    async with running_bot(fake, service):
        thread = await begin(fake)
        await fake.wait_until(lambda: posted(fake, thread, "your move in"), WAIT)
        [reminder] = posted(fake, thread, "your move in")
        assert reminder.content.startswith("alice, your move") and reminder.message["mentions"] == []


async def test_a_deadline_outlives_a_restart(fake):
    store = InMemoryStore()
    first = GameService(store, renderer=tiny_png, move_deadline=3)
    async with running_bot(fake, first):
        thread = await begin(fake)
    [record] = await store.open_games()
    assert record.due_at is not None and record.result is None   # stored, not yet due
    second = GameService(store, renderer=tiny_png, move_deadline=3)
    async with running_bot(fake, second):
        await fake.wait_until(lambda: posted(fake, thread, "ran out of time"), WAIT)
    assert (await store.get(record.id)).reason == "time"


async def test_a_move_in_time_keeps_the_game_going(fake):
    service = service_with(KIBITZ_MOVE_DEADLINE="4")
    async with running_bot(fake, service):
        thread = await begin(fake)
        moved = await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread)
        assert "alice plays" in moved.reply.content
        await fake.wait_until(lambda: posted(fake, thread, "ran out of time"), WAIT)
        [final] = posted(fake, thread, "ran out of time")
        assert "bob ran out of time" in final.content and "**alice wins** (1-0)" in final.content


async def wait_until(predicate, timeout: float) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


class StubBot:
    """What the scheduler's Discord side needs of the bot: which guilds it serves, and somewhere to post."""

    def __init__(self, service: GameService, owned: set[str]) -> None:
        self.kibitz_service, self.owned, self.posted = service, owned, []

    def owns_guild(self, guild_id) -> bool:
        return guild_id in self.owned

    def get_partial_messageable(self, channel_id: int):
        bot = self

        class Channel:
            async def send(self, content=None, **kwargs):
                bot.posted.append((channel_id, content))

        return Channel()

    def scheduler(self) -> Scheduler:
        """A scheduler over the stub's service, delivering as the bot does (bot/discord/deadlines.py)."""
        return Scheduler(self.kibitz_service, functools.partial(show_event, self),   # type: ignore[arg-type]
                         owns=self.owns_guild)


def count_rounds(service: GameService) -> list[list]:
    """The events of each scheduler round, in order, as the service hands them out."""
    rounds: list[list] = []
    due_events = service.due_events

    async def counted(*args, **kwargs):
        events = await due_events(*args, **kwargs)
        rounds.append(events)
        return events

    service.due_events = counted   # type: ignore[method-assign]
    return rounds


async def test_the_scheduler_leaves_the_games_of_guilds_it_does_not_own():
    now = [1_000_000.0]
    service = GameService(InMemoryStore(), renderer=tiny_png, timer=lambda: now[0], move_deadline=100)
    alice, bob = Player("11", "alice"), Player("12", "bob")
    game_id = (await service.challenge("5", alice, bob, "standard", guild="g1")).game_id
    await service.accept("5", bob)
    now[0] += 101
    rounds = count_rounds(service)
    other = StubBot(service, {"g2"})
    scheduler = other.scheduler()
    scheduler.start()
    try:
        await wait_until(lambda: len(rounds) >= 2, WAIT)   # a round, a back-off, a round
    finally:
        await scheduler.stop()
    assert rounds[:2] == [[], []] and other.posted == []
    assert (await service.store.get(game_id)).status == "active"
    owner = StubBot(service, {"g1"})
    scheduler = owner.scheduler()
    scheduler.start()
    try:
        await wait_until(lambda: owner.posted, WAIT)
    finally:
        await scheduler.stop()
    assert owner.posted[0][0] == 5 and "alice ran out of time" in owner.posted[0][1]
    assert (await service.store.get(game_id)).reason == "time"


async def test_a_challenge_made_while_the_scheduler_reads_the_next_deadline_still_expires_on_time():
    """A save that lands while the store answers next_due (after its read) must still wake the scheduler."""
    service = GameService(InMemoryStore(), renderer=tiny_png, challenge_ttl=0.2)
    alice, bob = Player("11", "alice"), Player("12", "bob")
    first = (await service.challenge("5", alice, bob, "standard", guild="g1")).game_id
    later: list[int] = []
    next_due = service.next_due

    async def racing_next_due():
        earliest = await next_due()
        if not later and (await service.store.get(first)).status == "expired":
            # the round that expired the first challenge: a second one is made just after the read
            later.append((await service.challenge("5", bob, alice, "standard", guild="g1")).game_id)
        return earliest

    service.next_due = racing_next_due   # type: ignore[method-assign]
    bot = StubBot(service, {"g1"})
    scheduler = bot.scheduler()
    scheduler.start()
    try:
        await wait_until(lambda: len(bot.posted) == 2, WAIT)
    finally:
        await scheduler.stop()
    assert (await service.store.get(later[0])).status == "expired"


async def test_another_shards_overdue_deadline_does_not_delay_this_ones():
    """A game of a guild another process serves lies overdue (that process is down): the scheduler
    backs off from it, but wakes for its own next deadline rather than after the back-off."""
    now = [1_000_000.0]
    service = GameService(InMemoryStore(), renderer=tiny_png, timer=lambda: now[0], move_deadline=100)
    alice, bob = Player("11", "alice"), Player("12", "bob")
    theirs = (await service.challenge("5", alice, bob, "standard", guild="g1")).game_id
    await service.accept("5", bob)
    ours = (await service.challenge("6", alice, bob, "standard", guild="g2")).game_id
    await service.accept("6", bob)
    for game_id, due_at in ((theirs, now[0] - 50), (ours, now[0] + 0.25)):
        record = await service.store.get(game_id)
        record.due_at = due_at
        await service.store.save(record)
    rounds = count_rounds(service)
    scheduler = StubBot(service, {"g2"}).scheduler()
    scheduler.start()
    try:
        await wait_until(lambda: rounds, WAIT)
        await wait_until(lambda: service.deadlines.until is not None, WAIT)
        # the back-off would be a whole second; ours comes due in a quarter of one
        assert service.deadlines.until - now[0] == pytest.approx(0.25)
    finally:
        await scheduler.stop()
    assert rounds[0] == [] and (await service.store.get(theirs)).status == "active"
