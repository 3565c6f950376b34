"""Games against the computer: the service starts them at once and the runner (bot/opponent/runner.py)
plays the computer's turns through worker processes. Every search here is capped in nodes (level
1, NODES positions), so no verdict depends on the machine's speed; waits poll the delivered events."""
import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import pytest_asyncio

import engine
import rules
from rules import Ending
from bot import process
from bot.console import Console
from bot.opponent import runner as runner_module, workers as workers_module
from bot.opponent.runner import Runner
from bot.opponent.workers import Answer, Job, Workers
from bot.service import COMPUTER, GameService, Player, UserError, seats as computer
from bot.stockfish import FIRST_LEVEL
from bot.store import GameRecord, GameStatus, InMemoryStore, SqliteStore

from .conftest import ALICE, BOB, CHANNEL, fake_png
from .test_stockfish import INSTALLED, needs_stockfish
from ..shared_workers import SharedWorkers

NODES = 200
GUILD = "g1"
KIBITZ_1 = "Kibitz (level 1, beginner)"


class Delivered:
    """The runner's `deliver`: keeps each event, with the game as the store held it at delivery."""

    def __init__(self, store) -> None:
        self.store = store
        self.events = []
        self.stored = []   # the stored record's moves at each delivery

    async def __call__(self, event) -> None:
        self.stored.append(list((await self.store.get(event.record.id)).moves))
        self.events.append(event)

    async def wait(self, count: int, timeout: float = 120.0) -> None:
        """Until `count` events came (a bounded wait, generous: workers start as processes)."""
        async with asyncio.timeout(timeout):
            while len(self.events) < count:
                await asyncio.sleep(0.02)


@pytest.fixture(scope="module", autouse=True)
def shared_workers():
    yield
    SharedWorkers.end_all()


def started(service, delivered, workers=None, nodes=NODES) -> Runner:
    if workers is None:
        workers = SharedWorkers.of_size(1)
    runner = Runner(service, delivered, workers=workers, nodes=nodes)
    runner.start()
    return runner


async def answered(service, store) -> Delivered:
    """Start a runner, wait for its first delivered turn, stop it: what it delivered."""
    delivered = Delivered(store)
    runner = started(service, delivered)
    try:
        await delivered.wait(1)
    finally:
        await runner.stop()
    return delivered


@pytest_asyncio.fixture
async def played():
    """(service, delivered, runner) over an in-memory store, the runner stopped afterwards."""
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    delivered = Delivered(store)
    runner = started(service, delivered)
    yield service, delivered, runner
    await runner.stop()


async def first_move(service, channel=CHANNEL, user=ALICE) -> str:
    return (await service.move_suggestions(channel, user, "", None))[0]


@pytest.mark.asyncio
async def test_a_challenge_to_the_computer_starts_at_once_and_its_answer_is_saved_before_it_is_delivered(played):
    service, delivered, _ = played
    reply = await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", guild=GUILD, level=1)
    assert f"alice plays {KIBITZ_1}" in reply.text and f"Black: {KIBITZ_1}" in reply.text
    record = await service.game_record(reply.game_id)
    assert record.status == GameStatus.ACTIVE and record.players[1] == ("computer:1", KIBITZ_1)
    assert record.due_at is not None   # the member's clock runs, as in any game
    await service.move(CHANNEL, ALICE, "e4")
    await delivered.wait(1)
    event = delivered.events[0]
    assert event.kind == "move" and f"{KIBITZ_1} plays" in event.reply.text
    assert event.reply.pings == (ALICE.id,) and "alice to move" in event.reply.text
    assert delivered.stored[0] == event.record.moves and len(event.record.moves) == 2   # saved, then shown
    assert event.record.due_at is not None and f"1… {KIBITZ_1} plays **" in event.reply.text


@pytest.mark.asyncio
async def test_the_computer_moves_first_as_white_and_has_no_deadline_of_its_own():
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    reply = await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", colour="black", level=1)
    record = await store.get(reply.game_id)
    assert record.players[0][0] == "computer:1" and record.due_at is None   # no runner yet: it waits, no clock
    with pytest.raises(UserError, match="It is not your turn"):
        await service.move(CHANNEL, ALICE, "e5")
    with pytest.raises(UserError, match="still thinking"):
        await service.takeback(CHANNEL, ALICE)
    delivered = await answered(service, store)
    assert len(delivered.events[0].record.moves) == 1 and delivered.events[0].record.due_at is not None


