"""PostgreSQL never hangs start-up silently: a migration lock held by another process is waited
for with a log line saying so, then given up after KIBITZ_PG_LOCK_TIMEOUT seconds with a sentence
and exit code 2; a server that accepts connections but never answers (frozen) is given up after
KIBITZ_PG_TIMEOUT seconds, and the sentence says why. A migration may take longer than that
limit, closing a frozen server's store drops its connections, and many queries at once on a
frozen server each give up within the limit, waiting for a free connection included. (A frozen
server while the bot runs: tests/discord/test_frozen_database.py.)"""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.store import migrations
from bot.store.postgres import MIGRATION_LOCK, PostgresStore

from .freezing_proxy import FreezingProxy
from .pg_server import free_port

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
        f"kibitz: The PostgreSQL server at {proxy.url(pg_url)} did not answer within 1 s (KIBITZ_PG_TIMEOUT). "
        f"Is it overloaded or paused?")
    assert proxy.connections >= 1   # it was reached, and said nothing


async def test_a_server_that_refuses_the_connection_is_asked_whether_it_runs(tmp_path, pg_server, pg_url):
    url = pg_url.replace(f":{pg_server.port}/", f":{free_port()}/")   # nothing listens there
    code, err = await start_console(tmp_path, url, KIBITZ_PG_TIMEOUT="1")
    assert code == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"kibitz: Cannot reach the PostgreSQL server at {url}: ") and last.endswith(
        "Is it running, and is KIBITZ_DB right?"), last


async def test_a_migration_may_take_longer_than_the_query_timeout(pg_url, monkeypatch):
    slow = migrations.Migration(999, "999_slow.sql", "SELECT pg_sleep(2)")   # an index build on a big table
    every = migrations.postgres_migrations()
    monkeypatch.setattr("bot.store.postgres.postgres_migrations", lambda: [*every, slow])
    store = await PostgresStore.open(pg_url, query_timeout=1)
    try:
        assert await store.migrate() == 999
    finally:
        await store.close()


async def test_closing_the_store_of_a_frozen_server_drops_its_connections_quietly(pg_server, pg_url):
    async with FreezingProxy(pg_server.port) as proxy:
        store = await PostgresStore.open(proxy.url(pg_url), query_timeout=1)
        assert await store.settings("g") == {}
        proxy.freeze()
        await asyncio.wait_for(store.close(), 60)   # no TimeoutError: the bot's shutdown goes on


async def test_a_query_waiting_for_a_free_connection_gives_up_within_the_query_timeout(pg_url):
    store = await PostgresStore.open(pg_url, max_size=1, query_timeout=1)
    try:
        async with store._pool.acquire():   # the only connection, held by a query stuck on a frozen server
            waiting = asyncio.ensure_future(store.settings("g"))
            await asyncio.wait({waiting}, timeout=60)
            assert waiting.done(), "still waiting for a connection"
            assert isinstance(waiting.exception(), TimeoutError)
        assert await store.settings("g") == {}   # and the pool is as good as before
    finally:
        await store.close()
