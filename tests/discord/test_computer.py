"""End to end: games against the computer through the Discord stand-in. `/challenge` with the bot
itself as opponent starts the game at once in a thread of its own; the runner's worker processes
search NODES positions at level 1 (KIBITZ_ENGINE_NODES), so no verdict depends on the machine's
speed. Waits poll the stand-in's log (bounded, generous: workers start as processes); "nothing
else arrived" is read from its request log."""
from __future__ import annotations

import asyncio

import pytest

from bot.opponent.workers import Workers
from bot.service import GameService, Player
from bot.store import SqliteStore
from tests.discord.conftest import running_bot, tiny_png

pytestmark = pytest.mark.asyncio

NODES = 200
KIBITZ_1 = "Kibitz (level 1, beginner)"
WAIT = 120.0   # seconds a worker gets to start and answer (it searches NODES positions)


@pytest.fixture(autouse=True)
def small_searches(monkeypatch):
    """As an operator would set them: one worker, searches capped in nodes."""
    monkeypatch.setenv("KIBITZ_ENGINE_NODES", str(NODES))
    monkeypatch.setenv("KIBITZ_ENGINE_WORKERS", "1")


async def play_kibitz(fake, user, variant="standard", colour="white", **options):
    return await fake.slash("challenge", {"variant": variant, "opponent": fake.bot_user, "colour": colour,
                                          "level": 1, **options}, user=user)


def replies(fake, thread_id: str) -> list:
    """The computer's boards posted in a thread."""
    return [m for m in fake.messages_in(thread_id) if f"{KIBITZ_1} plays" in m.content]


def thread_of(fake, user) -> str:
    return next(tid for tid, t in fake.threads.items() if t["name"].startswith(f"{user['username']} vs Kibitz"))


async def first_move(service, thread_id: str, user) -> str:
    return (await service.move_suggestions(thread_id, Player(user["id"], user["username"]), "", None))[0]


async def resigned_with_rematch(fake) -> tuple[str, str]:
    """alice's game against the computer, resigned: its thread and its final board's Rematch button."""
    await play_kibitz(fake, fake.alice)
    first = thread_of(fake, fake.alice)
    resigned = await fake.slash("resign", user=fake.alice, channel=first)
    return first, next(c["custom_id"] for c in resigned.components() if c.get("label") == "Rematch")


def index_of(fake, method: str, path: str, start: int = 0) -> int:
    return next(i for i, r in enumerate(fake.requests) if i >= start and r.method == method and r.path == path)


async def test_challenging_kibitz_starts_a_game_at_once_in_a_thread_and_it_answers_a_move(bot, fake):
    made = await play_kibitz(fake, fake.alice)
    assert not made.reply.ephemeral and made.reply.channel_id == fake.channel_id
    assert f"alice plays {KIBITZ_1} at **Standard chess**, as White." in made.reply.content
    assert made.components() == []   # no Accept: it began
    [(thread_id, thread)] = fake.threads.items()
    assert thread["name"] == "alice vs Kibitz (level 1) · Standard chess" and thread_id in made.reply.content
    assert fake.alice["id"] in thread["members"]
    [board] = fake.messages_in(thread_id)
    assert "alice to move" in board.content and board.files
    mark = len(fake.requests)
    played = await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread_id)
    assert "alice plays **e4**" in played.reply.content
    await fake.wait_until(lambda: replies(fake, thread_id), timeout=WAIT)
    [answer] = replies(fake, thread_id)
    assert answer.files and f"<@{fake.alice['id']}>" in answer.content   # pings the member to move
    typing = index_of(fake, "POST", f"/channels/{thread_id}/typing", mark)
    posted = index_of(fake, "POST", f"/channels/{thread_id}/messages", mark)
    assert typing < posted and fake.requests[typing].status == 204
    later = await fake.nothing_more(user=fake.carol)
    assert [r for r in later if r.method == "POST"] == []   # one board, posted once


async def test_as_white_the_computer_moves_first(bot, fake):
    await play_kibitz(fake, fake.alice, colour="black")
    thread_id = thread_of(fake, fake.alice)
    await fake.wait_until(lambda: replies(fake, thread_id), timeout=WAIT)
    first, answer = fake.messages_in(thread_id)
    assert f"alice plays {KIBITZ_1}" in first.content and f"<@{fake.alice['id']}>" in answer.content
    assert fake.requests_to("typing")[0].path == f"/channels/{thread_id}/typing"


async def test_a_balanced_swap_game_against_the_computer(bot, fake, service):
    await play_kibitz(fake, fake.alice, variant="balanced-swap")
    thread_id = thread_of(fake, fake.alice)
    move = await first_move(service, thread_id, fake.alice)
    played = await fake.slash("move", {"move": move}, user=fake.alice, channel=thread_id)
    assert "alice plays" in played.reply.content and not played.reply.ephemeral
    await fake.wait_until(lambda: replies(fake, thread_id), timeout=WAIT)
    record = await service.store.open_game(thread_id)
    assert len(record.moves) == 2 and record.players[1][0] == "computer:1"


