"""The Discord front end: build the bot over a GameService, and run it.

    bot = create_bot(service)            # commands.Bot with the Kibitz slash commands
    run(cfg)                             # blocking: bot.config's Config, the store KIBITZ_DB names, its shards
    run(token, service)                  # blocking, with a service you built

Endpoints are read once, at start-up, by bot.config:

    DISCORD_API_BASE     REST base URL, default https://discord.com/api/v10
    DISCORD_GATEWAY_URL  gateway websocket URL, default Discord's own

Both exist so the bot can be pointed at a local stand-in (tests/discord/fake_discord/).

Stopping: SIGTERM (``docker stop``) or SIGINT makes ``run`` stop cleanly, also as PID 1 of a
container (which gets no default signal actions): interactions arriving from then on get a
"restarting" sentence, those in flight finish (at most ``DRAIN`` seconds), then the bot closes
and the store with it (SQLite checkpointed into its main file), and the process exits with 0.

Slash commands are synced only when they changed: at start-up the bot compares its command tree
with what Discord has (names, descriptions, options) and PUTs only on a difference. With
``KIBITZ_DEV_GUILD`` the commands are also copied to that guild, where changes show at once
(global ones can take a while to reach every client), compared and synced the same way.

The computer opponent: the bot starts its runner (bot/opponent/runner.py) beside the scheduler,
with KIBITZ_ENGINE_WORKERS worker processes and KIBITZ_ENGINE_NODES (tests: a node cap instead of
time). Its moves are posted like the deadlines' posts (deadlines.py ``show_event``); while it
thinks, Discord's typing indicator shows in the game's channel. Closing stops it first (searches
under way are abandoned; the computer moves after the next start-up), before the store closes.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import signal
from dataclasses import dataclass
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.config import Config, load as load_config, shard_of
from bot.discord.answers import DiscordAnswers, message
from bot.discord.cogs.catalogue import Catalogue
from bot.discord.cogs.playing import Playing
from bot.discord.cogs.records import Records
from bot.discord.cogs.settings import Settings
from bot.discord.cogs.starting import Starting
from bot.discord.components.board_buttons import DYNAMIC_ITEMS as BOARD_ITEMS
from bot.discord.components.challenge import DYNAMIC_ITEMS
from bot.discord.components.kingswap_grid import DYNAMIC_ITEMS as GRID_ITEMS
from bot.discord.components.turn_builder import DYNAMIC_ITEMS as BUILDER_ITEMS
from bot.discord.context import Answers
from bot.discord.deadlines import show_event
from bot.discord.outbox import Outbox
from bot.discord.tree import KibitzTree
from bot.opponent.runner import Runner
from bot.opponent.workers import Workers
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store import GameRecord
from bot.store.connect import open_store

COGS = (Catalogue, Starting, Playing, Records, Settings)   # the slash commands, by what a player does

log = logging.getLogger(__name__)

DEFAULT_API_BASE = "https://discord.com/api/v10"
DRAIN = 6.0   # seconds interactions in flight get to finish after SIGTERM (docker stop waits 10)
STOPPING = "Kibitz is restarting. Please try again in a minute."
STALE_CONTROL = "That button is out of date."
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


@dataclass(frozen=True)
class DiscordConfig:
    api_base: str = DEFAULT_API_BASE
    gateway_url: str | None = None   # None: discord.py's default gateway
    dev_guild: int | None = None     # KIBITZ_DEV_GUILD: also sync the commands there
    engine_workers: int | None = None   # KIBITZ_ENGINE_WORKERS: the computer's worker processes
    engine_nodes: int | None = None     # KIBITZ_ENGINE_NODES: a node cap on its searches (tests)
    stockfish: str | None = None        # KIBITZ_STOCKFISH: Stockfish plays standard games (bot/stockfish.py)

    @classmethod
    def from_app_config(cls, cfg: Config) -> DiscordConfig:
        """From bot.config's Config (already read from the environment and .env)."""
        return cls(api_base=(cfg.api_base or DEFAULT_API_BASE).rstrip("/"), gateway_url=cfg.gateway_url or None,
                   dev_guild=int(cfg.dev_guild) if cfg.dev_guild else None, engine_workers=cfg.engine_workers,
                   engine_nodes=cfg.engine_nodes, stockfish=cfg.stockfish)

    def apply(self) -> None:
        """Point discord.py at these endpoints. They are class-level settings: one per process."""
        discord.http.Route.BASE = self.api_base
        if self.gateway_url:
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)


