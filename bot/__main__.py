"""`python -m bot` starts the Discord bot (or the console without a token); `python -m bot console`."""
from __future__ import annotations

import asyncio
import logging
import sys

from . import config as config_module
from .service import GameService
from .store import SqliteStore, StoreError

NO_TOKEN = """No DISCORD_TOKEN found (environment or .env), so starting the local console instead.
To run on Discord: create an application at https://discord.com/developers/applications,
add a Bot, copy its token into a file named .env as  DISCORD_TOKEN=...  and invite the bot
with the scopes 'bot' and 'applications.commands'. Then run `make run` again.
"""


async def console_main(cfg: config_module.Config) -> None:
    from .console import Console

    store = await SqliteStore.open(cfg.db_path)
    try:
        service = GameService(store)
        await service.restore()
        await Console(service, cfg.out_dir).run()
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    cfg = config_module.load()
    try:
        if argv[:1] == ["console"]:
            asyncio.run(console_main(cfg))
            return 0
        if not cfg.token:
            print(NO_TOKEN, file=sys.stderr)
            asyncio.run(console_main(cfg))
            return 0
        from .discord_app import run

        run(cfg)   # opens the store before it connects to Discord
        return 0
    except StoreError as exc:
        print(f"kibitz: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
