"""`python -m bot` starts the Discord bot (or the console without a token); `python -m bot console`;
`python -m bot copy-db SOURCE TARGET` copies every game between SQLite and PostgreSQL;
`python -m bot backup FILE` copies the running SQLite database to FILE.

SIGTERM and SIGINT stop the bot or the console cleanly, with exit code 0 (bot/discord/app.py)."""
from __future__ import annotations

import asyncio
import logging
import signal
import sys

from . import config as config_module
from .backup import backup as backup_sqlite
from .console import Console
from .process import CpuSettingError, collect_garbage_less, keep_to_one_cpu
from .service import GameService
from .store import StoreError
from .store.connect import copy_games, open_store, sqlite_path
from .store.postgres import is_postgres_url

NO_TOKEN = """No DISCORD_TOKEN found (environment or .env), so starting the local console instead.
To run on Discord: create an application at https://discord.com/developers/applications,
add a Bot, copy its token into a file named .env as  DISCORD_TOKEN=...  and invite the bot
with the scopes 'bot' and 'applications.commands'. Then run `make run` again.
"""

BAD_TOKEN = ("kibitz: Discord refused the bot's token (DISCORD_TOKEN). Copy it again from the Bot page of your "
             "application at https://discord.com/developers/applications.")

COPY_USAGE = """usage: python -m bot copy-db SOURCE TARGET
Copies every game (ids, versions and all) into an empty database. SOURCE and TARGET are each a
SQLite file (a path or sqlite:///path) or a PostgreSQL URL (postgresql://user:pass@host/db).
Stop the bot first, so no game changes during the copy."""

BACKUP_USAGE = """usage: python -m bot backup FILE
Writes a consistent copy of the SQLite database KIBITZ_DB names to the new file FILE, also while
the bot runs. To restore it, stop the bot and put FILE in place of the database."""


async def console_main(cfg: config_module.Config) -> None:
    store = await open_store(cfg.db_path, **cfg.store_options)
    try:
        service = GameService(store, challenge_ttl=cfg.challenge_ttl, move_deadline=cfg.move_deadline)
        await service.restore()
        await Console(service, cfg.out_dir, engine_workers=cfg.engine_workers, engine_nodes=cfg.engine_nodes,
                      stockfish=cfg.stockfish).run()
    finally:
        await store.close()


def check_shards(cfg: config_module.Config) -> None:
    """A process running only some shards implies others running the rest: they need one shared
    database, which SQLite (one process per file) cannot be."""
    if not cfg.runs_every_shard and not is_postgres_url(cfg.db_path):
        raise StoreError(f"KIBITZ_SHARD_IDS runs only shards {','.join(map(str, cfg.shard_ids or ()))} of "
                         f"{cfg.shard_count} here, so other processes run the rest, and they must share one "
                         f"database: set KIBITZ_DB to a PostgreSQL URL (SQLite serves one process).")


def copy_db(args: list[str]) -> int:
    if len(args) != 2:
        print(COPY_USAGE, file=sys.stderr)
        return 2
    count = asyncio.run(copy_games(args[0], args[1]))
    print(f"Copied {count} game(s).")
    return 0


def backup(args: list[str]) -> int:
    if len(args) != 1:
        print(BACKUP_USAGE, file=sys.stderr)
        return 2
    cfg = config_module.load()
    if is_postgres_url(cfg.db_path):
        raise StoreError("KIBITZ_DB is a PostgreSQL database: back it up with pg_dump (README, \"Backups\").")
    count = backup_sqlite(sqlite_path(cfg.db_path), args[0])
    print(f"Backed up {count} game(s) to {args[0]}.")
    return 0


def _interrupt(number: int, frame: object) -> None:
    raise KeyboardInterrupt   # SIGTERM as SIGINT, until the bot's event loop takes both over


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for number in (signal.SIGTERM, signal.SIGINT):   # handled: as PID 1 SIGTERM would be ignored
        signal.signal(number, _interrupt)
    try:
        if argv[:1] == ["copy-db"]:
            return copy_db(argv[1:])
        if argv[:1] == ["backup"]:
            return backup(argv[1:])
        cfg = config_module.load()
        if argv[:1] == ["console"]:
            asyncio.run(console_main(cfg))
            return 0
        if not cfg.token:
            print(NO_TOKEN, file=sys.stderr)
            asyncio.run(console_main(cfg))
            return 0
        check_shards(cfg)
        from .discord.app import run   # discord.py is loaded only to run the bot (not the console, copy-db, backup)

        try:
            keep_to_one_cpu(cfg.cpu, cfg.shard_ids, cfg.shard_count)   # before any thread starts: they all inherit it
        except CpuSettingError as error:
            raise config_module.ConfigError(str(error)) from None
        collect_garbage_less()   # start-up is done: what it made is never garbage

        from discord import LoginFailure

        try:
            run(cfg)   # opens the store before it connects to Discord
        except LoginFailure:   # Discord answered 401 to the login: the store is closed again
            print(BAD_TOKEN, file=sys.stderr)
            return 2
        return 0
    except (StoreError, config_module.ConfigError) as exc:
        print(f"kibitz: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:   # SIGTERM or SIGINT in the console or while starting: the store is closed
        return 130 if argv[:1] in (["copy-db"], ["backup"]) else 0   # a copy cut short is no success


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
