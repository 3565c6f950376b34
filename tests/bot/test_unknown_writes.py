"""A write whose answer is lost after the commit is never reported as failed.

On PostgreSQL a proxy (tests/bot/pg_proxy.py) lets the server commit a statement, then cuts the
connection before the answer reaches asyncpg. The service reads the row back: what landed is
answered as saved (reply, ping, position kept), what did not is reported as failed, and where the
store cannot say, the player is told so and the next command reads the store.
"""
from __future__ import annotations

import pytest
import pytest_asyncio

from bot.service import GameService, UserError
from bot.store.postgres import PostgresStore

from .conftest import ALICE, BOB, CAROL, CHANNEL, fake_png
from .lost_answers import LosesAnswers
from .pg_proxy import PgProxy

pytestmark = pytest.mark.asyncio
UPDATE, INSERT = "UPDATE games", "INSERT INTO games"


@pytest_asyncio.fixture
async def proxy(pg_url):
    proxy = await PgProxy.start(pg_url)
    yield proxy
    await proxy.close()


@pytest_asyncio.fixture
async def pg_service(proxy):
    store = await PostgresStore.open(proxy.url)
    yield GameService(store, renderer=fake_png)
    await store.close()


async def started(service: GameService, *moves: tuple) -> None:
    await service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white")
    await service.accept(CHANNEL, BOB)
    for user, move in moves:
        await service.move(CHANNEL, user, move)


async def test_a_move_whose_answer_is_lost_after_the_commit_is_answered_and_the_game_goes_on(proxy, pg_service):
    await started(pg_service)
    proxy.lose_reply(UPDATE)
    reply = await pg_service.move(CHANNEL, ALICE, "e4")
    assert proxy.cut == 1                                   # the fault did happen
    assert "alice plays **e4**" in reply.text and reply.pings == (BOB.id,)
    assert (await pg_service.store.open_game(CHANNEL)).moves == ["e2e4"]
    assert "Last move: 1. **e4**" in (await pg_service.board(CHANNEL)).text
    answer = await pg_service.move(CHANNEL, BOB, "e5")      # it is bob's turn, as stored
    assert "bob plays **e5**" in answer.text
    assert (await pg_service.store.open_game(CHANNEL)).moves == ["e2e4", "e7e5"]


async def test_a_move_lost_before_the_server_is_reported_as_failed_and_nothing_changes(proxy, pg_service):
    await started(pg_service)
    proxy.lose_request(UPDATE)
    with pytest.raises(Exception) as failed:
        await pg_service.move(CHANNEL, ALICE, "e4")
    assert proxy.cut == 1 and not isinstance(failed.value, UserError)   # "Something went wrong", as before
    assert (await pg_service.store.open_game(CHANNEL)).moves == []
    assert "Last move" not in (await pg_service.board(CHANNEL)).text
    assert "alice plays **e4**" in (await pg_service.move(CHANNEL, ALICE, "e4")).text   # the retry works


async def test_an_accept_whose_answer_is_lost_starts_the_game_where_it_was_accepted(proxy, pg_service):
    made = await pg_service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white")
    proxy.lose_reply(UPDATE)
    reply = await pg_service.accept(CHANNEL, BOB, made.game_id, play_in="thread-1")
    assert proxy.cut == 1
    assert "bob accepts" in reply.text and reply.pings == (ALICE.id,)
    assert (await pg_service.store.open_game("thread-1")).id == made.game_id
    assert await pg_service.store.challenges(CHANNEL) == []
    assert "alice plays **e4**" in (await pg_service.move("thread-1", ALICE, "e4")).text


async def test_a_challenge_whose_answer_is_lost_is_stored_once_and_keeps_its_message(proxy, pg_service):
    proxy.lose_reply(INSERT)
    reply = await pg_service.challenge(CHANNEL, ALICE, BOB, "standard")
    assert proxy.cut == 1
    assert "alice challenges bob" in reply.text and reply.game_id is not None
    [stored] = await pg_service.store.challenges(CHANNEL)
    assert stored.id == reply.game_id
    await pg_service.note_challenge_message(reply.game_id, "555")
    assert (await pg_service.store.get(reply.game_id)).message_id == "555"


async def test_a_puzzle_whose_answer_is_lost_is_started(proxy, pg_service):
    proxy.lose_reply(INSERT)
    reply = await pg_service.start_puzzle("puzzle-thread", CAROL, "kingswap", seed=7, home=CHANNEL)
    assert proxy.cut == 1
    stored = await pg_service.store.open_game("puzzle-thread")
    assert stored is not None and reply.game_id == stored.id
    assert "moves played: 0" in (await pg_service.board("puzzle-thread")).text


