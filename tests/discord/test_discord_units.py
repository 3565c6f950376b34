"""Small pieces of the Discord layer that need no Discord."""
import sys
from types import SimpleNamespace

import aiohttp
import discord

from bot.config import load
from bot.discord.app import DEFAULT_API_BASE, DiscordConfig
from bot.discord.transport import split_content
from bot.discord.transport import BACKOFF, may_have_gone, retry_delay


def test_config_reads_the_environment(tmp_path):
    nothing = load({"KIBITZ_STOCKFISH": "off"}, dotenv=tmp_path / "none")
    assert DiscordConfig.from_app_config(nothing) == DiscordConfig(DEFAULT_API_BASE, None)
    cfg = load({"DISCORD_API_BASE": "http://127.0.0.1:9/api/v10/", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/",
                "KIBITZ_STOCKFISH": "off"}, dotenv=tmp_path / "none")
    assert DiscordConfig.from_app_config(cfg) == DiscordConfig("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/")
    engine = load({"KIBITZ_ENGINE_WORKERS": "2", "KIBITZ_ENGINE_NODES": "300", "KIBITZ_STOCKFISH": sys.executable},
                  dotenv=tmp_path / "none")
    assert DiscordConfig.from_app_config(engine) == DiscordConfig(DEFAULT_API_BASE, None, engine_workers=2,
                                                                  engine_nodes=300, stockfish=sys.executable)


def test_dotenv_supplies_the_token_and_the_environment_wins(tmp_path):
    dotenv = tmp_path / ".env"
    dotenv.write_text("# secrets\nDISCORD_TOKEN='from-file'\nexport KIBITZ_DB=/tmp/x.sqlite3\n")
    assert load({}, dotenv=dotenv).token == "from-file"
    assert load({}, dotenv=dotenv).db_path == "/tmp/x.sqlite3"
    assert load({"DISCORD_TOKEN": "from-env"}, dotenv=dotenv).token == "from-env"


def test_long_text_is_split_at_line_breaks():
    text = "\n".join(f"line {i:04d} " + "x" * 90 for i in range(60))
    pieces = split_content(text)
    assert all(len(p) <= 2000 for p in pieces) and len(pieces) > 1
    assert "\n".join(pieces) == text
    assert split_content("") == [] and split_content("x" * 4001) == ["x" * 2000, "x" * 2000, "x"]


def _http_error(kind: type[discord.HTTPException], status: int, headers: dict[str, str] | None = None):
    response = SimpleNamespace(status=status, reason="", headers=headers or {})
    return kind(response, {"message": "", "code": 0})  # type: ignore[arg-type]


def test_the_bot_retries_every_5xx_429_and_lost_connection_while_time_is_left():
    dropped = aiohttp.ServerDisconnectedError()
    assert [retry_delay(dropped, attempt, 60) for attempt in range(6)] == [*BACKOFF, BACKOFF[-1], BACKOFF[-1]]
    assert retry_delay(TimeoutError(), 0, 60) == BACKOFF[0]
    for status in (500, 502, 503, 504):   # discord.py retries no 503 on a channel post: the bot does
        assert retry_delay(_http_error(discord.DiscordServerError, status), 1, 60) == BACKOFF[1]
    # a 429: wait its Retry-After (also one discord.py refused to wait out, without Via), else back off
    assert retry_delay(_http_error(discord.HTTPException, 429, {"Retry-After": "0.25"}), 3, 60) == 0.25
    assert retry_delay(_http_error(discord.HTTPException, 429, {"Retry-After": "600"}), 0, 60) is None
    assert retry_delay(_http_error(discord.HTTPException, 429), 0, 60) == BACKOFF[0]
    # no time left for the wait: the next way (channel, then the outbox) gets it
    assert retry_delay(dropped, 3, BACKOFF[3] - 0.1) is None
    # refused for good: the next way at once
    assert retry_delay(_http_error(discord.NotFound, 404), 0, 60) is None
    assert retry_delay(_http_error(discord.Forbidden, 403), 0, 60) is None
    assert retry_delay(ValueError("a bug"), 0, 60) is None


def test_a_request_may_have_gone_unless_discord_surely_refused_every_attempt():
    refused = aiohttp.ClientConnectorError(SimpleNamespace(host="discord.com", port=443, ssl=True),  # type: ignore[arg-type]
                                           ConnectionRefusedError(111, "Connection refused"))
    rate_limited, not_found = _http_error(discord.HTTPException, 429), _http_error(discord.NotFound, 404)
    assert not may_have_gone(refused, rate_limited, not_found)   # never sent, or answered with a refusal
    for doubt in (_http_error(discord.DiscordServerError, 503), aiohttp.ServerDisconnectedError(), TimeoutError()):
        assert may_have_gone(doubt) and may_have_gone(doubt, rate_limited) and may_have_gone(refused, doubt)