async def test_a_bystander_cannot_move_in_a_game_against_the_computer(bot, fake, service):
    await play_kibitz(fake, fake.alice)
    thread_id = thread_of(fake, fake.alice)
    refused = await fake.slash("move", {"move": "e4"}, user=fake.bob, channel=thread_id)
    assert refused.reply.ephemeral and "not playing" in refused.reply.content.lower()
    assert (await service.store.open_game(thread_id)).moves == []
    assert [m for m in fake.messages_in(thread_id) if not m.ephemeral][1:] == []


async def test_with_the_computer_turned_off_in_settings_a_challenge_to_it_is_refused(bot, fake):
    changed = await fake.slash("settings", {"computer": False}, user=fake.alice)
    assert changed.reply.ephemeral and "Computer opponent: off." in changed.reply.content
    refused = await play_kibitz(fake, fake.alice)
    assert refused.reply.ephemeral and "turned off in this server" in refused.reply.content
    assert fake.threads == {} and fake.requests_to("create_thread") == []


async def test_ten_games_against_the_computer_at_once_each_get_a_reply(bot, fake, service):
    members = [fake.add_member(f"p{i}") for i in range(10)]
    for member in members:
        made = await play_kibitz(fake, member)
        assert not made.reply.ephemeral, made.reply.content
    threads = [thread_of(fake, member) for member in members]
    await asyncio.gather(*(fake.slash("move", {"move": "e4"}, user=m, channel=t) for m, t in zip(members, threads)))
    await fake.wait_until(lambda: all(replies(fake, t) for t in threads), timeout=4 * WAIT)
    assert [len(replies(fake, t)) for t in threads] == [1] * 10
    for thread_id in threads:
        assert len((await service.store.open_game(thread_id)).moves) == 2


async def test_after_a_restart_while_the_computer_is_to_move_it_moves(fake, tmp_path, monkeypatch):
    stalled = asyncio.Event()

    async def never(self, job):   # the first process stops while its search is under way
        stalled.set()
        await asyncio.Event().wait()

    path = str(tmp_path / "kibitz.sqlite3")
    store = await SqliteStore.open(path)
    with monkeypatch.context() as patched:
        patched.setattr(Workers, "choose", never)
        async with running_bot(fake, GameService(store, renderer=tiny_png)):
            await play_kibitz(fake, fake.alice, colour="black")
            await asyncio.wait_for(stalled.wait(), WAIT)
    await store.close()
    thread_id = thread_of(fake, fake.alice)
    assert replies(fake, thread_id) == []
    store = await SqliteStore.open(path)
    try:
        async with running_bot(fake, GameService(store, renderer=tiny_png)):
            await fake.wait_until(lambda: replies(fake, thread_id), timeout=WAIT)
        assert len((await store.open_game(thread_id)).moves) == 1
    finally:
        await store.close()


async def test_rematch_against_the_computer_begins_at_once_in_a_new_thread(bot, fake, service):
    first, rematch = await resigned_with_rematch(fake)
    again = await fake.click(rematch, user=fake.alice)
    [second] = [t for t in fake.threads if t != first]
    assert not again.reply.ephemeral and second in again.reply.content and "Accept" not in again.text
    assert fake.threads[second]["parent_id"] == fake.channel_id
    assert fake.threads[second]["name"] == "alice vs Kibitz (level 1) · Standard chess"
    record = await service.store.open_game(second)
    assert record.players[0][0] == "computer:1" and record.home_channel_id == fake.channel_id   # colours swapped
    await fake.wait_until(lambda: replies(fake, second), timeout=WAIT)   # as White it moves first


async def test_a_second_rematch_press_points_to_the_game_begun_and_opens_no_thread(bot, fake, service):
    first, rematch = await resigned_with_rematch(fake)
    await fake.click(rematch, user=fake.alice)
    [second] = [t for t in fake.threads if t != first]
    again = await fake.click(rematch, user=fake.alice)
    old, new = (await service.store.latest(first)).id, (await service.store.latest(second)).id
    assert again.reply.ephemeral
    assert again.reply.content == f"Your rematch of game #{old} has begun already: game #{new}, in <#{second}>."
    assert len(fake.requests_to("create_thread")) == 2 and len(fake.threads) == 2
    assert [r.channel_id for r in await service.store.open_games()] == [second]


async def test_a_bystanders_rematch_press_is_refused_privately_before_any_thread_is_made(bot, fake, service):
    first, rematch = await resigned_with_rematch(fake)
    for bobs_games in (0, 3):   # and with bob at the cap on games against the computer
        for _ in range(bobs_games):
            await play_kibitz(fake, fake.bob)
        refused = await fake.click(rematch, user=fake.bob)
        assert refused.reply.ephemeral and refused.reply.content == "You are not playing in this game."
        assert len(fake.requests_to("create_thread")) == 1 + bobs_games
    old = (await service.store.latest(first)).id
    assert fake.requests_to("DELETE /channels/[^/]+") == [] and await service.store.rematch_of(old) is None
