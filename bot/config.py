"""Settings from environment variables (and a .env file), read once at start-up.

Play:

    KIBITZ_CHALLENGE_TTL  seconds a challenge waits for an answer before it expires (default 3600)
    KIBITZ_MOVE_DEADLINE  default seconds per move in two-player games (default 259200, 3 days);
                          a server's /settings default and a challenge's `days` option override it
    KIBITZ_DEV_GUILD      a development server's id: commands are also synced there (instantly)
    KIBITZ_STOCKFISH      the Stockfish that plays standard games against the computer (a path, or
                          off); default `stockfish` on the PATH or in /usr/games, else the built-in engine

Running:

    KIBITZ_CPU            auto (default): the process keeps to one CPU; all: any CPU; or a CPU
                          number. Why, in bot/process.py.
    KIBITZ_ENGINE_WORKERS  worker processes searching the computer's moves (default: one fewer than
                          the CPUs the bot may use, at least 1); they run off the bot's CPU
    KIBITZ_ENGINE_NODES   cap each of the computer's searches at this many positions instead of its
                          level's time (the same moves on any machine; tests). Default: no cap
    KIBITZ_PG_TIMEOUT     seconds PostgreSQL may take to accept a connection or answer a query
                          (default 5): a frozen server gets "try again", not endless "thinking"
                          (after twice that at most: a query that timed out is also cancelled)
    KIBITZ_PG_LOCK_TIMEOUT  seconds start-up waits for another process migrating the PostgreSQL
                          database (default 120), then stops with a sentence

Shards (a bot in more than about 2,500 servers must shard):

    KIBITZ_SHARD_COUNT   how many Discord shards the bot has in all, e.g. 4
    KIBITZ_SHARD_IDS     the shards this process runs, comma-separated, e.g. 0,1 (default: all)

A guild belongs to shard (guild_id >> 22) % shard_count, as Discord routes it; direct messages
to shard 0. `Config.owns_guild` tells whether this process serves a guild (its timers too).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from bot.process import CpuSettingError, parse
from .stockfish import find_stockfish
from .timing import CHALLENGE_TTL, MOVE_DEADLINE


class ConfigError(ValueError):
    """A setting cannot be used: one sentence naming it."""


def shard_of(guild_id: int | str | None, shard_count: int) -> int:
    """The shard Discord routes a guild to; direct messages (no guild) go to shard 0."""
    return 0 if guild_id is None else (int(guild_id) >> 22) % shard_count


@dataclass(frozen=True)
class Config:
    token: str | None
    db_path: str
    out_dir: str
    api_base: str | None        # DISCORD_API_BASE, e.g. http://127.0.0.1:8080/api/v10 (tests)
    gateway_url: str | None     # DISCORD_GATEWAY_URL, e.g. ws://127.0.0.1:8080/ (tests)
    shard_count: int | None = None            # KIBITZ_SHARD_COUNT; None: no sharding
    shard_ids: tuple[int, ...] | None = None  # KIBITZ_SHARD_IDS; None: every shard in this process
    challenge_ttl: int = CHALLENGE_TTL        # KIBITZ_CHALLENGE_TTL: seconds a challenge waits for an answer
    move_deadline: int = MOVE_DEADLINE        # KIBITZ_MOVE_DEADLINE: default seconds per move
    dev_guild: str | None = None              # KIBITZ_DEV_GUILD: also sync commands to this guild, at once
    cpu: str | int = "auto"                   # KIBITZ_CPU: "auto" (one CPU), "all" or a CPU number (bot/process.py)
    pg_timeout: int = 5                       # KIBITZ_PG_TIMEOUT: seconds for a PostgreSQL connection or query
    pg_lock_timeout: int = 120                # KIBITZ_PG_LOCK_TIMEOUT: seconds to wait for another's migration
    engine_workers: int | None = None         # KIBITZ_ENGINE_WORKERS; None: one fewer than the CPUs, at least 1
    engine_nodes: int | None = None           # KIBITZ_ENGINE_NODES; None: each search gets its level's time
    stockfish: str | None = None              # KIBITZ_STOCKFISH: Stockfish for standard games; None: built-in

    @property
    def store_options(self) -> dict[str, float]:
        """What open_store takes from the settings: PostgreSQL's time limits (SQLite needs none)."""
        return {"query_timeout": self.pg_timeout, "lock_timeout": self.pg_lock_timeout}

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def runs_every_shard(self) -> bool:
        """False when other processes run some of the shards (they must share one database)."""
        return self.shard_ids is None or set(self.shard_ids) == set(range(self.shard_count or 1))

    def owns_guild(self, guild_id: int | str | None) -> bool:
        """Whether this process serves the guild: its games, and its deadlines and reminders."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=value lines; blank lines and # comments skipped; optional quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def load(environ: dict[str, str] | None = None, dotenv: Path | None = None) -> Config:
    env = dict(read_dotenv(dotenv or Path.cwd() / ".env"))
    env.update(os.environ if environ is None else environ)
    shard_count, shard_ids = parse_shards(env.get("KIBITZ_SHARD_COUNT", ""), env.get("KIBITZ_SHARD_IDS", ""))
    return Config(
        token=env.get("DISCORD_TOKEN") or None,
        db_path=env.get("KIBITZ_DB") or str(Path.cwd() / "kibitz.sqlite3"),
        out_dir=env.get("KIBITZ_OUT") or str(Path.cwd() / "out"),
        api_base=env.get("DISCORD_API_BASE") or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL") or None,
        shard_count=shard_count,
        shard_ids=shard_ids,
        challenge_ttl=parse_seconds(env, "KIBITZ_CHALLENGE_TTL", CHALLENGE_TTL),
        move_deadline=parse_seconds(env, "KIBITZ_MOVE_DEADLINE", MOVE_DEADLINE),
        dev_guild=parse_guild(env.get("KIBITZ_DEV_GUILD", "")),
        cpu=parse_cpu(env.get("KIBITZ_CPU", "")),
        pg_timeout=parse_seconds(env, "KIBITZ_PG_TIMEOUT", 5),
        pg_lock_timeout=parse_seconds(env, "KIBITZ_PG_LOCK_TIMEOUT", 120),
        engine_workers=parse_count(env, "KIBITZ_ENGINE_WORKERS"),
        engine_nodes=parse_count(env, "KIBITZ_ENGINE_NODES"),
        stockfish=parse_stockfish(env),
    )


def parse_stockfish(env: dict[str, str]) -> str | None:
    """The Stockfish found (bot/stockfish.py); one that KIBITZ_STOCKFISH names must be a program."""
    path = find_stockfish(env)
    if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ConfigError(f"KIBITZ_STOCKFISH names no program that can run ({path!r}): give Stockfish's path, "
                          f"or off.")
    return path


def parse_cpu(text: str) -> str | int:
    try:
        return parse(text)
    except CpuSettingError as error:
        raise ConfigError(str(error)) from None


def parse_seconds(env: dict[str, str], name: str, default: int) -> int:
    """A number of seconds from the environment (whole, 1 or more); raises ConfigError with one sentence."""
    text = env.get(name, "").strip()
    if not text:
        return default
    value = _whole(text)
    if value < 1:
        raise ConfigError(f"{name} must be a whole number of seconds, 1 or more (not {text!r}).")
    return value


def parse_count(env: dict[str, str], name: str) -> int | None:
    """An optional whole number, 1 or more (None when unset); raises ConfigError with one sentence."""
    text = env.get(name, "").strip()
    if not text:
        return None
    if _whole(text) < 1:
        raise ConfigError(f"{name} must be a whole number, 1 or more (not {text!r}).")
    return _whole(text)


def _whole(text: str) -> int:
    """A whole number read from a setting, or 0 when it is not one (callers refuse 0 and below)."""
    try:
        return int(text)
    except ValueError:
        return 0


def parse_guild(text: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise ConfigError(f"KIBITZ_DEV_GUILD must be a server id, a number (not {text!r}).")
    return text


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """KIBITZ_SHARD_COUNT and KIBITZ_SHARD_IDS, checked; raises ConfigError with one sentence."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError("KIBITZ_SHARD_IDS is set but KIBITZ_SHARD_COUNT is not: set the total number of "
                              "shards too, e.g. KIBITZ_SHARD_COUNT=4 KIBITZ_SHARD_IDS=0,1.")
        return None, None
    count = _whole(count_text)
    if count < 1:
        raise ConfigError(f"KIBITZ_SHARD_COUNT must be a whole number of shards, 1 or more (not {count_text!r}).")
    if not ids_text:
        return count, None
    try:
        ids = tuple(int(part) for part in ids_text.split(","))
    except ValueError:
        raise ConfigError(f"KIBITZ_SHARD_IDS must be shard numbers separated by commas, such as 0,1 "
                          f"(not {ids_text!r}).") from None
    if any(not 0 <= i < count for i in ids):
        raise ConfigError(f"KIBITZ_SHARD_IDS ({ids_text}) must name shards from 0 to {count - 1}, "
                          f"as KIBITZ_SHARD_COUNT is {count}.")
    if len(set(ids)) != len(ids):
        raise ConfigError(f"KIBITZ_SHARD_IDS ({ids_text}) names a shard twice.")
    return count, ids
