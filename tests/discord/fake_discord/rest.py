"""The REST API under /api/v10: every request recorded and checked against Discord's limits,
then answered (log-in, gateway, command syncs, users, DMs) or handed to its routes."""
from __future__ import annotations

import collections
import json
from typing import Any

from aiohttp import web

from .channels import Channels
from .log import Request
from .shapes import Upload, _embed_refused, _json, _mentions_refused, _multipart


class Rest(Channels):
    command_syncs: int
    guild_command_syncs: collections.Counter[str]

    async def _read_body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        raw = await request.read()
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/"):
            return _multipart(raw, content_type)
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode(errors="replace"), []

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        record = Request(request.method, path, dict(request.query), body, files)
        self.requests.append(record)
        record.fault = self._fault_for(request.method, path)
        if record.fault is not None and not record.fault.after:
            response = self._spoiled(request, record.fault)
        else:
            response = self._answer(request.method, path, request.query, record, body, files)
            if record.fault is not None:
                response = self._spoiled(request, record.fault)
        record.status = response.status if record.fault is None or record.fault.status is not None else 0
        return response

    def _answer(self, method: str, path: str, query: Any, record: Request, body: Any,
                files: list[Upload]) -> web.Response:
        parts = path.strip("/").split("/")
        if isinstance(body, dict) and (refused := _mentions_refused((body.get("data") or body).get("allowed_mentions"))):
            return _json({"message": "Invalid Form Body", "code": 50035, "errors": {"allowed_mentions": {"_errors": [
                {"code": "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", "message": refused}]}}}, status=400)
        if isinstance(body, dict) and (too_long := _embed_refused((body.get("data") or body).get("embeds"))):
            return _json({"message": "Invalid Form Body", "code": 50035, "errors": {"embeds": {"_errors": [
                {"code": "BASE_TYPE_MAX_LENGTH", "message": too_long}]}}}, status=400)
        if method == "GET" and path == "/users/@me":
            return _json(self.bot_user)
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(self._application())
        if method == "GET" and path in ("/gateway", "/gateway/bot"):
            return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": {
                "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})
        if parts[:1] == ["applications"] and parts[2:3] == ["commands"] and len(parts) == 3:
            if method == "PUT":
                self.command_syncs += 1
                self.commands = [self._command(c) for c in body or []]
            return _json(self.commands)
        if parts[:1] == ["applications"] and parts[2:3] == ["guilds"] and parts[4:] == ["commands"]:
            guild_id = parts[3]
            if method == "PUT":
                self.guild_command_syncs[guild_id] += 1
                self.guild_commands[guild_id] = [self._command(c, guild_id) for c in body or []]
            return _json(self.guild_commands.get(guild_id, []))
        if parts[:1] == ["interactions"] and parts[-1] == "callback":
            return self._callback(parts[1], parts[2], body, files)
        if parts[:1] == ["webhooks"] and len(parts) >= 3:
            return self._webhook(method, parts, query, body, files)
        if parts[:1] == ["users"] and len(parts) == 2 and method == "GET":
            user = next((u for u in (*self.members, self.bot_user) if u["id"] == parts[1]), None)
            return _json(user) if user is not None else _json({"message": "Unknown User", "code": 10013}, status=404)
        if parts[:3] == ["users", "@me", "channels"] and method == "POST":
            recipient = next((u for u in self.members if u["id"] == str((body or {}).get("recipient_id"))), None)
            if recipient is None:
                return _json({"message": "Unknown User", "code": 10013}, status=404)
            return _json(self.channel_object(self.dm_channel_of(recipient)))
        if parts[:1] == ["channels"] and len(parts) >= 2:
            if not self._knows(parts[1]):
                return _json({"message": "Unknown Channel", "code": 10003}, status=404)
            answer = self._channel_route(method, parts, body or {}, files)
            if answer is not None:
                return answer
        self.unhandled.append(record)
        return self._not_found()
