"""A local stand-in for Discord's REST API and gateway, for end-to-end tests of the bot.

One aiohttp server on 127.0.0.1 (random free port) serves both:

- the gateway at ``/gateway`` (a websocket speaking JSON text frames): HELLO, heartbeat ACK,
  IDENTIFY -> READY + GUILD_CREATE (one guild, one text channel, a few members), and
  INTERACTION_CREATE dispatches for slash commands, autocomplete and button clicks;
- the REST API under ``/api/v10``: the calls discord.py makes to log in, sync app commands and
  answer interactions (callbacks, followups, edits of @original), each recorded with its JSON
  body and any uploaded files (bytes, filename, description).

Tests drive it with ``await fake.slash(...)``, ``await fake.click(...)``, ``await fake.select(...)``
(a string select menu, component type 3 with its ``values``) and ``await fake.autocomplete(...)``; each returns an :class:`InteractionLog` of what the bot sent
back for that interaction, in order. Nothing here touches the internet.

Discord's first-followup rule is modelled: after a deferred "thinking" response (type 5) the
first followup replaces the loading message and keeps the visibility chosen at defer time
(its own ephemeral flag is ignored), unless the bot deleted the loading message first.

Bot messages in the channel (``POST /channels/{id}/messages``) are kept in
``fake.channel_messages``; a repeated ``nonce`` with ``enforce_nonce`` returns the first message,
as Discord does, instead of posting again.

Faults: ``fake.rate_limit("answer", retry_after=0.2)``, ``fake.server_error("followup")``,
``fake.unknown_webhook("answer")``, ``fake.disconnect("answer", after=True)`` or the general
``fake.inject(...)`` answer the next N requests to a route (a name in ``ROUTES`` or
``"METHOD /path-regex"``) the way Discord does when it fails. Every REST request is recorded in
``fake.requests`` with the status it got and when it arrived; ``fake.requests_to(route)`` filters.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Self

from aiohttp import BodyPartReader, WSMsgType, web

EPHEMERAL = 1 << 6
LOADING = 1 << 7

# interaction callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

_OPTION_STRING, _OPTION_INTEGER, _OPTION_BOOLEAN, _OPTION_USER, _OPTION_NUMBER = 3, 4, 5, 6, 10


def _json(data: Any, status: int = 200) -> web.Response:
    """A JSON response with the exact Content-Type discord.py checks for (no charset suffix)."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Upload:
    filename: str
    data: bytes
    content_type: str | None
    description: str | None = None


@dataclass
class Sent:
    """One thing the bot sent about an interaction."""
    kind: str                 # "callback", "followup", "edit", "delete", "channel_edit"
    body: dict[str, Any]      # JSON body (payload_json for multipart)
    files: list[Upload] = field(default_factory=list)
    message: dict[str, Any] | None = None   # the message it created or edited, as Discord returns it
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        extra = f" type={self.type}" if self.kind == "callback" else ""
        files = f" files={[f.filename for f in self.files]}" if self.files else ""
        return f"<Sent {self.kind}{extra} ephemeral={self.ephemeral} content={self.content[:80]!r}{files}>"

    @property
    def type(self) -> int | None:
        """Callback type (callbacks only)."""
        return self.body.get("type") if self.kind == "callback" else None

    @property
    def data(self) -> dict[str, Any]:
        return (self.body.get("data") or {}) if self.kind == "callback" else self.body

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def ephemeral(self) -> bool:
        """Whether the user alone sees it (after Discord's first-followup rule)."""
        if self.message is not None:
            return bool(self.message.get("flags", 0) & EPHEMERAL)
        return bool(self.data.get("flags", 0) & EPHEMERAL)


