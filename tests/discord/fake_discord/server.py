"""The stand-in itself: one aiohttp server on 127.0.0.1 serving the gateway and the REST API."""
from __future__ import annotations

import asyncio
import collections
from typing import Any, Self

from aiohttp import web

from .constants import ADMINISTRATOR, ALL_PERMISSIONS, MANAGE_MESSAGES, MANAGE_THREADS, MEMBER_PERMISSIONS
from .driving import Driving


class FakeDiscord(Driving):
    """The stand-in, its layers in one: the state each layer declares is set here, in one order (the ids
    it mints depend on it)."""
    _runner: web.AppRunner | None

    def __init__(self, *, commands: list[dict[str, Any]] | None = None,
                 guild_commands: dict[str, list[dict[str, Any]]] | None = None) -> None:
        self._last_id = 0
        self.callback_window = None
        self.ready = asyncio.Event()
        self._ws = None
        self._tasks = set()
        self.app_id = str(self._next_id())
        self.bot_user = self._user("Kibitz", bot=True, user_id=self.app_id)
        self.guild_id = str(self._next_id())
        self.channel_id = str(self._next_id())
        self.channels = {self.channel_id: self._text_channel(self.channel_id, "chess")}
        self.threads = {}
        self.dms = {}
        self.channel_patches = []
        self.roles = {}
        self._add_role_object(self.guild_id, "@everyone", MEMBER_PERMISSIONS, position=0)
        self.admin_role = self.add_role("Admin", ADMINISTRATOR)
        self.moderator_role = self.add_role("Moderator", MANAGE_THREADS | MANAGE_MESSAGES)
        self.bot_role = self.add_role("Kibitz", ALL_PERMISSIONS & ~ADMINISTRATOR)   # the bot's own, managed
        self.roles[self.bot_role].update(managed=True, tags={"bot_id": self.app_id})
        self._member_roles = {}
        self._member_permissions = {}
        self.members = []
        self.alice = self.add_member("alice", roles=[self.admin_role])     # the server owner
        self.bob = self.add_member("bob")
        self.carol = self.add_member("carol")
        self.moderator = self.add_member("mod", roles=[self.moderator_role])
        self.session_id = "fake-session"

        self.requests = []
        self.commands = [self._command(c) for c in commands or []]
        self.command_syncs = 0
        self.guild_commands = {}
        for guild_id, cmds in (guild_commands or {}).items():
            self.guild_commands[guild_id] = [self._command(c, guild_id) for c in cmds]
        self.guild_command_syncs = collections.Counter()
        self.identify = None
        self.gateway_query = {}
        self.heartbeats = 0
        self.interactions = {}
        self.messages = {}
        self.unhandled = []
        self.channel_messages = []
        self.channel_edits = []
        self.deleted_messages = []
        self.deleted_threads = []
        self.faults = []
        self._nonces = {}
        self._posted = []
        self._threads_denied = set()
        self._dms_denied = set()

        self._seq = 0
        self._runner = None
        self.port = None

    # -- lifecycle ----------------------------------------------------------------------------
    async def start(self) -> Self:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", self.API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def close(self) -> None:
        if self._tasks:    # dispatches still on their way
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def wait_ready(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self.ready.wait(), timeout)