@pytest.mark.asyncio
async def test_the_computer_is_never_pinged_and_its_move_numbers_the_members_next_menus(played):
    service, delivered, _ = played
    start = await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", guild=GUILD, colour="black", level=1)
    assert start.pings == ()   # the computer is to move: no mention of a seat that is no member
    await delivered.wait(1)
    after = delivered.events[0].reply
    assert after.pings == (ALICE.id,) and after.builder is not None
    assert after.ply == 1 > start.ply   # one up per turn, as after a member's move: an older menu never matches


@pytest.mark.asyncio
async def test_a_balanced_swap_game_against_the_computer(played):
    service, delivered, _ = played
    await service.challenge(CHANNEL, ALICE, COMPUTER, "balanced-swap", level=1)
    await service.move(CHANNEL, ALICE, await first_move(service))
    await delivered.wait(1)
    record = delivered.events[0].record
    game = rules.new_game("balanced-swap", seed=record.seed, fen=record.start_fen)
    game.play(record.moves[0])
    assert record.moves[1] in game.legal_moves()   # a whole legal turn: move and swap


@pytest.mark.asyncio
async def test_after_a_restart_the_computer_moves_in_the_games_where_it_was_to_move(tmp_path):
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    service = GameService(store, renderer=fake_png)   # no runner: the bot stopped before it could move
    await service.challenge(CHANNEL, ALICE, COMPUTER, "zoo", colour="black", level=1)
    await store.close()
    store = await SqliteStore.open(path)
    try:
        delivered = await answered(GameService(store, renderer=fake_png), store)
        assert len(delivered.stored[0]) == 1 and delivered.events[0].kind == "move"
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_bystander_cannot_move_in_a_game_against_the_computer(played):
    service, delivered, _ = played
    await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", level=1)
    with pytest.raises(UserError, match="You are not playing in this game"):
        await service.move(CHANNEL, BOB, "e4")
    assert (await service.move_suggestions(CHANNEL, BOB, "")) == []
    with pytest.raises(UserError, match="You are not playing in this game"):
        await service.draw(CHANNEL, BOB)


@pytest.mark.asyncio
async def test_ten_games_against_the_computer_at_once_each_get_a_reply(played):
    service, delivered, _ = played
    members = [Player(str(100 + n), f"m{n}") for n in range(10)]
    for n, member in enumerate(members):
        await service.challenge(f"chan-{n}", member, COMPUTER, "standard", level=1)
    await asyncio.gather(*(service.move(f"chan-{n}", m, "d4") for n, m in enumerate(members)))
    await delivered.wait(10)
    assert sorted(e.record.channel_id for e in delivered.events) == sorted(f"chan-{n}" for n in range(10))
    assert all(len(moves) == 2 for moves in delivered.stored)


@pytest.mark.asyncio
async def test_a_member_may_have_only_a_few_computer_games_at_once_and_a_server_may_turn_it_off(store):
    service = GameService(store, renderer=fake_png)
    for n in range(3):
        await service.challenge(f"chan-{n}", ALICE, COMPUTER, "zoo", guild=GUILD)
    with pytest.raises(UserError, match=r"already have 3 games against the computer in play here \(at most 3"):
        await service.challenge("chan-9", ALICE, COMPUTER, "zoo", guild=GUILD)
    assert await store.open_game("chan-9") is None
    with pytest.raises(UserError, match="level is 1 to 7"):
        await service.challenge("chan-9", BOB, COMPUTER, "zoo", guild=GUILD, level=8)
    reply = await service.change_settings(GUILD, computer=False)
    assert "Computer opponent: off." in reply.text
    with pytest.raises(UserError, match="computer opponent is turned off in this server"):
        await service.challenge("chan-9", BOB, COMPUTER, "zoo", guild=GUILD)
    assert await store.open_game("chan-9") is None
    await service.challenge("chan-9", BOB, COMPUTER, "zoo", guild="elsewhere")   # another server's own choice