async def test_takeback_resign_and_draw_whose_answers_are_lost_all_count(proxy, pg_service):
    await started(pg_service, (ALICE, "e4"), (BOB, "e5"))
    store = pg_service.store
    proxy.lose_reply(UPDATE)
    asked = await pg_service.takeback(CHANNEL, ALICE)
    assert "alice asks to take back" in asked.text and (await store.open_game(CHANNEL)).takeback_offer == ALICE.id
    proxy.lose_reply(UPDATE)
    taken = await pg_service.answer_takeback(CHANNEL, BOB, asked.game_id, accept=True)
    assert "accepts the takeback" in taken.text and (await store.open_game(CHANNEL)).moves == []
    proxy.lose_reply(UPDATE)
    offered = await pg_service.draw(CHANNEL, BOB)
    assert "bob offers a draw" in offered.text and (await store.open_game(CHANNEL)).draw_offer == BOB.id
    proxy.lose_reply(UPDATE)
    drawn = await pg_service.draw(CHANNEL, ALICE)
    assert "alice accepts the draw" in drawn.text and (await store.get(asked.game_id)).result == "1/2-1/2"
    await started(pg_service)
    proxy.lose_reply(UPDATE)
    resigned = await pg_service.resign(CHANNEL, BOB)
    assert "bob resigns" in resigned.text and (await store.get(resigned.game_id)).result == "1-0"
    assert proxy.cut == 5


async def test_settings_and_pings_whose_answers_are_lost_are_saved(proxy, pg_service):
    proxy.lose_reply("INSERT INTO guild_settings")
    reply = await pg_service.change_settings("guild-1", days=5)
    assert proxy.cut == 1 and reply.text.startswith("Settings saved.")
    assert (await pg_service.server_settings("guild-1")).days == 5
    proxy.lose_reply("INSERT INTO member_prefs")
    await pg_service.set_pings(BOB, False)
    assert proxy.cut == 2 and await pg_service.store.pings(BOB.id) is False


# -- when the store cannot say (the in-memory store loses the answer and the read back) -------------

async def test_a_move_whose_outcome_cannot_be_known_says_so_and_the_next_command_reads_the_store():
    store = LosesAnswers()
    service = GameService(store, renderer=fake_png)
    await started(service)
    store.lose, store.blind_after = True, 1
    with pytest.raises(UserError, match="cannot tell"):
        await service.move(CHANNEL, ALICE, "e4")
    assert "Last move: 1. **e4**" in (await service.board(CHANNEL)).text   # not the old position from memory
    assert "bob plays **e5**" in (await service.move(CHANNEL, BOB, "e5")).text


async def test_a_lost_answer_to_a_challenge_in_memory_leaves_one_challenge():
    store = LosesAnswers()
    service = GameService(store, renderer=fake_png)
    store.lose = True
    reply = await service.challenge(CHANNEL, ALICE, None, "standard")
    assert [r.id for r in await store.challenges(CHANNEL)] == [reply.game_id]
    assert "carol accepts" in (await service.accept(CHANNEL, CAROL, reply.game_id)).text


async def test_a_challenge_retried_after_an_unsure_answer_is_not_made_twice():
    store = LosesAnswers()
    service = GameService(store, renderer=fake_png)
    store.lose, store.blind_after = True, 1
    with pytest.raises(UserError, match="cannot tell"):
        await service.challenge(CHANNEL, ALICE, BOB, "standard")
    with pytest.raises(UserError, match="already have that challenge open here"):
        await service.challenge(CHANNEL, ALICE, BOB, "standard")
    assert len(await store.challenges(CHANNEL)) == 1


async def test_whether_a_game_is_stored_in_a_channel_is_asked_of_the_store():
    store = LosesAnswers()
    service = GameService(store, renderer=fake_png)
    assert await service.game_stored_in("thread-1") is False
    made = await service.challenge(CHANNEL, ALICE, BOB, "standard")
    await service.accept(CHANNEL, BOB, made.game_id, play_in="thread-1")
    service._live.clear()                                   # memory plays no part
    assert await service.game_stored_in("thread-1") is True
    store.blind_reads = 1
    assert await service.game_stored_in("thread-2") is True   # cannot tell: keep it
