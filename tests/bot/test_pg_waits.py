"""PostgreSQL never hangs start-up silently: a migration lock held by another process is waited
for with a log line saying so, then given up after KIBITZ_PG_LOCK_TIMEOUT seconds with a sentence
and exit code 2; a server that accepts connections but never answers (frozen) is given up after
KIBITZ_PG_TIMEOUT seconds, and the sentence says why. (A frozen server while the bot runs:
tests/discord/test_frozen_database.py.)"""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.store.postgres import MIGRATION_LOCK

from .freezing_proxy import FreezingProxy

asyncpg = pytest.importorskip("asyncpg")
pytestmark = pytest.mark.asyncio
ROOT = Path(__file__).resolve().parents[2]


async def start_console(tmp_path: Path, url: str, **settings: str) -> tuple[int, str]:
    """`python -m bot console` on `url` with no input: its exit code and what it wrote to stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIBITZ_", "DISCORD_"))}
    env.update(PYTHONPATH=str(ROOT), KIBITZ_DB=url, KIBITZ_OUT=str(tmp_path / "out"), **settings)
    console = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "console", cwd=tmp_path, env=env, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    try:
        _, err = await asyncio.wait_for(console.communicate(), 60)
    finally:
        if console.returncode is None:
            console.kill()
            await console.wait()
    assert console.returncode is not None
    return console.returncode, err.decode()


async def test_start_up_waits_for_a_held_migration_lock_saying_so_then_gives_up_with_exit_2(tmp_path, pg_url):
    holder = await asyncpg.connect(pg_url)   # another process, stuck while migrating
    try:
        await holder.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        code, err = await start_console(tmp_path, pg_url, KIBITZ_PG_LOCK_TIMEOUT="1")
    finally:
        await holder.close()
    assert code == 2, err
    assert "another process is migrating the PostgreSQL database" in err and "waiting for it, at most 1 s" in err
    assert err.strip().splitlines()[-1] == (
        f"kibitz: Kibitz waited 1 s (KIBITZ_PG_LOCK_TIMEOUT) for another process to finish migrating the "
        f"PostgreSQL database {pg_url}, and gave up: if that process is stuck, stop it, then start Kibitz again.")
    assert "Traceback" not in err
    code, err = await start_console(tmp_path, pg_url, KIBITZ_PG_LOCK_TIMEOUT="1")   # the lock is free again
    assert code == 0, err
    assert "another process is migrating" not in err


async def test_a_frozen_server_at_start_up_is_given_up_with_a_sentence_that_says_why(tmp_path, pg_server, pg_url):
    async with FreezingProxy(pg_server.port) as proxy:
        proxy.freeze()
        code, err = await start_console(tmp_path, proxy.url(pg_url), KIBITZ_PG_TIMEOUT="1")
    assert code == 2, err
    assert err.strip().splitlines()[-1] == (
        f"kibitz: Cannot reach the PostgreSQL server at {proxy.url(pg_url)}: TimeoutError. "
        f"Is it running, and is KIBITZ_DB right?")
    assert proxy.connections >= 1   # it was reached, and said nothing