@pytest.mark.asyncio
async def test_challenges_made_at_once_do_not_pass_the_cap_on_computer_games(tmp_path):
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    try:
        service = GameService(store, renderer=fake_png)
        results = await asyncio.gather(*(service.challenge(f"chan-{n}", ALICE, COMPUTER, "zoo", guild=GUILD,
                                                           colour="white") for n in range(6)), return_exceptions=True)
        refused = [r for r in results if isinstance(r, UserError)]
        assert len(refused) == 3 and all("at most 3" in str(r) for r in refused), results
        assert len([r for r in await store.open_in_guild(GUILD) if r.playing]) == 3
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_takeback_against_the_computer_takes_back_the_move_and_its_reply(played):
    service, delivered, _ = played
    await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", level=1)
    with pytest.raises(UserError, match="no move to take back"):
        await service.takeback(CHANNEL, ALICE)
    await service.move(CHANNEL, ALICE, "e4")
    await delivered.wait(1)
    game = rules.new_game("standard")
    game.play("e2e4")
    answered = game.label((await service.store.latest(CHANNEL)).moves[1])
    reply = await service.takeback(CHANNEL, ALICE)
    assert reply.text.startswith(f"{KIBITZ_1} grants the takeback: **e4** and **{answered}** taken back.\n")
    assert "alice to move" in reply.text and "is to move" not in reply.text
    record = await service.game_record(reply.game_id)
    assert record.moves == [] and record.takeback_offer is None


@pytest.mark.asyncio
async def test_the_computers_move_is_played_off_the_event_loop(monkeypatch):
    """Playing a turn can take milliseconds (Balanced Swap): the computer's, like a member's, is
    played and its board composed in a worker thread, never on the event loop."""
    service = GameService(InMemoryStore(), renderer=fake_png)
    reply = await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", level=1)
    await service.move(CHANNEL, ALICE, "e4")
    threads = []
    play = rules.Game.play

    def played(game, move):
        if move == "e7e5":
            threads.append(threading.current_thread())
        return play(game, move)

    monkeypatch.setattr(rules.Game, "play", played)
    after = await service.play_computer(reply.game_id, 1, "e7e5")
    assert after is not None and "plays" in after.text
    assert threads and threading.main_thread() not in threads
    assert (await service.game_record(reply.game_id)).moves[-1] == "e7e5"


async def a_computer_game(store, fen: str, computer_white: bool, level: int = 1) -> GameRecord:
    """A game of standard chess from `fen`, the computer (`level`) on one side, stored in CHANNEL."""
    seats = [(f"computer:{level}", KIBITZ_1 if level == 1 else f"Kibitz (level {level}, {engine.LEVELS[level - 1].name})"),
             (ALICE.id, ALICE.name)]
    record = GameRecord("standard", CHANNEL, seats if computer_white else seats[::-1], fen, GameStatus.ACTIVE,
                        start_fen=fen)
    await store.create(record)
    return record


@pytest.mark.asyncio
@pytest.mark.parametrize("fen, accepts", [
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", True),     # alice (White) a queen up: the computer is worse
    ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", False),    # the computer (Black) a queen up
])
async def test_the_computer_accepts_a_draw_only_when_it_is_not_better(fen, accepts):
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    delivered = Delivered(store)
    runner = started(service, delivered)
    try:
        record = await a_computer_game(store, fen, computer_white=False)
        reply = await service.draw(CHANNEL, ALICE)
    finally:
        await runner.stop()
    stored = await store.get(record.id)
    if accepts:
        assert "accepts alice's draw offer" in reply.text and stored.result == "1/2-1/2"
        assert stored.ending == Ending.AGREEMENT
    else:
        assert reply.text == f"{KIBITZ_1} declines the draw: it thinks it stands better."
        assert stored.status == GameStatus.ACTIVE and stored.draw_offer is None


SHUFFLE = ["d1c2", "e8f7", "c2d1", "f7e8"] * 2   # White's queen and Black's king go and come back, twice


