"""Fixtures: a fake Discord on 127.0.0.1 and the Kibitz bot connected to it."""
from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import os
from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio
from PIL import Image

from bot.discord import app
from bot.discord.app import KibitzBot, create_bot
from bot.service import GameService
from bot.store import InMemoryStore
from tests.conftest import HINT_NODES
from tests.discord.fake_discord import PATIENCE, FakeDiscord
from tests.shared_workers import SharedWorkers

TOKEN = "test-token"


def tiny_png(view, orientation) -> bytes:
    """Stand-in renderer: a valid 8x8 PNG (the renderer has its own tests)."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (240, 217, 181)).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="session", autouse=True)
def shared_workers():
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(app, "Workers", SharedWorkers.of_size)
        yield
    SharedWorkers.end_all()


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, service: GameService, **options) -> AsyncIterator[KibitzBot]:
    """Start the bot against `fake` (configured through the environment, as in production);
    yield once it is READY; close it and put discord.py's class-wide endpoints back."""
    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    env = {"DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY_URL": fake.gateway_url}
    old_env = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    fake.ready.clear()
    try:
        client = create_bot(service, guild_ready_timeout=0.01, **options)
    finally:
        for key, value in old_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    runner = asyncio.create_task(client.start(TOKEN))
    ready = asyncio.ensure_future(fake.wait_ready())
    try:
        done, _ = await asyncio.wait({runner, ready}, timeout=PATIENCE, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            runner.result()   # start() failed: raise its error
        await asyncio.wait_for(client.wait_until_ready(), PATIENCE)
        yield client
    finally:
        ready.cancel()
        await client.close()
        try:
            await asyncio.wait_for(runner, 5)
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest_asyncio.fixture
async def service() -> GameService:
    """The bot's service; its /hint searches HINT_NODES positions, not 2 seconds (tests/conftest.py)."""
    service = GameService(InMemoryStore(), renderer=tiny_png)
    service.hint = functools.partial(service.hint, node_budget=HINT_NODES)   # type: ignore[method-assign]
    return service


@pytest_asyncio.fixture
async def bot(fake, service) -> AsyncIterator[KibitzBot]:
    async with running_bot(fake, service) as client:
        yield client


async def message_noted(service: GameService, game_id: int) -> str:
    """The challenge's message id, once the bot has stored it (just after answering)."""
    for _ in range(int(PATIENCE / 0.01)):
        record = await service.game_record(game_id)
        if record is not None and record.message_id:
            return record.message_id
        await asyncio.sleep(0.01)
    raise AssertionError("the challenge's message id was never stored")