@dataclass
class InteractionLog:
    """Everything the bot sent back for one interaction, in arrival order."""
    id: str
    token: str
    type: int
    payload: dict[str, Any]
    sent: list[Sent] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    original: dict[str, Any] | None = None      # the @original message, if any
    original_deleted: bool = False

    @property
    def callbacks(self) -> list[Sent]:
        return [s for s in self.sent if s.kind == "callback"]

    @property
    def followups(self) -> list[Sent]:
        return [s for s in self.sent if s.kind == "followup"]

    @property
    def messages(self) -> list[Sent]:
        """What the user ends up reading: immediate replies, followups and edits of @original."""
        return [s for s in self.sent if s.kind in ("followup", "edit")
                or (s.kind == "callback" and s.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE))]

    @property
    def reply(self) -> Sent:
        """The last message the user reads (raises if none)."""
        if not self.messages:
            raise AssertionError(f"no reply to interaction {self.id}: {self.sent!r}")
        return self.messages[-1]

    @property
    def text(self) -> str:
        return "\n".join(s.content for s in self.messages)

    @property
    def deferred(self) -> bool:
        return bool(self.callbacks) and self.callbacks[0].type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def choices(self) -> list[dict[str, Any]]:
        for s in self.callbacks:
            if s.type == AUTOCOMPLETE_RESULT:
                return s.data.get("choices", [])
        raise AssertionError(f"no autocomplete answer to interaction {self.id}: {self.sent!r}")

    def is_answered(self) -> bool:
        """A final answer arrived: a message or autocomplete result, or after a defer a followup or
        (after a "thinking" defer) an edit of the loading message."""
        for s in self.sent:
            if s.kind == "callback" and s.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL):
                return True
            if s.kind == "followup":
                return True
            if s.kind == "edit" and self.callbacks and self.callbacks[0].type == DEFERRED_CHANNEL_MESSAGE:
                return True
        return False

    @property
    def answers(self) -> list[Sent]:
        """What came after the defer: followups and edits of @original."""
        return [s for s in self.sent if s.kind in ("followup", "edit")]

    def components(self) -> list[dict[str, Any]]:
        """Every component (flattened) in the messages the bot sent for this interaction."""
        out: list[dict[str, Any]] = []
        for s in self.messages:
            for row in s.data.get("components") or []:
                out.extend(row.get("components", [row]))
        return out

    async def wait(self, predicate: Callable[[InteractionLog], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate(self):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out waiting on interaction {self.id}; bot sent {self.sent!r}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass


@dataclass
class Request:
    method: str
    path: str          # without the /api/v10 prefix
    query: dict[str, str]
    body: Any
    files: list[Upload]
    status: int = 0    # what the fake answered; 0 while unanswered or when the connection was dropped
    fault: Fault | None = None
    at: float = field(default_factory=time.monotonic)


# Routes by name, as (method regex, path regex without the /api/v10 prefix).
ROUTES: dict[str, tuple[str, str]] = {
    "callback": ("POST", r"/interactions/[^/]+/[^/]+/callback"),
    # the answer after a defer, however it is sent: a followup, or an edit of the loading message
    "answer": ("POST|PATCH", r"/webhooks/[^/]+/[^/]+(/messages/@original)?"),
    "followup": ("POST", r"/webhooks/[^/]+/[^/]+"),
    "edit_original": ("PATCH", r"/webhooks/[^/]+/[^/]+/messages/@original"),
    "delete_original": ("DELETE", r"/webhooks/[^/]+/[^/]+/messages/@original"),
    "get_original": ("GET", r"/webhooks/[^/]+/[^/]+/messages/@original"),
    "channel_message": ("POST", r"/channels/[^/]+/messages"),
    "edit_channel_message": ("PATCH", r"/channels/[^/]+/messages/[^/]+"),
}


def _route(route: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    method, pattern = ROUTES[route] if route in ROUTES else route.split(" ", 1)
    return re.compile(method.upper()), re.compile(pattern)


@dataclass
class Fault:
    """Answer requests to one route with a failure instead of (or, with `after`, after) the real answer."""
    method: re.Pattern[str]
    pattern: re.Pattern[str]
    status: int | None                 # None: drop the connection without an answer
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    times: int | None = 1              # how many requests to spoil; None: until cleared
    after: bool = False                # do the work first (the message exists), then fail: a lost answer
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (self.times is None or self.hits < self.times) and self.method.fullmatch(method) is not None \
            and self.pattern.fullmatch(path) is not None


class FakeDiscord:
    API_PREFIX = "/api/v10"

    def __init__(self) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.app_id = str(self._next_id())
        self.bot_user = self._user("Kibitz", bot=True, user_id=self.app_id)
        self.guild_id = str(self._next_id())
        self.channel_id = str(self._next_id())
        self.alice = self._user("alice")
        self.bob = self._user("bob")
        self.carol = self._user("carol")
        self.members = [self.alice, self.bob, self.carol]
        self.session_id = "fake-session"

        self.requests: list[Request] = []                  # every REST call, in order
        self.commands: list[dict[str, Any]] = []           # global app commands, as last synced
        self.command_syncs = 0
        self.identify: dict[str, Any] | None = None
        self.gateway_query: dict[str, str] = {}
        self.heartbeats = 0
        self.interactions: dict[str, InteractionLog] = {}  # by token
        self.messages: dict[str, dict[str, Any]] = {}      # every message the bot created, by id
        self.unhandled: list[Request] = []                 # REST calls this fake does not know
        self.channel_messages: list[Sent] = []             # messages the bot posted in channels itself
        self.faults: list[Fault] = []
        self._nonces: dict[tuple[str, str], dict[str, Any]] = {}

        self.ready = asyncio.Event()
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

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
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def wait_ready(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self.ready.wait(), timeout)

    # -- model --------------------------------------------------------------------------------
    def _next_id(self) -> int:
        return next(self._ids)

    def _user(self, name: str, *, bot: bool = False, user_id: str | None = None) -> dict[str, Any]:
        return {"id": user_id or str(self._next_id()), "username": name, "global_name": name,
                "discriminator": "0", "avatar": None, "bot": bot, "public_flags": 0}

    def _member(self, user: dict[str, Any], *, with_user: bool = True) -> dict[str, Any]:
        member = {"roles": [], "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                  "flags": 0, "nick": None, "avatar": None, "pending": False,
                  "permissions": "2251799813685247"}
        if with_user:
            member["user"] = user
        return member

    def _channel(self) -> dict[str, Any]:
        return {"id": self.channel_id, "type": 0, "name": "chess", "guild_id": self.guild_id, "position": 0,
                "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
                "last_message_id": None, "rate_limit_per_user": 0}

    def _guild(self) -> dict[str, Any]:
        everyone = {"id": self.guild_id, "name": "@everyone", "permissions": "2251799813685247", "position": 0,
                    "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        members = [self._member(u) for u in (*self.members, self.bot_user)]
        return {"id": self.guild_id, "name": "Kibitz Test Club", "icon": None, "owner_id": self.alice["id"],
                "roles": [everyone], "emojis": [], "stickers": [], "features": [], "channels": [self._channel()],
                "threads": [], "members": members, "member_count": len(members), "voice_states": [],
                "presences": [], "large": False, "unavailable": False, "joined_at": "2024-01-01T00:00:00+00:00",
                "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
                "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0, "preferred_locale": "en-US",
                "system_channel_id": None, "afk_channel_id": None, "afk_timeout": 300,
                "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": []}

    def _application(self) -> dict[str, Any]:
        return {"id": self.app_id, "name": "Kibitz", "icon": None, "description": "", "summary": "",
                "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                "owner": self.alice, "team": None, "flags": 0, "rpc_origins": [],
                "interactions_endpoint_url": None, "bot": self.bot_user}

    def _message(self, body: dict[str, Any], files: list[Upload], *, flags: int = 0,
                 message_id: str | None = None, base: dict[str, Any] | None = None) -> dict[str, Any]:
        message = dict(base) if base else {
            "id": message_id or str(self._next_id()), "channel_id": self.channel_id, "guild_id": self.guild_id,
            "author": self.bot_user, "content": "", "timestamp": _now_iso(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 20, "flags": 0, "components": [],
            "webhook_id": self.app_id, "application_id": self.app_id,
        }
        if base:
            message["edited_timestamp"] = _now_iso()
        for key in ("content", "embeds", "components"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        message["flags"] = flags
        if "attachments" in body or files:
            attachments = []
            by_index = {str(a.get("id")): a for a in body.get("attachments") or []}
            for index, upload in enumerate(files):
                meta = by_index.get(str(index), {})
                upload.description = meta.get("description", upload.description)
                attachments.append({"id": str(self._next_id()), "filename": upload.filename, "size": len(upload.data),
                                    "url": f"http://127.0.0.1:{self.port}/attachments/{upload.filename}",
                                    "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{upload.filename}",
                                    "content_type": upload.content_type, "description": upload.description})
            kept = [a for a in message.get("attachments", []) if str(a["id"]) in by_index]
            message["attachments"] = kept + attachments
        self.messages[message["id"]] = message
        return message

    # -- faults -------------------------------------------------------------------------------
    def inject(self, route: str, *, status: int | None, body: Any = None, headers: dict[str, str] | None = None,
               times: int | None = 1, after: bool = False) -> Fault:
        """Spoil the next `times` requests to `route` (None: until clear_faults)."""
        method, pattern = _route(route)
        fault = Fault(method, pattern, status, body, dict(headers or {}), times, after)
        self.faults.append(fault)
        return fault

    def rate_limit(self, route: str, retry_after: float, *, times: int | None = 1, is_global: bool = False,
                   via: bool = True) -> Fault:
        """429 as Discord sends it: Retry-After header, retry_after in the JSON body, and the `Via`
        header of Discord's proxy (without it, clients take the 429 for a Cloudflare ban)."""
        headers = {"Retry-After": f"{retry_after:g}", "X-RateLimit-Scope": "global" if is_global else "user",
                   "X-RateLimit-Global": "true" if is_global else "false"}
        if via:
            headers["Via"] = "1.1 google"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return self.inject(route, status=429, body=body, headers=headers, times=times)

    def server_error(self, route: str, *, times: int | None = 1, status: int = 500, after: bool = False) -> Fault:
        return self.inject(route, status=status, body={"message": "500: Internal Server Error", "code": 0},
                           times=times, after=after)

    def unknown_webhook(self, route: str = "answer", *, times: int | None = None) -> Fault:
        """404 Unknown Webhook: what Discord answers once an interaction token is dead."""
        return self.inject(route, status=404, body={"message": "Unknown Webhook", "code": 10015}, times=times)

    def disconnect(self, route: str, *, times: int | None = 1, after: bool = False) -> Fault:
        """Close the connection without an answer (with `after`: once the request has taken effect)."""
        return self.inject(route, status=None, times=times, after=after)

    def clear_faults(self) -> None:
        self.faults.clear()

    def requests_to(self, route: str) -> list[Request]:
        method, pattern = _route(route)
        return [r for r in self.requests if method.fullmatch(r.method) and pattern.fullmatch(r.path)]

    def _fault_for(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path):
                fault.hits += 1
                return fault
        return None

    @staticmethod
    def _spoiled(request: web.Request, fault: Fault) -> web.Response:
        if fault.status is None:
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=499)   # never reaches the client: the connection is gone
        body = json.dumps(fault.body).encode() if fault.body is not None else b""
        headers = {"Content-Type": "application/json", **fault.headers}
        return web.Response(body=body, status=fault.status, headers=headers)

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

    # -- REST ---------------------------------------------------------------------------------
    async def _read_body(self, request: web.Request) -> tuple[Any, list[Upload]]:
        files: list[Upload] = []
        if request.content_type.startswith("multipart/"):
            body: Any = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):   # Discord never nests multipart bodies
                    continue
                data = await part.read()
                if part.name == "payload_json":
                    body = json.loads(data)
                elif part.filename is not None:
                    files.append(Upload(part.filename, bytes(data), part.headers.get("Content-Type")))
            return body, files
        raw = await request.read()
        if not raw:
            return None, files
        try:
            return json.loads(raw), files
        except ValueError:
            return raw.decode(errors="replace"), files

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
        if parts[:1] == ["applications"] and "guilds" in parts and parts[-1] == "commands":
            return _json([self._command(c) for c in body or []] if method == "PUT" else [])
        if parts[:1] == ["interactions"] and parts[-1] == "callback":
            return self._callback(parts[1], parts[2], body, files)
        if parts[:1] == ["webhooks"] and len(parts) >= 3:
            return self._webhook(method, parts, query, body, files)
        if parts[:1] == ["channels"] and parts[2:3] == ["messages"] and len(parts) == 3 and method == "POST":
            return self._channel_message(parts[1], body or {}, files)
        if parts[:1] == ["channels"] and parts[2:3] == ["messages"] and len(parts) == 4 and method == "PATCH":
            message = self.messages.get(parts[3])
            if message is None:
                return self._not_found()
            edited = self._message(body or {}, files, flags=message.get("flags", 0), base=message)
            return _json(edited)
        self.unhandled.append(record)
        return self._not_found()

    def _channel_message(self, channel_id: str, body: dict[str, Any], files: list[Upload]) -> web.Response:
        if channel_id != self.channel_id:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce") and (channel_id, str(nonce)) in self._nonces:
            return _json(self._nonces[(channel_id, str(nonce))])   # Discord: same nonce, same message
        message = self._message(body, files, flags=body.get("flags", 0) or 0)
        message.pop("webhook_id", None)
        message.update(type=0, nonce=nonce)
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[(channel_id, str(nonce))] = message
        self.channel_messages.append(Sent("channel_message", body, files, message))
        return _json(message)

    @staticmethod
    def _not_found() -> web.Response:
        return _json({"message": "Unknown", "code": 10000}, status=404)

    def _command(self, data: dict[str, Any]) -> dict[str, Any]:
        known = next((c for c in self.commands if c["name"] == data["name"]), None)
        command = dict(data)
        command.update(id=known["id"] if known else str(self._next_id()), application_id=self.app_id,
                       version=str(self._next_id()))
        command.setdefault("type", 1)
        command.setdefault("description", "")
        return command

    def _log(self, token: str) -> InteractionLog | None:
        return self.interactions.get(token)

    def _add(self, log: InteractionLog, sent: Sent) -> None:
        log.sent.append(sent)
        log.changed.set()

    def _callback(self, interaction_id: str, token: str, body: dict[str, Any], files: list[Upload]) -> web.Response:
        log = self._log(token)
        if log is None or log.id != interaction_id:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        if log.callbacks:
            return _json({"message": "Interaction has already been acknowledged.", "code": 40060},
                                     status=400)
        sent = Sent("callback", body, files)
        kind = body.get("type")
        data = body.get("data") or {}
        flags = data.get("flags", 0) or 0
        answer: dict[str, Any] = {"interaction": {"id": interaction_id, "type": log.type}}
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            if kind == DEFERRED_CHANNEL_MESSAGE:
                flags |= LOADING
            log.original = sent.message = self._message(data, files, flags=flags)
            answer["interaction"].update(response_message_id=log.original["id"],
                                         response_message_loading=kind == DEFERRED_CHANNEL_MESSAGE,
                                         response_message_ephemeral=bool(flags & EPHEMERAL))
            answer["resource"] = {"type": kind, "message": log.original}
        elif kind == UPDATE_MESSAGE and log.original is not None:
            log.original = sent.message = self._message(data, files, flags=log.original.get("flags", 0),
                                                        base=log.original)
            answer["resource"] = {"type": kind, "message": log.original}
        else:
            answer["resource"] = {"type": kind}
        self._add(log, sent)
        return _json(answer)

    def _webhook(self, method: str, parts: list[str], query: Any, body: Any, files: list[Upload]) -> web.Response:
        app_id, token = parts[1], parts[2]
        log = self._log(token)
        if app_id != self.app_id or log is None:
            return _json({"message": "Unknown Webhook", "code": 10015}, status=404)
        body = body or {}
        if len(parts) == 3 and method == "POST":          # followup
            if not log.callbacks:
                return _json({"message": "Unknown interaction", "code": 10062}, status=404)
            original = log.original
            if original is not None and not log.original_deleted and original.get("flags", 0) & LOADING:
                # Discord: the first followup resolves the loading message, keeping its visibility.
                flags = original.get("flags", 0) & ~LOADING
                log.original = message = self._message(body, files, flags=flags, base=original)
            else:
                message = self._message(body, files, flags=body.get("flags", 0) or 0)
            self._add(log, Sent("followup", body, files, message))
            return _json(message)
        if len(parts) == 5 and parts[3] == "messages":
            target_id = parts[4]
            if target_id == "@original":
                target = log.original
            else:
                target = self.messages.get(target_id)
            if target is None or (target_id == "@original" and log.original_deleted):
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            if method == "GET":
                return _json(target)
            if method == "DELETE":
                if target_id == "@original":
                    log.original_deleted = True
                self._add(log, Sent("delete", {"message_id": target["id"]}))
                return web.Response(status=204)
            if method == "PATCH":
                flags = target.get("flags", 0) & ~LOADING
                message = self._message(body, files, flags=flags, base=target)
                if target_id == "@original" or target is log.original:
                    log.original = message
                self._add(log, Sent("edit", body, files, message))
                return _json(message)
        self.unhandled.append(Request(method, "/" + "/".join(parts), dict(query), body, files))
        return self._not_found()

    # -- driving the bot ------------------------------------------------------------------------
    def _interaction(self, kind: int, user: dict[str, Any], data: dict[str, Any],
                     message: dict[str, Any] | None = None) -> InteractionLog:
        interaction_id = str(self._next_id())
        token = f"tok-{interaction_id}"
        payload: dict[str, Any] = {
            "id": interaction_id, "application_id": self.app_id, "type": kind, "token": token, "version": 1,
            "guild_id": self.guild_id, "channel_id": self.channel_id, "channel": self._channel(),
            "member": self._member(user), "locale": "en-US", "guild_locale": "en-US",
            "app_permissions": "2251799813685247", "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": {"0": self.guild_id}, "context": 0, "data": data,
        }
        if message is not None:
            payload["message"] = message
        log = InteractionLog(interaction_id, token, kind, payload)
        self.interactions[token] = log
        return log

    def _command_named(self, name: str) -> dict[str, Any]:
        for command in self.commands:
            if command["name"] == name:
                return command
        raise AssertionError(f"/{name} was never synced; synced: {[c['name'] for c in self.commands]}")

    def _options(self, command: dict[str, Any], values: dict[str, Any],
                 focused: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        declared = {o["name"]: o for o in command.get("options", [])}
        options: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in values.items():
            if name not in declared:
                raise AssertionError(f"/{command['name']} has no option {name!r}; it has {list(declared)}")
            kind = declared[name]["type"]
            if kind == _OPTION_USER and isinstance(value, dict):
                resolved.setdefault("users", {})[value["id"]] = value
                resolved.setdefault("members", {})[value["id"]] = self._member(value, with_user=False)
                value = value["id"]
            option = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    async def _run(self, log: InteractionLog, timeout: float, wait: bool = True) -> InteractionLog:
        await self._dispatch("INTERACTION_CREATE", log.payload)
        if wait:
            await log.wait(InteractionLog.is_answered, timeout)
        return log

    async def wait_until(self, predicate: Callable[[], object], timeout: float = 5.0) -> None:
        """Poll until predicate() is true (for answers that do not come through the interaction)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; requests: {[(r.method, r.path, r.status) for r in self.requests]}")
            await asyncio.sleep(0.01)

    async def slash(self, name: str, options: dict[str, Any] | None = None, *, user: dict[str, Any],
                    timeout: float = 5.0, wait: bool = True) -> InteractionLog:
        """Run /name with options (user options take a user dict); wait for the bot's answer
        (with wait=False, return as soon as the interaction is dispatched)."""
        command = self._command_named(name)
        opts, resolved = self._options(command, options or {})
        data = {"id": command["id"], "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return await self._run(self._interaction(2, user, data), timeout, wait)

    async def autocomplete(self, name: str, options: dict[str, Any], focused: str, *, user: dict[str, Any],
                           timeout: float = 5.0) -> list[dict[str, Any]]:
        """Type into option `focused` of /name; return the choices the bot offered."""
        command = self._command_named(name)
        opts, resolved = self._options(command, options, focused)
        data = {"id": command["id"], "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        log = await self._run(self._interaction(4, user, data), timeout)
        return log.choices

    async def click(self, custom_id: str, *, user: dict[str, Any], message: dict[str, Any] | None = None,
                    timeout: float = 5.0, wait: bool = True) -> InteractionLog:
        """Click the button with custom_id on `message` (default: the latest message carrying it)."""
        if message is None:
            message = self.message_with(custom_id)
        data = {"custom_id": custom_id, "component_type": 2}
        log = self._interaction(3, user, data, message=message)
        log.original = message   # for a component interaction, @original is the clicked message
        return await self._run(log, timeout, wait)

    async def select(self, custom_id: str, values: list[str], *, user: dict[str, Any],
                     message: dict[str, Any] | None = None, timeout: float = 5.0,
                     wait: bool = True) -> InteractionLog:
        """Pick `values` in the string select with custom_id on `message` (default: the latest
        message carrying it): a component interaction of type 3 with its values."""
        if message is None:
            message = self.message_with(custom_id)
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        log = self._interaction(3, user, data, message=message)
        log.original = message
        return await self._run(log, timeout, wait)

    def message_with(self, custom_id: str) -> dict[str, Any]:
        for message in reversed(list(self.messages.values())):
            for row in message.get("components") or []:
                for component in row.get("components", [row]):
                    if component.get("custom_id") == custom_id:
                        return message
        raise AssertionError(f"no message carries a component {custom_id!r}")