@pytest.mark.asyncio
@pytest.mark.parametrize("computer_white, moves, claims", [
    (False, SHUFFLE + ["d1c2"], True),   # Black (the computer, a queen down) to move in a position seen three times
    (True, SHUFFLE, False),              # White (the computer, a queen up) to move in the start seen three times
])
async def test_the_computer_claims_a_draw_the_rules_allow_only_when_it_is_not_better(computer_white, moves, claims):
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    start = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
    game = rules.new_game("standard", fen=start)
    for move in moves:
        game.play(move)
    assert game.claimable_outcome() is not None and game.outcome is None
    record = await a_computer_game(store, start, computer_white)
    record.moves, record.fen = list(game.history), game.fen()
    await store.save(record)
    delivered = Delivered(store)
    runner = started(service, delivered)   # finds the computer to move at start-up; a search of NODES positions
    try:
        await delivered.wait(1)
    finally:
        await runner.stop()
    stored = await store.get(record.id)
    if claims:
        assert delivered.events[0].reply.text.startswith(f"{KIBITZ_1} claims a draw.")
        assert stored.result == "1/2-1/2" and stored.ending == Ending.REPETITION and stored.moves == record.moves
        assert delivered.events[0].reply.pings == (ALICE.id,)
    else:
        assert stored.status == GameStatus.ACTIVE and len(stored.moves) == len(moves) + 1


async def draw_offered(fen: str, workers: Workers, stockfish: str | None = None, nodes: int = NODES, level: int = 1):
    """Alice (White) offers the computer (Black, at `level`) a draw in standard chess from `fen`: the reply, and the game stored after it."""
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    runner = Runner(service, Delivered(store), workers=workers, nodes=nodes, stockfish=stockfish)
    runner.start()
    try:
        record = await a_computer_game(store, fen, computer_white=False, level=level)
        reply = await service.draw(CHANNEL, ALICE)
    finally:
        await runner.stop()
    return reply, await store.get(record.id)


@needs_stockfish
@pytest.mark.asyncio
async def test_with_stockfish_the_computer_declines_a_draw_where_it_stands_better():
    reply, stored = await draw_offered("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", Workers(1), INSTALLED, nodes=20_000,
                                       level=FIRST_LEVEL)   # Stockfish plays from this level up
    assert reply.text == f"Kibitz (level {FIRST_LEVEL}, club) declines the draw: it thinks it stands better."
    assert stored.status == GameStatus.ACTIVE


@pytest.mark.asyncio
async def test_when_no_search_can_weigh_the_position_the_computer_declines_a_draw():
    # alice a queen up: a search would accept; with every search failing, its score is unknown
    reply, stored = await draw_offered("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", BrokenWorkers(1))
    assert reply.text == f"{KIBITZ_1} declines the draw: it could not weigh the position just now."
    assert stored.status == GameStatus.ACTIVE


@pytest.mark.asyncio
async def test_the_workers_start_with_the_runner_before_any_search():
    """The first reply does not wait for the worker processes to start (a pool of its own: the
    module's shared pool has been started by earlier tests' searches)."""
    store = InMemoryStore()
    runner = started(GameService(store, renderer=fake_png), Delivered(store), workers=Workers(1))
    try:
        async with asyncio.timeout(120):   # a bounded wait, generous: processes start
            while len(runner.workers.pids()) < runner.workers.size:
                await asyncio.sleep(0.02)
    finally:
        await runner.stop()


class FailingWorkers(Workers):
    """Workers whose full searches fail: only the shallow fallback answers. Keeps every job asked."""

    def __init__(self) -> None:
        super().__init__(1)
        self.jobs: list[Job] = []

    async def choose(self, job):
        self.jobs.append(job)
        if job.nodes != runner_module.SHALLOW_NODES:
            raise RuntimeError("search failed")
        return await super().choose(job)


@pytest.mark.asyncio
async def test_a_failing_search_is_tried_again_then_a_shallow_search_moves():
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    delivered = Delivered(store)
    workers = FailingWorkers()
    runner = started(service, delivered, workers=workers, nodes=NODES + 1)
    try:
        await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", level=1)
        await service.move(CHANNEL, ALICE, "e4")
        await delivered.wait(1)
    finally:
        await runner.stop()
    assert [job.nodes for job in workers.jobs] == [NODES + 1, NODES + 1, runner_module.SHALLOW_NODES]
    assert len(delivered.stored[0]) == 2


class LosingStore(InMemoryStore):
    """An in-memory store that loses its connection on demand: the next `fails[call]` calls of
    `get`, `save` or `open_games` raise OSError; `fails["readback"]`: the `get` after a failed save."""

    def __init__(self, **fails: int) -> None:
        super().__init__()
        self.fails = dict(fails)

    def _lost(self, call: str) -> None:
        if self.fails.get(call):
            self.fails[call] -= 1
            if call == "save" and self.fails.get("readback"):
                self.fails["get"] = self.fails.get("get", 0) + 1
                self.fails["readback"] -= 1
            raise OSError("database connection lost")

    async def get(self, game_id):
        self._lost("get")
        return await super().get(game_id)

    async def save(self, record):
        self._lost("save")
        return await super().save(record)

    async def open_games(self):
        self._lost("open_games")
        return await super().open_games()


