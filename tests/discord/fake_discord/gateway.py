"""The gateway: a websocket speaking JSON text frames (HELLO, heartbeat ACK, IDENTIFY -> READY +
GUILD_CREATE, RESUME) and the events dispatched to the bot as things change."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web


class Gateway:
    API_PREFIX = "/api/v10"
    port: int | None
    ready: asyncio.Event
    session_id: str
    identify: dict[str, Any] | None
    gateway_query: dict[str, str]
    heartbeats: int
    _ws: web.WebSocketResponse | None
    _tasks: set[asyncio.Task[None]]
    _seq: int
    # who the bot is, and where (the guild model's)
    app_id: str
    guild_id: str
    bot_user: dict[str, Any]

    def _guild(self) -> dict[str, Any]:
        """The guild as GUILD_CREATE carries it."""
        raise NotImplementedError

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- gateway ------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._ws = ws
        self.gateway_query = dict(request.query)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op = frame.get("op")
            if op == 1:       # heartbeat
                self.heartbeats += 1
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:     # identify
                self.identify = frame["d"]
                await self._dispatch("READY", {
                    "v": 10, "user": self.bot_user, "session_id": self.session_id,
                    "resume_gateway_url": self.gateway_url, "guilds": [{"id": self.guild_id, "unavailable": True}],
                    "application": {"id": self.app_id, "flags": 0}, "private_channels": [], "relationships": [],
                })
                await self._dispatch("GUILD_CREATE", self._guild())
                self.ready.set()
            elif op == 6:     # resume
                await self._dispatch("RESUMED", {})
        return ws

    async def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        if self._ws is None or self._ws.closed:
            raise RuntimeError("the bot is not connected to the fake gateway")
        self._seq += 1
        await self._ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})


    def _later(self, event: str, data: Callable[[], dict[str, Any]]) -> None:
        """Dispatch `event` now if the bot is connected (else GUILD_CREATE will carry the change)."""
        if self._ws is not None and not self._ws.closed and self.ready.is_set():
            task = asyncio.get_running_loop().create_task(self._dispatch(event, data()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
