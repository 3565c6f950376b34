"""`python -m bot` against the Discord stand-in: a token Discord refuses stops it with one sentence."""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from tests.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.asyncio
ROOT = Path(__file__).resolve().parents[2]


async def test_a_token_discord_refuses_stops_the_bot_with_one_sentence_and_exit_code_2(tmp_path):
    async with FakeDiscord() as fake:
        fake.refuse_token()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "KIBITZ"))}
        env.update(DISCORD_TOKEN="not-a-token", DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY_URL=fake.gateway_url,
                   KIBITZ_DB=str(tmp_path / "kibitz.sqlite3"), PYTHONPATH=str(ROOT))
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                       stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), 60)
    assert fake.requests_to("GET /users/@me") and fake.requests_to("GET /users/@me")[0].status == 401
    errors = [line for line in err.decode().splitlines() if " INFO " not in line and " WARNING " not in line]
    assert process.returncode == 2, err.decode()
    assert errors == ["kibitz: Discord refused the bot's token (DISCORD_TOKEN). Copy it again from the Bot page "
                      "of your application at https://discord.com/developers/applications."], err.decode()
    assert "Traceback" not in err.decode() and out == b""