@pytest.mark.asyncio
@pytest.mark.parametrize("fails", [
    {"save": 1},                  # saving its move failed, and the read back says it did not land
    {"save": 1, "readback": 1},   # ...and the read back failed too: unsure, and it had not landed
    {"get": 1},                   # reading the game at the start of its turn failed
    {"open_games": 2},            # reading the games to move at start-up failed, twice
], ids=["save", "unsure-save", "read", "start-up-read"])
async def test_a_turn_the_store_failed_is_tried_again_until_the_computer_has_moved(fails, monkeypatch):
    monkeypatch.setattr(runner_module, "RETRY", 0.05)   # tried again after 0.05 s, 0.1 s... (not 1 s, 2 s...)
    store = LosingStore()
    service = GameService(store, renderer=fake_png)   # no runner yet: the computer (White) is to move
    reply = await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", colour="black", level=1)
    store.fails.update(fails)
    delivered = await answered(service, store)
    assert not any(store.fails.values())   # each failure happened, and the turn was tried again
    record = await store.get(reply.game_id)
    assert len(record.moves) == 1 and delivered.stored[0] == record.moves and record.due_at is not None
    await service.move(CHANNEL, ALICE, "e5")   # the member's turn now, as in any game


class BrokenWorkers(Workers):
    """Workers whose every search fails, the shallow one too."""

    async def choose(self, job):
        raise RuntimeError("search failed")


@pytest.mark.asyncio
async def test_when_every_search_fails_the_first_legal_move_is_played_without_searching_in_the_bot(monkeypatch):
    def searched(*args, **kwargs):
        raise AssertionError("a search ran in the bot's own process")

    monkeypatch.setattr("engine.choose", searched)
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    delivered = Delivered(store)
    runner = started(service, delivered, workers=BrokenWorkers(1))
    try:
        await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", level=1)
        await service.move(CHANNEL, ALICE, "e4")
        await delivered.wait(1, timeout=30)
    finally:
        await runner.stop()
    game = rules.new_game("standard")
    first = game.play("e4")
    assert delivered.stored[0] == [first, min(game.legal_moves())]


@pytest.mark.asyncio
async def test_a_killed_worker_does_not_wedge_the_game(played):
    service, delivered, runner = played
    await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", level=1)
    await service.move(CHANNEL, ALICE, "e4")
    await delivered.wait(1)
    pids = runner.workers.pids()
    assert pids
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    await service.move(CHANNEL, ALICE, "d4")
    await delivered.wait(2)
    assert len(delivered.stored[1]) == 4
    assert not set(runner.workers.pids()) & set(pids)   # a new pool


@pytest.mark.asyncio
async def test_profile_shows_the_record_against_each_level_and_the_computer_is_on_no_leaderboard(store):
    service = GameService(store, renderer=fake_png)
    for level, channel in ((1, "c1"), (2, "c2")):
        await service.challenge(channel, ALICE, COMPUTER, "zoo", guild=GUILD, level=level)
        await service.resign(channel, ALICE)
    profile = (await service.profile(GUILD, ALICE)).text
    assert "Against the computer (not rated):" in profile
    assert "Zoo Chess, level 1: 1 game: 0 wins, 0 draws, 1 loss" in profile
    assert "Zoo Chess, level 2: 1 game: 0 wins, 0 draws, 1 loss" in profile
    assert "No rated games here yet." in profile
    board = (await service.leaderboard(GUILD, ALICE, "zoo")).text
    assert board.startswith("No rated **Zoo Chess** games here yet") and "Kibitz" not in board
    assert await store.unrated_finishes(GUILD) == []   # each finish is kept once, not left to rate again


