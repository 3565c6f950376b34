"""A PostgreSQL server that freezes while the bot runs (it keeps the connections but answers
nothing): a command gets "try again" after KIBITZ_PG_TIMEOUT seconds, while the server is still
frozen, instead of "thinking" for as long as the freeze lasts; once it answers again, so does the bot."""
from __future__ import annotations

import pytest

from bot.service import GameService
from bot.discord.tree import NO_ANSWER
from tests.bot.freezing_proxy import FreezingProxy
from tests.bot.pg_server import pg_server, pg_url  # noqa: F401  (a real PostgreSQL, started once per session)
from tests.discord.conftest import running_bot, tiny_png

pytest.importorskip("asyncpg")
pytestmark = pytest.mark.asyncio


async def test_a_frozen_database_gets_a_clear_try_again_and_the_bot_recovers(fake, pg_server, pg_url):  # noqa: F811
    from bot.store.postgres import PostgresStore

    async with FreezingProxy(pg_server.port) as proxy:
        store = await PostgresStore.open(proxy.url(pg_url), query_timeout=1)
        try:
            async with running_bot(fake, GameService(store, renderer=tiny_png)):
                before = await fake.slash("games", user=fake.alice, timeout=30)
                assert before.text and NO_ANSWER not in before.text

                proxy.freeze()   # stays frozen until the answer has come
                frozen = await fake.slash("games", user=fake.alice, timeout=60)
                assert frozen.reply.content == NO_ANSWER and frozen.reply.ephemeral
                proxy.thaw()

                after = await fake.slash("games", user=fake.alice, timeout=30)
                assert after.text == before.text
        finally:
            proxy.thaw()   # even if the test failed frozen: closing waits for the server
            await store.close()
