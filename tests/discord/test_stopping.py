"""Stopping the real bot process (`python -m bot`, SQLite, the Discord stand-in) with SIGTERM, as
`docker stop` does: the interaction in flight is answered, one arriving meanwhile is told the bot
is restarting, the process exits with 0 within 10 s, and the move is in the main database file
with no WAL left beside it. The same as PID 1 of a PID namespace of its own (as in a container),
where a process gets no default signal actions: without a handler of its own it ignores SIGTERM."""
from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp import web

import rules
from bot.discord.app import DRAIN, STOPPING
from tests.discord.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
UNSHARE = ["unshare", "--pid", "--fork", "--kill-child"]

pytestmark = pytest.mark.asyncio


class HoldingDiscord(FakeDiscord):
    """The stand-in, able to hold the next interaction callback until the test releases it."""

    def __init__(self) -> None:
        super().__init__()
        self.hold_next = False
        self.held = asyncio.Event()
        self.release = asyncio.Event()

    async def _rest(self, request: web.Request) -> web.Response:
        if self.hold_next and request.path.endswith("/callback"):
            self.hold_next = False
            self.held.set()
            await self.release.wait()
        return await super()._rest(request)


def unshare_works() -> bool:
    if shutil.which("unshare") is None:
        return False
    return subprocess.run([*UNSHARE, "true"], capture_output=True, timeout=30).returncode == 0


def start_bot(fake: FakeDiscord, folder: Path, prefix: list[str], drain: float | None = None) -> subprocess.Popen:
    """`python -m bot`; with `drain`, the same with DRAIN set to that many seconds first."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIBITZ_", "DISCORD_"))}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="stop-token", DISCORD_API_BASE=fake.api_base,
               DISCORD_GATEWAY_URL=fake.gateway_url, KIBITZ_DB=str(folder / "kibitz.sqlite3"), KIBITZ_CPU="all")
    bot = ["-m", "bot"] if drain is None else [
        "-c", f"import runpy, bot.discord.app; bot.discord.app.DRAIN = {drain}; runpy.run_module('bot', run_name='__main__')"]
    with open(folder / "bot.log", "wb") as out:
        return subprocess.Popen([*prefix, sys.executable, *bot], cwd=folder, env=env, stdout=out,
                                stderr=subprocess.STDOUT)


async def bot_pid(proc: subprocess.Popen, in_namespace: bool) -> int:
    """The bot's pid as we see it: under unshare, its forked child, which is PID 1 inside."""
    if not in_namespace:
        return proc.pid
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    for _ in range(1000):
        found = children.read_text().split()
        if found:
            pid = int(found[0])
            nspid = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                         if line.startswith("NSpid:"))
            assert nspid.split()[-1] == "1", nspid   # PID 1 of its namespace
            return pid
        await asyncio.sleep(0.01)
    raise AssertionError("unshare never started the bot")


async def log_says(folder: Path, text: str) -> None:
    for _ in range(3000):
        if text in (folder / "bot.log").read_text(errors="replace"):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the bot never logged {text!r}:\n{(folder / 'bot.log').read_text(errors='replace')}")


@pytest.mark.parametrize("pid_one", [False, True], ids=["process", "pid-1-of-a-namespace"])
async def test_sigterm_finishes_the_interaction_in_flight_checkpoints_and_exits_0(tmp_path, pid_one):
    if pid_one and not unshare_works():
        pytest.skip("unshare --pid --fork is not available here")
    game = rules.new_game("kingswap", seed=7)
    move = game.legal_moves()[0]
    game.play(move)
    async with HoldingDiscord() as fake:
        fake.deny_threads()   # the puzzle is played in the channel itself
        proc = start_bot(fake, tmp_path, UNSHARE if pid_one else [])
        try:
            await fake.wait_ready(60)
            pid = await bot_pid(proc, pid_one)
            await fake.slash("puzzle", {"variant": "kingswap", "seed": 7}, user=fake.alice, timeout=30)

            fake.hold_next = True   # the move is saved, and its answer held on its way to Discord
            in_flight = await fake.slash("move", {"move": move}, user=fake.alice, wait=False)
            await asyncio.wait_for(fake.held.wait(), 30)
            os.kill(pid, signal.SIGTERM)
            await log_says(tmp_path, "stopping: finishing 1 interaction(s) in flight")

            refused = await fake.slash("board", user=fake.bob, timeout=30)   # arrives while stopping
            assert refused.reply.content == STOPPING and refused.reply.ephemeral
            fake.release.set()
            await in_flight.wait(lambda log: log.is_answered(), 30)
            assert f"**{game.last_move_description()}**" in in_flight.text

            code = await asyncio.to_thread(proc.wait, 10)   # docker stop waits 10 s before kill -9
        finally:
            fake.release.set()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert code == 0, (tmp_path / "bot.log").read_text(errors="replace")
    wal = tmp_path / "kibitz.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    alone = tmp_path / "alone"   # the main file by itself, as if the WAL had been lost
    alone.mkdir()
    shutil.copy(tmp_path / "kibitz.sqlite3", alone / "kibitz.sqlite3")
    with sqlite3.connect(alone / "kibitz.sqlite3") as db:
        [(moves,)] = db.execute("SELECT moves FROM games").fetchall()
    assert move in moves


async def test_an_interaction_that_never_finishes_does_not_keep_the_bot_past_10_seconds(tmp_path):
    assert DRAIN < 10   # docker stop's patience; the bot here waits 1 s of it, the same way
    async with HoldingDiscord() as fake:
        fake.deny_threads()
        proc = start_bot(fake, tmp_path, [], drain=1.0)
        try:
            await fake.wait_ready(60)
            fake.hold_next = True   # its answer never gets through: the interaction stays in flight
            await fake.slash("puzzle", {"variant": "kingswap", "seed": 7}, user=fake.alice, wait=False)
            await asyncio.wait_for(fake.held.wait(), 30)
            proc.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(proc.wait, 10)
        finally:
            fake.release.set()
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    log = (tmp_path / "bot.log").read_text(errors="replace")
    assert code == 0, log
    assert "stopping: 1 interaction(s) still running after 1 s are cut short" in log
    wal = tmp_path / "kibitz.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