@pytest.mark.asyncio
async def test_profile_adds_a_record_against_level_8_written_after_migration_009_to_the_top_level_s(store):
    service = GameService(store, renderer=fake_png)
    for level, channel in ((1, "c1"), (engine.MAX_LEVEL, "c2")):
        await service.challenge(channel, ALICE, COMPUTER, "zoo", guild=GUILD, level=level)
        await service.resign(channel, ALICE)
    # a draw kept by a process still on eight levels (shards restarted one by one), after 009 ran
    await store.rate(99, GUILD, computer.record_key("zoo", 8), ("computer:8", "Kibitz (level 8, strongest)"),
                     (ALICE.id, ALICE.name), 0.5, "2026-01-01T10:00:00+00:00")
    profile = (await service.profile(GUILD, ALICE)).text
    assert profile.endswith("Against the computer (not rated):\nZoo Chess, level 1: 1 game: 0 wins, 0 draws, 1 loss\n"
                            f"Zoo Chess, level {engine.MAX_LEVEL}: 2 games: 0 wins, 1 draw, 1 loss")


@pytest.mark.asyncio
async def test_a_rematch_against_the_computer_begins_at_once_at_the_same_level(store):
    service = GameService(store, renderer=fake_png)
    first = await service.challenge(CHANNEL, ALICE, COMPUTER, "zoo", level=2)
    await service.resign(CHANNEL, ALICE)
    reply = await service.rematch(CHANNEL, ALICE, first.game_id, play_in="thread-2")
    record = await store.get(reply.game_id)
    assert record.channel_id == "thread-2" and record.status == GameStatus.ACTIVE
    assert record.players[0] == ("computer:2", "Kibitz (level 2, novice)")   # colours swapped
    assert "Kibitz (level 2, novice)" in (await service.games(None)).text


@pytest.mark.asyncio
async def test_a_game_kept_from_when_there_were_eight_levels_plays_on_and_rematches_at_the_top_level(store):
    fen = rules.new_game("zoo").fen()
    record = GameRecord("zoo", CHANNEL, [(ALICE.id, ALICE.name), ("computer:8", "Kibitz (level 8, strongest)")], fen,
                        GameStatus.ACTIVE, start_fen=fen)
    await store.create(record)
    assert computer.level_of("computer:8") == engine.MAX_LEVEL < 8   # the nearest level there is
    service = GameService(store, renderer=fake_png)
    await service.move(CHANNEL, ALICE, await first_move(service))
    delivered = await answered(service, store)   # the runner answers it (nodes capped, as every test here)
    assert [event.kind for event in delivered.events] == ["move"]
    assert len((await store.get(record.id)).moves) == 2
    await service.resign(CHANNEL, ALICE)
    reply = await service.rematch(CHANNEL, ALICE, record.id, play_in="thread-2")
    top = f"Kibitz (level {engine.MAX_LEVEL}, {engine.LEVELS[-1].name})"
    assert (await store.get(reply.game_id)).players[0] == (f"computer:{engine.MAX_LEVEL}", top)


@pytest.mark.asyncio
async def test_a_game_against_the_computer_has_one_rematch_pressed_at_once_or_after_a_restart(tmp_path):
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    service = GameService(store, renderer=fake_png)
    first = await service.challenge(CHANNEL, ALICE, COMPUTER, "zoo", guild=GUILD, level=2)
    await service.resign(CHANNEL, ALICE)
    pressed = await asyncio.gather(*(service.rematch(CHANNEL, ALICE, first.game_id, guild=GUILD, play_in=f"thread-{n}")
                                     for n in (2, 3)), return_exceptions=True)
    [begun] = [r for r in pressed if not isinstance(r, Exception)]
    [refused] = [r for r in pressed if isinstance(r, Exception)]
    where = (await store.get(begun.game_id)).channel_id
    assert str(refused) == f"Your rematch of game #{first.game_id} has begun already: game #{begun.game_id}."
    await store.close()
    store = await SqliteStore.open(tmp_path / "k.sqlite3")   # a restart: read from the store, not from memory
    try:
        service = GameService(store, renderer=fake_png)
        await service.resign(where, ALICE)   # the rematch over, the first game's Rematch still points to it
        for press in (service.check_rematch(ALICE, first.game_id, GUILD, lambda r: f"<#{r.channel_id}>"),
                      service.rematch(CHANNEL, ALICE, first.game_id, guild=GUILD, play_in="thread-4")):
            with pytest.raises(UserError, match=f"^Your rematch of game #{first.game_id} has begun already: "
                                                f"game #{begun.game_id}(, in <#{where}>)?.$"):
                await press
        assert [r.id for r in await store.open_in_guild(GUILD)] == []
        assert (await store.rematch_of(first.game_id)).id == begun.game_id
    finally:
        await store.close()