class KibitzBot(commands.Bot):
    def __init__(self, service: GameService, *, sync: bool = True, dev_guild: int | None = None,
                 engine_workers: int | None = None, engine_nodes: int | None = None, stockfish: str | None = None,
                 **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())   # no privileged intents needed
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, tree_cls=KibitzTree, help_command=None,
                         **options)
        self.kibitz_service = service
        self.sync_commands = sync
        self.dev_guild = dev_guild
        self.synced: list[discord.app_commands.AppCommand] = []
        self.answers: Answers = DiscordAnswers()   # what components answer through (bot/discord/context.py)
        # deadlines, and answers Discord could not take yet: started in setup_hook, stopped on close
        self.scheduler = Scheduler(service, functools.partial(show_event, self), owns=self.owns_guild,
                                   ready=self.wait_until_ready)
        self.outbox = Outbox(self, service, compose=message, owns=self.owns_guild, ready=self.wait_until_ready)
        self.runner = Runner(service, functools.partial(show_event, self), owns=self.owns_guild, thinking=self.show_typing,
                             workers=Workers(engine_workers), nodes=engine_nodes, stockfish=stockfish,
                             ready=self.wait_until_ready)
        self.stopping = False
        self._in_flight: set[asyncio.Future[Any]] = set()   # the tasks of interactions being handled
        self._parse_interaction = self._connection.parsers["INTERACTION_CREATE"]
        self._connection.parsers["INTERACTION_CREATE"] = self._take_interaction

    async def setup_hook(self) -> None:
        for item in (*DYNAMIC_ITEMS, *BUILDER_ITEMS, *BOARD_ITEMS, *GRID_ITEMS):
            self.add_dynamic_items(item)
        for cog in COGS:
            await self.add_cog(cog(self.kibitz_service))
        restored = await self.kibitz_service.restore()
        log.info("restored %d open game(s)", restored)
        await self.kibitz_service.warm_up()
        if self.sync_commands:
            await self.sync_if_changed()
            if self.dev_guild is not None:
                guild = discord.Object(self.dev_guild)
                self.tree.copy_global_to(guild=guild)
                try:
                    await self.sync_if_changed(guild)
                except discord.HTTPException as error:   # a wrong id, or the bot is not in that server
                    log.error("could not sync the commands to KIBITZ_DEV_GUILD %s (%s %s): is the bot in that "
                              "server? The global commands are synced as usual.", self.dev_guild, error.status,
                              error.text)
        self.scheduler.start()
        self.outbox.start()
        self.runner.start()

    async def close(self) -> None:
        await self.runner.stop()
        await self.scheduler.stop()
        await self.outbox.stop()
        await super().close()

    def _take_interaction(self, data: Any) -> None:
        """Every interaction from the gateway: handled as discord.py does, the tasks that starts
        kept in `_in_flight` (a task factory notes them; parsing is synchronous, so they are the
        interaction's own); once stopping, refused with a sentence."""
        loop = asyncio.get_running_loop()
        factory = loop.get_task_factory()

        def note(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Future[Any]:
            task = factory(loop, coro, **options) if factory else asyncio.Task(coro, loop=loop, **options)
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)
            return task

        loop.set_task_factory(note)
        try:
            if self.stopping:
                asyncio.create_task(self._refuse(discord.Interaction(data=data, state=self._connection)))
            else:
                self._parse_interaction(data)
        finally:
            loop.set_task_factory(factory)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button or menu no handler claims (a custom_id of an old format, or forged) gets one
        private sentence; those a handler claims are its to answer."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id, kind = str(data.get("custom_id", "")), data.get("component_type")
        store = self._connection._view_store
        message = interaction.message.id if interaction.message else None
        if interaction.type is not discord.InteractionType.component or \
                any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items) or \
                any((kind, custom_id) in store._views.get(key, {}) for key in (message, None)):
            return
        try:
            await interaction.response.send_message(STALE_CONTROL, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("could not answer the unclaimed control %r in interaction %s: %s", custom_id, interaction.id, error)

    @staticmethod
    async def _refuse(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.autocomplete:
            return   # no suggestions
        try:
            await interaction.response.send_message(STOPPING, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("could not refuse interaction %s while stopping: %s", interaction.id, error)

    async def serve(self, token: str) -> None:
        """Run until closed, or until SIGTERM or SIGINT: then stop cleanly (module docstring)."""
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for number in STOP_SIGNALS:
            loop.add_signal_handler(number, stop.set)
        runner, stopper = asyncio.create_task(self.start(token)), asyncio.create_task(stop.wait())
        try:
            await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner.done():
                await runner   # ended by itself: its error, if any, goes up
            else:
                await self.stop()
        finally:
            stopper.cancel()
            runner.cancel()   # start() ends once the bot is closed; this ends one still starting up
            await asyncio.wait({runner})
            if not runner.cancelled():
                runner.exception()   # marked as seen: one raised while closing on a signal is no news
            for number in STOP_SIGNALS:
                loop.remove_signal_handler(number)

    async def stop(self) -> None:
        """Refuse new interactions, let those in flight finish (at most DRAIN seconds), close."""
        log.info("stopping: finishing %d interaction(s) in flight", len(self._in_flight))
        self.stopping = True
        deadline = asyncio.get_running_loop().time() + DRAIN
        while self._in_flight and (left := deadline - asyncio.get_running_loop().time()) > 0:
            await asyncio.wait(set(self._in_flight), timeout=left)   # then those (refusals) begun meanwhile
        if self._in_flight:
            log.warning("stopping: %d interaction(s) still running after %g s are cut short", len(self._in_flight), DRAIN)
        await self.close()

    async def sync_if_changed(self, guild: discord.abc.Snowflake | None = None) -> bool:
        """PUT the commands (globally, or to `guild`) only if Discord's differ from ours. True if synced."""
        local = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        remote: list[dict[str, Any]] = [dict(command.to_dict()) for command in await self.tree.fetch_commands(guild=guild)]
        where = f"guild {guild.id}" if guild is not None else "global"
        if command_signature(local) == command_signature(remote):
            log.info("%s slash commands unchanged (%d): not synced", where, len(local))
            return False
        self.synced = await self.tree.sync(guild=guild)
        log.info("synced %d %s slash command(s): %s", len(self.synced), where, ", ".join(c.name for c in self.synced))
        return True

    def owns_guild(self, guild_id: int | str | None) -> bool:
        """Whether this process runs the guild's shard, so serves its games and their timers."""
        count = self.shard_count
        ids = getattr(self, "shard_ids", None) or ([self.shard_id] if self.shard_id is not None else None)
        return count is None or ids is None or shard_of(guild_id, count) in ids

    async def show_typing(self, record: GameRecord) -> None:
        """Discord's typing indicator in the game's channel while the computer thinks (up to 10 s)."""
        await self.get_partial_messageable(int(record.channel_id)).typing()

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s) in %d guild(s)", self.user, self.user and self.user.id, len(self.guilds))


_COMPARED = ("name", "description", "type", "required", "choices", "autocomplete", "min_value", "max_value",
             "min_length", "max_length", "channel_types", "default_member_permissions", "nsfw")


def command_signature(commands: list[dict[str, Any]]) -> list[Any]:
    """What of a list of commands matters for a re-sync, comparable between our tree's payload and
    Discord's answer: names, descriptions and options (recursively); unset and empty are alike."""
    def norm(item: dict[str, Any]) -> tuple:
        fields = tuple(sorted((key, _plain(item.get(key))) for key in _COMPARED if item.get(key) not in (None, [], False)))
        return fields + (tuple(norm(o) for o in item.get("options") or ()),)

    return sorted(norm(c) for c in commands)


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(sorted((_plain(v) for v in value), key=repr))
    if isinstance(value, dict):
        return tuple(sorted((k, _plain(v)) for k, v in value.items() if not k.endswith("localizations")))
    return value if isinstance(value, bool) else str(value)   # Discord sends some numbers as strings


class ShardedKibitzBot(KibitzBot, commands.AutoShardedBot):
    """The same bot over several shards in one process (shard_count, and shard_ids for some)."""


def create_bot(service: GameService, *, sync: bool = True, config: DiscordConfig | None = None,
               **options: Any) -> KibitzBot:
    """Build the bot. `options` go to discord.py's Client (e.g. guild_ready_timeout); with
    `shard_count` (and `shard_ids`) it runs those shards in this process."""
    config = config or DiscordConfig.from_app_config(load_config())
    config.apply()
    options.setdefault("dev_guild", config.dev_guild)
    options.setdefault("engine_workers", config.engine_workers)
    options.setdefault("engine_nodes", config.engine_nodes)
    options.setdefault("stockfish", config.stockfish)
    if options.get("shard_count") is not None:
        return ShardedKibitzBot(service, sync=sync, **options)
    return KibitzBot(service, sync=sync, **options)


def shard_options(cfg: Config) -> dict[str, Any]:
    """discord.py's shard settings from KIBITZ_SHARD_COUNT and KIBITZ_SHARD_IDS."""
    if cfg.shard_count is None:
        return {}
    options: dict[str, Any] = {"shard_count": cfg.shard_count}
    if cfg.shard_ids is not None:
        options["shard_ids"] = list(cfg.shard_ids)
    return options


def service_options(cfg: Config) -> dict[str, Any]:
    """The service's settings from bot.config (deadlines and challenge expiry)."""
    return {"challenge_ttl": cfg.challenge_ttl, "move_deadline": cfg.move_deadline}


def run(target: Config | str, service: GameService | None = None, **options: Any) -> None:
    """Run the bot until interrupted (blocking).

    ``run(cfg)`` with bot.config's Config (as ``python -m bot`` does) opens the store at
    cfg.db_path (SQLite or PostgreSQL), builds the service and runs the configured shards;
    ``run(token, service)`` uses the given service and takes the endpoints from bot.config.
    """
    token: str | None
    cfg = load_config() if isinstance(target, str) else target
    token = target if isinstance(target, str) else target.token
    endpoints = DiscordConfig.from_app_config(cfg)
    if not isinstance(target, str):
        options = {**shard_options(target), **options}
    if not token:
        raise ValueError("No Discord token given")
    db_path = None if isinstance(target, str) else cfg.db_path
    asyncio.run(_serve(token, service, endpoints, db_path, options, service_options(cfg), cfg.store_options))


async def _serve(token: str, service: GameService | None, endpoints: DiscordConfig, db_path: str | None,
                 options: dict[str, Any], service_settings: dict[str, Any] | None = None,
                 store_options: dict[str, Any] | None = None) -> None:
    store = None
    if service is None:
        store = await open_store(db_path or "kibitz.sqlite3", **(store_options or {}))
        service = GameService(store, **(service_settings or {}))
    try:
        async with create_bot(service, config=endpoints, **options) as bot:
            await bot.serve(token)
    finally:
        if store is not None:
            await store.close()
