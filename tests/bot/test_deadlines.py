"""Deadlines over the in-memory store: challenge expiry, the reminder at a quarter of the time
left, loss on time, and what a move made first changes. Time is a clock the tests move."""
import asyncio
import threading

import pytest

from bot.service import GameService, Player, UserError, duration
from bot.store import InMemoryStore

from .conftest import ALICE, BOB, CAROL, CHANNEL, HandClock, fake_png
from .lost_answers import LosesAnswers

pytestmark = pytest.mark.asyncio

DAY = 86400


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def timed(store, clock):
    return GameService(store, renderer=fake_png, timer=clock, challenge_ttl=600, move_deadline=3 * DAY)


async def started(service, days=None, guild=None):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white", days=days, guild=guild)
    await service.accept(CHANNEL, BOB)
    return reply.game_id


async def test_a_challenge_expires_after_its_time_and_says_so(timed, store, clock):
    game_id = (await timed.challenge(CHANNEL, ALICE, BOB, "standard")).game_id
    clock.now += 599
    assert await timed.due_events() == []
    clock.now += 1
    [event] = await timed.due_events()
    assert event.kind == "expired" and event.record.id == game_id
    assert "expired" in event.reply.text and "10 minutes" in event.reply.text
    stored = await store.get(game_id)
    assert (stored.status, stored.due_at) == ("expired", None)
    assert await timed.due_events() == []   # fired once


async def test_an_expired_challenge_can_no_longer_be_accepted(timed, clock):
    game_id = (await timed.challenge(CHANNEL, ALICE, BOB, "standard")).game_id
    clock.now += 600
    await timed.due_events()
    with pytest.raises(Exception, match="no longer open"):
        await timed.accept(CHANNEL, BOB, game_id)


async def test_a_challenge_past_its_time_cannot_be_accepted_even_before_it_is_marked_expired(timed, store, clock):
    """After a restart its buttons are still live until the scheduler's first round: they are refused."""
    game_id = (await timed.challenge(CHANNEL, ALICE, BOB, "standard")).game_id
    clock.now += 600
    with pytest.raises(UserError, match="no longer open"):
        await timed.accept(CHANNEL, BOB, game_id)
    with pytest.raises(UserError, match="No challenge waits for you here"):
        await timed.accept(CHANNEL, BOB)
    assert (await store.get(game_id)).status == "challenge"
    [event] = await timed.due_events()
    assert event.kind == "expired"


async def test_an_accepted_challenge_does_not_expire(timed, store, clock):
    game_id = await started(timed)
    clock.now += 601
    assert await timed.due_events() == []
    assert (await store.get(game_id)).status == "active"


async def test_the_player_to_move_is_reminded_once_with_a_quarter_left_then_loses_on_time(timed, store, clock):
    game_id = await started(timed)
    assert GameService.deadline_of(await store.get(game_id)) == clock.now + 3 * DAY
    clock.now += 2.25 * DAY - 1
    assert await timed.due_events() == []
    clock.now += 1
    [reminder] = await timed.due_events()
    assert reminder.kind == "reminder" and reminder.reply.pings == (ALICE.id,)
    assert "alice, your move" in reminder.reply.text and "18 hours" in reminder.reply.text
    assert await timed.due_events() == []   # reminded once
    clock.now += 0.75 * DAY
    [timeout] = await timed.due_events()
    assert timeout.kind == "timeout" and timeout.reply.finished
    assert "alice ran out of time" in timeout.reply.text and "bob wins" in timeout.reply.text
    stored = await store.get(game_id)
    assert (stored.status, stored.result, stored.reason, stored.ending, stored.due_at) == ("finished", "0-1", "time", "time", None)
    assert timeout.reply.controls == ("rematch",)
    assert await store.leaderboard("", "standard")   # rated like any finished game


async def test_a_move_restarts_the_clock_for_the_other_player(timed, store, clock):
    game_id = await started(timed)
    clock.now += 2.5 * DAY
    await timed.due_events()   # alice reminded
    await timed.move(CHANNEL, ALICE, "e4")
    stored = await store.get(game_id)
    assert stored.reminded is False and GameService.deadline_of(stored) == clock.now + 3 * DAY
    clock.now += 2.9 * DAY
    [reminder] = await timed.due_events()
    assert reminder.reply.pings == (BOB.id,)


async def test_a_move_made_before_the_deadline_is_handled_wins_over_the_forfeit(timed, store, clock):
    game_id = await started(timed)
    clock.now += 3 * DAY   # due, but alice moves before the scheduler gets to it
    await timed.move(CHANNEL, ALICE, "e4")
    assert await timed.due_events(now=clock.now) == []
    assert (await store.get(game_id)).status == "active"


class SlowDueStore(InMemoryStore):
    """Hands out the due list, then lets other tasks run: two processes read it at once."""

    async def due(self, now, limit=100):
        rows = await super().due(now, limit)
        await asyncio.sleep(0)
        return rows


async def test_a_forfeit_fires_only_once_when_two_processes_share_the_store(clock):
    store = SlowDueStore()
    one = GameService(store, renderer=fake_png, timer=clock, move_deadline=100)
    two = GameService(store, renderer=fake_png, timer=clock, move_deadline=100)
    game_id = await started(one)
    await two.board(CHANNEL)   # both hold the game in memory
    clock.now += 101
    first, second = await asyncio.gather(one.due_events(), two.due_events())
    assert [e.kind for e in first + second] == ["timeout"]
    assert (await store.get(game_id)).result == "0-1"