@pytest.mark.asyncio
async def test_a_rematch_against_the_computer_tells_the_news_of_a_game_set_aside_in_its_channel(store):
    """As every channel command does: a game of the channel that no longer replays is set aside,
    and the rematch's answer says so, once."""
    service = GameService(store, renderer=fake_png)
    first = await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", guild=GUILD, level=2)
    await service.resign(CHANNEL, ALICE)
    start = rules.new_game("standard").fen()
    await store.create(GameRecord("standard", CHANNEL, [(BOB.id, BOB.name), ("3", "carol")], start, GameStatus.ACTIVE,
                                  GUILD, start_fen=start, moves=["e2e5"]))   # a move the rules no longer allow
    reply = await service.rematch(CHANNEL, ALICE, first.game_id, guild=GUILD, play_in="thread-2")
    assert reply.text.startswith("Game #2 (Standard chess) could not be restored")
    assert "plays Kibitz (level 2, novice)" in reply.text
    with pytest.raises(UserError) as next_command:   # told once: not again with the next command here
        await service.move(CHANNEL, ALICE, "e2e4")
    assert "could not be restored" not in str(next_command.value)


@pytest.mark.asyncio
async def test_a_bystander_asking_for_the_rematch_of_a_game_against_the_computer_is_told_only_that(store):
    service = GameService(store, renderer=fake_png)
    first = await service.challenge(CHANNEL, ALICE, COMPUTER, "zoo", guild=GUILD)
    await service.resign(CHANNEL, ALICE)
    for n in range(3):   # bob is at the cap
        await service.challenge(f"chan-{n}", BOB, COMPUTER, "zoo", guild=GUILD)
    for turned_off in (False, True):   # at the cap, then with the computer turned off as well
        if turned_off:
            await service.change_settings(GUILD, computer=False)
        for press in (service.check_rematch(BOB, first.game_id, GUILD),
                      service.rematch(CHANNEL, BOB, first.game_id, guild=GUILD, play_in="thread-2")):
            with pytest.raises(UserError, match="^You are not playing in this game.$"):
                await press
    assert await store.rematch_of(first.game_id) is None


@pytest.mark.asyncio
async def test_the_console_plays_the_computer_with_discords_argument_order(tmp_path):
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    read, write = os.pipe()
    out = _Lines()
    console = Console(service, tmp_path, stdout=out, engine_workers=1, engine_nodes=NODES)
    with os.fdopen(read) as stdin, os.fdopen(write, "w") as typed:
        task = asyncio.create_task(console.run(stdin))
        typed.write("/challenge zoo @kibitz colour:black level:1\n")
        typed.flush()
        async with asyncio.timeout(120):
            while f"{KIBITZ_1} plays" not in out.text:
                await asyncio.sleep(0.02)
        typed.write("/quit\n")
        typed.flush()
        await asyncio.wait_for(task, 60)
    assert f"You play {KIBITZ_1} at Zoo Chess, as Black." in out.text
    assert "In #console:" in out.text


class _Lines:
    """A stdout that keeps what was written."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


class HopelessWorkers(Workers):
    """Workers that always find the computer's position lost: the first legal move, a score far below zero."""

    async def choose(self, job):
        game = rules.new_game(job.variant, seed=job.seed, fen=job.start_fen)
        for move in job.moves:
            game.play(move)
        return Answer(game.legal_moves()[0], -5000, 1, 1)


@pytest.mark.asyncio
async def test_at_the_higher_levels_the_computer_resigns_a_position_hopeless_for_some_moves_in_a_row(store):
    service = GameService(store, renderer=fake_png)
    delivered = Delivered(store)
    runner = started(service, delivered, workers=HopelessWorkers(1))
    try:
        await service.challenge(CHANNEL, ALICE, COMPUTER, "standard", level=runner_module.RESIGN_LEVEL)
        for n, move in enumerate(("Nf3", "Ng1", "Nc3")[:runner_module.RESIGN_MOVES], start=1):
            await service.move(CHANNEL, ALICE, move)
            await delivered.wait(n)
    finally:
        await runner.stop()
    kinds = [e.kind for e in delivered.events]
    assert kinds == ["move"] * (runner_module.RESIGN_MOVES - 1) + ["resign"]
    last = delivered.events[-1]
    assert last.record.result == "1-0" and "resigns" in last.reply.text and last.reply.finished
    assert last.record.ending == Ending.RESIGNATION


