"""The computer's worker processes: the search never runs on the bot's event loop nor on its CPU.

A pool of `size` processes (KIBITZ_ENGINE_WORKERS; default one fewer than the CPUs the bot may
use, at least 1). Each worker, as it starts, moves to the allowed CPUs the bot does not keep to
(bot/process.py, KIBITZ_CPU; with shard processes on one host, none of theirs either); where there is no other CPU it stays and runs at a lower priority
(os.nice), so the bot's answers come first. A worker rebuilds the game from what the store keeps
(variant, seed, start FEN, moves) and calls `engine.choose`; for standard chess from level 4 up
with a Stockfish path (KIBITZ_STOCKFISH, or found on the PATH) it asks Stockfish instead
(bot/stockfish.py: below level 4 even its weakest beats a beginner), and the built-in engine
when Stockfish fails.

Workers end with the bot: `close` ends them, and a bot that ends otherwise (SIGKILL included)
takes them with it: on Linux each worker asks to be killed when its parent dies (prctl's
PR_SET_PDEATHSIG; the pool is started from the event loop's thread, which lives as long as the
bot), elsewhere a thread in the worker watches its parent's pid. A worker's Stockfish quits when
its input closes, as the worker dies (after the search under way, if any). A worker that dies
breaks the pool (BrokenProcessPool): `choose` then starts a new pool for the next call.
"""
from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import engine
import rules

from .. import process

from ..stockfish import plays, stockfish_play

log = logging.getLogger(__name__)

NICE = 10   # how much lower the workers' priority is where they share the bot's only CPU
PR_SET_PDEATHSIG = 1   # prctl(2): the signal a process gets when its parent dies (Linux)
WATCH_SECONDS = 1.0    # where that is missing, how often a worker looks whether its parent still runs


@dataclass(frozen=True)
class Job:
    """One search: the game as the store keeps it, the level, and the budget (`nodes` None: no cap)."""
    variant: str
    seed: int | None
    start_fen: str | None
    moves: tuple[str, ...]
    level: int
    seconds: float | None
    nodes: int | None = None
    stockfish: str | None = None   # a Stockfish binary for standard chess, else None


@dataclass(frozen=True)
class Answer:
    """What a worker found: `move` one of the game's legal turns; `score` in centipawns for the side
    to move, None when unknown (no search was made, or Stockfish gave none)."""
    move: str
    score: int | None
    depth: int
    nodes: int


def rebuild(job: Job) -> rules.Game:
    """The job's game as the store keeps it: its set-up, then its moves replayed."""
    game = rules.new_game(job.variant, seed=job.seed, fen=job.start_fen)
    for move in job.moves:
        game.play(move)
    return game


def think(job: Job) -> Answer:
    """Run in a worker: rebuild the game and search it."""
    game = rebuild(job)
    if job.stockfish and job.variant == "standard" and plays(job.level):
        try:
            move, score = stockfish_play(job.stockfish, game.fen(), job.level, job.seconds, job.nodes)
            return Answer(move, score, 0, 0)
        except Exception:   # a missing or failing binary: the built-in engine plays this move
            log.exception("Stockfish failed in game of %d plies; the built-in engine plays", len(job.moves))
    choice = engine.choose(game, job.level, job.seconds, job.nodes)
    return Answer(choice.move, choice.score, choice.depth, choice.nodes)


def first_legal(job: Job) -> Answer:
    """No search: the first of the game's legal moves in canonical (sorted) order. The runner's
    last resort when even a worker's shallow search failed, cheap enough for the bot's own process."""
    return Answer(min(rebuild(job).legal_moves()), None, 0, 0)


def start_worker(cpus: frozenset[int], parent: int | None = None) -> None:
    """A worker's initializer: end with the bot's process `parent`; onto `cpus` (the CPUs the bot
    leaves free), else a lower priority."""
    if parent is not None:
        die_with(parent)
    if cpus and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, cpus)
            return
        except OSError as error:
            log.warning("engine worker could not move to CPUs %s: %s", sorted(cpus), error)
    try:
        os.nice(NICE)
    except OSError:
        pass


def die_with(parent: int) -> None:
    """End this process when process `parent` ends, however it ends: Linux's parent-death signal,
    else a daemon thread that watches the parent's pid."""
    try:
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    except (OSError, AttributeError):   # not Linux
        threading.Thread(target=_watch, args=(parent,), name="kibitz-parent", daemon=True).start()
        return
    if os.getppid() != parent:   # the parent ended before the signal was asked for
        os._exit(1)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def worker_cpus() -> frozenset[int]:
    """The allowed CPUs other than those the bot keeps to: this process's own, and with shards in
    several processes on this host every shard process's (empty: there is no other)."""
    if not hasattr(os, "sched_getaffinity"):
        return frozenset()
    return frozenset(process.allowed_cpus() - os.sched_getaffinity(0) - process.bot_cpus())


def default_size() -> int:
    """One fewer than the CPUs the bot may use, at least 1."""
    return max(1, len(process.allowed_cpus()) - 1)


def ready() -> int:
    """Run in a worker by `Workers.start`: nothing but being there (the engine is imported by now)."""
    return os.getpid()


class Workers:
    """The pool. `choose(job)` runs one search in a worker; the pool is started by `start` (the
    runner's start: the first reply does not wait for the processes to start and import the
    engine), else at the first call, and again after a worker died."""

    def __init__(self, size: int | None = None) -> None:
        self.size = size or default_size()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=start_worker, initargs=(worker_cpus(), os.getpid()))
        return self._pool

    def start(self) -> None:
        """Start every worker now, without waiting for them: one call each of `ready`."""
        pool = self._executor()
        for _ in range(self.size):
            pool.submit(ready)

    async def choose(self, job: Job) -> Answer:
        """The worker's answer. Raises what the search raised, or BrokenProcessPool when a worker
        died (the next call starts a new pool)."""
        pool = self._executor()
        try:
            return await asyncio.wrap_future(pool.submit(think, job))
        except BrokenProcessPool:
            self._drop(pool)
            raise

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and the load benchmark)."""
        workers = (self._pool._processes or {}).values() if self._pool is not None else ()  # type: ignore[attr-defined]
        return [worker.pid for worker in workers if worker.pid is not None]

    def close(self) -> None:
        """End the workers; searches under way are abandoned (their games move after the next start-up)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for worker in list((pool._processes or {}).values()):   # type: ignore[attr-defined]
            worker.terminate()   # a search of seconds is not waited for
        pool.shutdown(wait=True, cancel_futures=True)