async def test_a_challenges_days_win_over_the_default(timed, store, clock):
    game_id = await started(timed, days=7)
    assert (await store.get(game_id)).move_seconds == 7 * DAY
    clock.now += 3 * DAY
    assert await timed.due_events() == []


async def test_without_a_default_deadline_games_have_no_clock(store, clock):
    service = GameService(store, renderer=fake_png, timer=clock, move_deadline=None)
    game_id = await started(service)
    assert (await store.get(game_id)).due_at is None


async def test_only_the_guilds_a_process_owns_are_served(timed, store, clock):
    game_id = await started(timed, guild="g1")
    clock.now += 3 * DAY
    assert await timed.due_events(owns=lambda guild: guild == "g2") == []
    assert [e.kind for e in await timed.due_events(owns=lambda guild: guild == "g1")] == ["timeout"]
    assert (await store.get(game_id)).result == "0-1"


async def test_deadlines_of_this_process_fire_behind_a_full_page_of_other_processes_ones(timed, store, clock):
    """Another shard's process is down and its overdue challenges fill the first page of due records."""
    for n in range(100):   # a whole page of due records (GameService.DUE_PAGE)
        await timed.challenge(f"chan-g2-{n}", ALICE, BOB, "standard", guild="g2")
    clock.now += 1
    mine = (await timed.challenge(CHANNEL, CAROL, BOB, "standard", guild="g1")).game_id
    clock.now += 600
    [event] = await timed.due_events(owns=lambda guild: guild == "g1")
    assert event.kind == "expired" and event.record.id == mine


async def test_a_member_who_turned_pings_off_is_reminded_without_a_ping(timed, store, clock):
    await store.set_pings(ALICE.id, False, "now")
    await started(timed)
    clock.now += 2.5 * DAY
    [reminder] = await timed.due_events()
    assert reminder.kind == "reminder" and reminder.reply.pings == ()


async def test_a_save_with_a_nearer_deadline_wakes_the_scheduler(timed, clock):
    timed.deadlines.until = clock.now + 10_000
    timed.deadlines.event.clear()
    await timed.challenge(CHANNEL, ALICE, BOB, "standard")   # due in 600 s
    assert timed.deadlines.event.is_set()
    timed.deadlines.event.clear()
    timed.deadlines.until = clock.now + 10
    await timed.challenge(CHANNEL, BOB, Player("3", "carol"), "standard")
    assert not timed.deadlines.event.is_set()


async def test_durations_read_in_their_two_largest_units():
    assert [duration(s) for s in (2, 60, 3661, 64800, 3 * DAY, DAY + 3600)] == [
        "2 seconds", "1 minute", "1 hour 1 minute", "18 hours", "3 days", "1 day 1 hour"]


async def test_the_next_due_is_the_stores_earliest(timed, clock):
    assert await timed.next_due() is None
    await timed.challenge(CHANNEL, ALICE, BOB, "standard")
    assert await timed.next_due() == clock.now + 600


@pytest.fixture
def store():
    return InMemoryStore()


async def test_a_game_restored_for_its_deadline_is_replayed_off_the_event_loop(store, clock, monkeypatch):
    """After a restart the scheduler may revive many games in a row; a long replay must not stall the bot."""
    first = GameService(store, renderer=fake_png, timer=clock, move_deadline=DAY)
    game_id = await started(first)
    await first.move(CHANNEL, ALICE, "e4")
    replayed_in: list[threading.Thread] = []
    revive = GameService._revive

    def spied(self, record):
        replayed_in.append(threading.current_thread())
        return revive(self, record)

    monkeypatch.setattr(GameService, "_revive", spied)
    restarted = GameService(store, renderer=fake_png, timer=clock, move_deadline=DAY)
    clock.now += DAY
    assert [event.kind for event in await restarted.due_events()] == ["timeout"]
    assert replayed_in and threading.main_thread() not in replayed_in
    assert (await store.get(game_id)).reason == "time"


async def test_a_deadline_whose_write_the_store_could_not_confirm_is_told_once_it_is_read_back_stored(clock):
    store = LosesAnswers()
    timed = GameService(store, renderer=fake_png, timer=clock, challenge_ttl=600, move_deadline=3 * DAY)
    game_id = (await timed.challenge(CHANNEL, ALICE, CAROL, "standard")).game_id
    for kind, wait in (("expired", 600), ("reminder", 2.25 * DAY), ("timeout", 0.75 * DAY)):
        if kind == "reminder":
            game_id = await started(timed)
        clock.now += wait
        store.lose, store.blind_after = True, 1   # stored, then neither its answer nor the read back comes
        assert await timed.due_events() == []
        assert await timed.next_due() <= clock.now   # the scheduler comes back for it
        [event] = await timed.due_events()
        assert (event.kind, event.record.id) == (kind, game_id)
    assert "alice ran out of time" in event.reply.text and "bob wins" in event.reply.text
    assert (await store.get(game_id)).status == "finished" and await timed.due_events() == []
