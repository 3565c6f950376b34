"""The task that plays the computer's turns: started by a front end beside its scheduler.

    runner = Runner(service, deliver, owns=cfg.owns_guild, thinking=show_typing)
    runner.start()      # registers itself as service.thinker; finds the games where the computer is to move
    ...
    await runner.stop() # ends the task and the worker processes; searches under way are abandoned

Games are served in turn from one queue, by as many tasks as there are worker processes. The
service wakes the runner (`wake(game_id)`) whenever a save leaves the computer to move: a
member's move, a game begun with the computer as White. For each game the runner calls
`thinking(record)` (Discord shows its typing indicator), asks a worker for a move, saves it with
`service.play_computer(game_id, ply, move)` (a compare-and-set on the ply, as a player's move: a
takeback or a resignation meanwhile wins, and nothing is saved), and only then hands
`DueEvent("move", record, reply)` to `deliver`; `reply` is the board after its move, pinging the
member unless they turned pings off. Where the rules let it claim a draw and its search's score
says it is not better, the service claims the draw instead (the same board and words as a member's
claim). At levels from RESIGN_LEVEL it resigns a hopeless
position instead (`DueEvent("resign", record, reply)`, the final board).

Time. Each search gets its level's time (engine/levels.py) scaled down by the queue: with `q`
games waiting for `w` workers it thinks `w / (w + q)` of it (never under MIN_SECONDS), and says it
was busy when it thought less than half. So a member never waits longer than the level's time
plus the queue's share of it. `nodes` (KIBITZ_ENGINE_NODES; tests) caps the positions searched
instead of the time: the same move on any machine.

Faults. A search that fails, or a worker that dies, is tried once more (a new pool), then the
best move of a shallow search (SHALLOW_NODES) is played; should that fail in a worker too, the
first of the game's legal moves in canonical order (no search: a search never runs in the bot's
own process, nor on its CPU). A game is never left waiting. After a
worker died the store is read again for every game where the computer is to move, as at
start-up; with PostgreSQL and shards only the games of the guilds `owns` accepts. A turn that
failed otherwise (the store could not be read or written: a lost connection) or whose move was
not saved while the computer is still to move is queued again after 1 s, then 2, 4... up to a
minute (the scheduler's RETRY and MAX_RETRY); a failed read of the games to move is retried so.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool

import engine

from ..scheduler import MAX_RETRY, RETRY, Ready, Timer, everywhere
from ..service import DueEvent, GameService, UserError, seats as computer
from ..store import GameRecord
from .workers import Answer, Job, Workers, first_legal

log = logging.getLogger(__name__)

MIN_SECONDS = 0.05      # the least time a search gets, however long the queue
BUSY_SHARE = 0.5        # below this share of its level's time, the computer says it was busy
SHALLOW_NODES = 200     # the budget of the search whose best move is played after two failures
EVALUATE_SECONDS = 1.0  # at most this long to weigh a draw offer
RESIGN_LEVEL = 6        # from this level the computer resigns a hopeless position...
RESIGN_SCORE = -1000    # ...when its score (centipawns, its own view) is at or below this...
RESIGN_MOVES = 3        # ...after this many searches in a row


class Runner(Timer):
    """The computer's turns in the guilds `owns` accepts, each delivered after it is saved."""
    name = "kibitz-computer"

    def __init__(self, service: GameService, deliver: Callable[[DueEvent], Awaitable[None]], *,
                 owns: Callable[[str | None], bool] = everywhere,
                 thinking: Callable[[GameRecord], Awaitable[None]] | None = None,
                 workers: Workers | None = None, nodes: int | None = None, stockfish: str | None = None,
                 ready: Ready | None = None) -> None:
        super().__init__(service, ready=ready)
        self._deliver = deliver
        self._thinking = thinking
        self.owns = owns
        self.workers = workers or Workers()
        self.nodes = nodes
        self.stockfish = stockfish
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._queued: set[int] = set()
        self._hopeless: dict[int, int] = {}   # game id -> searches in a row that found its position hopeless
        self._fault = False   # a worker died since the store was last read for the computer's turns
        self._retries: dict[int, tuple[float, asyncio.TimerHandle]] = {}   # game id -> (its next delay, its wake)

    def start(self) -> None:
        self.service.thinker = self
        super().start()

    async def stop(self) -> None:
        if self.service.thinker is self:
            self.service.thinker = None
        await super().stop()
        for _, handle in self._retries.values():
            handle.cancel()
        self._retries.clear()
        await asyncio.to_thread(self.workers.close)

    def wake(self, game_id: int) -> None:
        """Queue game `game_id` (once, however often it is woken before its turn is taken)."""
        if game_id not in self._queued:
            self._queued.add(game_id)
            self._queue.put_nowait(game_id)

    async def evaluate(self, record: GameRecord) -> int | None:
        """The engine's score of the game's position for the side to move (a draw offer's answer);
        None when no search could weigh it."""
        level = computer.level_of(record.players[computer.seat(record.players) or 0][0])
        seconds = None if self.nodes else min(engine.LEVELS[level - 1].seconds, EVALUATE_SECONDS)
        return (await self._search(self._job(record, level, seconds))).score

    async def _run(self) -> None:
        self.workers.start()   # from the event loop's thread, which the workers die with (workers.py)
        await self.wait_ready()
        await self._find_turns()
        await asyncio.gather(*(self._serve() for _ in range(self.workers.size)))

    async def _find_turns(self) -> None:
        """Queue every stored game where the computer is to move (start-up, and after a worker fault);
        tried again after a growing delay while the store cannot say."""
        retry = RETRY
        while True:
            try:
                records = await self.service.computer_turns(self.owns)
                break
            except Exception:
                log.exception("could not read the games where the computer is to move; trying again in %g s", retry)
                await asyncio.sleep(retry)
                retry = min(retry * 2, MAX_RETRY)
        for record in records:
            if record.id is not None:
                self.wake(record.id)

    def _retry(self, game_id: int, done: bool) -> None:
        """After a turn: forget the game's delay when `done`, else wake it after that delay (doubled
        each time, up to MAX_RETRY): its next turn reads the game again."""
        delay, handle = self._retries.pop(game_id, (RETRY, None))
        if handle is not None:
            handle.cancel()
        if not done:
            later = asyncio.get_running_loop().call_later(delay, self.wake, game_id)
            self._retries[game_id] = (min(delay * 2, MAX_RETRY), later)

    async def _serve(self) -> None:
        while True:
            game_id = await self._queue.get()
            self._queued.discard(game_id)
            try:
                done = await self._turn(game_id)
            except Exception:
                log.exception("the computer could not play its turn in game %s; trying again shortly", game_id)
                done = False
            self._retry(game_id, done)
            if self._fault:   # a worker died: its other games may have lost their turn too
                self._fault = False
                await self._find_turns()

    async def _turn(self, game_id: int) -> bool:
        """Play the computer's turn in game `game_id`: False when it was not saved and the computer
        is still to move (try again later); raises when the store could not be read."""
        record = await self.service.game_record(game_id)
        if record is None or not record.playing or not computer.to_move(record.players, record.fen) \
                or not self.owns(record.guild_id):
            return True
        ply = len(record.moves)
        level = computer.level_of(record.players[computer.seat(record.players) or 0][0])
        if self._thinking is not None:
            try:
                await self._thinking(record)
            except Exception:
                log.exception("could not show that the computer is thinking in game %s", game_id)
        share = self.workers.size / (self.workers.size + self._queue.qsize())
        seconds = None if self.nodes else max(MIN_SECONDS, engine.LEVELS[level - 1].seconds * share)
        answer = await self._search(self._job(record, level, seconds))
        hopeless = level >= RESIGN_LEVEL and answer.score is not None and answer.score <= RESIGN_SCORE
        self._hopeless[game_id] = self._hopeless.get(game_id, 0) + 1 if hopeless else 0
        try:
            if self._hopeless[game_id] >= RESIGN_MOVES:
                kind, reply = "resign", await self.service.computer_resigns(game_id, ply)
            else:
                kind, reply = "move", await self.service.play_computer(game_id, ply, answer.move,
                                                                       busy=share < BUSY_SHARE, score=answer.score)
        except UserError as error:   # changed elsewhere meanwhile (STALE), or the store could not say
            log.warning("game %s: the computer's turn was not saved: %s", game_id, error)
            reply, kind = None, "move"
        if reply is None:   # the game changed meanwhile, or the save did not land: look again if the
            # computer is still to move (at once after a change, later when nothing changed)
            again = await self.service.game_record(game_id)
            if again is None or not again.playing or not computer.to_move(again.players, again.fen):
                return True
            if len(again.moves) != ply:
                self.wake(game_id)
                return True
            return False
        if reply.finished:
            self._hopeless.pop(game_id, None)
        saved = await self.service.game_record(game_id)
        try:
            await self._deliver(DueEvent(kind, saved or record, reply))
        except Exception:   # saved already: the member sees it on the next /board
            log.exception("could not show the computer's %s in game %s", kind, game_id)
        return True

    def _job(self, record: GameRecord, level: int, seconds: float | None) -> Job:
        return Job(record.variant, record.seed, record.start_fen, tuple(record.moves), level, seconds, self.nodes,
                   self.stockfish)

    async def _search(self, job: Job) -> Answer:
        """A worker's answer: tried twice, then a shallow search's best move in a worker, and as the
        last resort no search at all: the game's first legal move in canonical order (`first_legal`,
        in a thread off the event loop; a search never runs in the bot's own process)."""
        for attempt in (1, 2):
            try:
                return await self.workers.choose(job)
            except Exception as error:
                log.warning("search failed (attempt %d): %r", attempt, error)
                self._fault = self._fault or isinstance(error, BrokenProcessPool)
        shallow = Job(job.variant, job.seed, job.start_fen, job.moves, job.level, None, SHALLOW_NODES)
        try:
            return await self.workers.choose(shallow)
        except Exception:
            log.exception("the shallow search failed in a worker too; playing the first legal move")
            return await asyncio.to_thread(first_legal, shallow)