@pytest.mark.asyncio
async def test_a_hopeless_computer_that_may_claim_a_draw_claims_it_instead_of_resigning():
    store = InMemoryStore()
    service = GameService(store, renderer=fake_png)
    start = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
    game = rules.new_game("standard", fen=start)
    for move in SHUFFLE + ["d1c2"]:   # Black (the computer, a queen down) to move in a position seen three times
        game.play(move)
    record = await a_computer_game(store, start, computer_white=False)
    record.moves, record.fen = list(game.history), game.fen()
    await store.save(record)
    reply = await service.computer_resigns(record.id, len(record.moves))
    stored = await store.get(record.id)
    assert reply is not None and reply.text.startswith(f"{KIBITZ_1} claims a draw.") and reply.pings == (ALICE.id,)
    assert stored.result == "1/2-1/2" and stored.ending == Ending.REPETITION


BOT_KILLED = """
import asyncio, sys, time
from pathlib import Path
from bot.opponent.workers import Job, Workers
def children(pid):
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found += (task / "children").read_text().split()
        except OSError:   # a thread that ended meanwhile
            pass
    return found
async def main():
    workers = Workers(1)
    deadline = time.monotonic() + 300
    while True:   # loaded, Stockfish may miss its 10 s to start (the built-in engine plays): try again
        await workers.choose(Job("standard", None, None, (), 4, None, 200, sys.argv[1] or None))
        worker = workers.pids()[0]
        if children(worker) or not sys.argv[1] or time.monotonic() > deadline:
            break
    print(worker, *children(worker), flush=True)
    await asyncio.sleep(3600)
asyncio.run(main())
"""


def gone(pid: int) -> bool:
    """Whether process `pid` has ended (a zombie left for init to reap counts as ended)."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the processes from Linux's /proc")
def test_the_workers_and_their_stockfish_end_when_the_bot_is_killed_outright():
    """A bot killed with SIGKILL runs no clean-up: its workers (and a worker's Stockfish, where one
    is installed) must end by themselves."""
    root = str(Path(__file__).resolve().parents[2])
    bot = subprocess.Popen([sys.executable, "-c", BOT_KILLED, INSTALLED or ""], stdout=subprocess.PIPE, text=True,
                           cwd=root, env={**os.environ, "PYTHONPATH": root})
    try:
        pids = [int(pid) for pid in bot.stdout.readline().split()]
    finally:
        bot.kill()
        bot.wait(60)
    assert pids and len(pids) == (2 if INSTALLED else 1)   # the worker, and its Stockfish
    deadline = time.monotonic() + 60   # a bounded wait, generous: nothing here is timed
    while not all(map(gone, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [pid for pid in pids if not gone(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    assert alive == []


@pytest.mark.parametrize("shard_ids, shard_count, free", [
    (None, None, {0, 2, 3}),   # one process: all but its own CPU
    ((2, 3), 4, {2, 3}),       # two shard processes: neither's CPU (0 and 1)
    ((0,), 4, set()),          # four: every CPU is a shard's, so the workers share at a lower priority
])
def test_workers_leave_out_the_cpus_of_every_shard_process_on_the_host(monkeypatch, shard_ids, shard_count, free):
    affinity = [{0, 1, 2, 3}]
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(affinity[0]))
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cpus: affinity.__setitem__(0, set(cpus)))
    monkeypatch.setattr(process, "_ALLOWED", set())
    monkeypatch.setattr(process, "_SHARDS", set(), raising=False)
    monkeypatch.setattr(process, "current_cpu", lambda: 1)
    process.keep_to_one_cpu("auto", shard_ids, shard_count)
    assert workers_module.worker_cpus() == free


def test_workers_run_at_a_lower_priority_where_they_have_no_cpu_of_their_own(monkeypatch):
    monkeypatch.setattr(workers_module, "worker_cpus", lambda: frozenset())
    workers = Workers(1)
    try:
        assert workers._executor().submit(os.nice, 0).result(timeout=120) == os.nice(0) + workers_module.NICE
    finally:
        workers.close()
