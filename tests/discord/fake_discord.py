"""A local stand-in for Discord's REST API and gateway, for end-to-end tests of the bot.

One aiohttp server on 127.0.0.1 (random free port) serves both:

- the gateway at ``/gateway`` (a websocket speaking JSON text frames): HELLO, heartbeat ACK,
  IDENTIFY -> READY + GUILD_CREATE (one guild, its text channels, threads, roles and members),
  INTERACTION_CREATE dispatches for slash commands, autocomplete and button clicks, and
  CHANNEL_CREATE / THREAD_CREATE / THREAD_UPDATE / GUILD_MEMBER_ADD as things change;
- the REST API under ``/api/v10``: the calls discord.py makes to log in, sync app commands,
  answer interactions (callbacks, followups, edits of @original), post and edit messages, make
  threads and DMs, each recorded with its JSON body and any uploaded files (bytes, filename,
  description).

Tests drive it with ``await fake.slash(...)``, ``await fake.click(...)``, ``await fake.select(...)``
(a string select menu, component type 3 with its ``values``) and ``await fake.autocomplete(...)``; each returns an :class:`InteractionLog` of what the bot sent
back for that interaction, in order; ``await fake.nothing_more(user=...)`` proves that nothing else
was on its way (the requests during a later /help). Nothing here touches the internet. A channel option takes the channel's
id and comes with its partial channel in ``resolved``, as a user option comes with the user.

Discord's first-followup rule is modelled: after a deferred "thinking" response (type 5) the
first followup replaces the loading message and keeps the visibility chosen at defer time
(its own ephemeral flag is ignored), unless the bot deleted the loading message first.

Bot messages posted in any channel, thread or DM (``POST /channels/{id}/messages``) are kept in
``fake.channel_messages``; a repeated ``nonce`` with ``enforce_nonce`` returns the first message,
as Discord does, instead of posting again.

The guild
---------
One guild (``fake.guild_id``, owner ``alice``) with roles ``@everyone`` (the ordinary set,
``MEMBER_PERMISSIONS``: view, send, read history, embed, attach, react, use application
commands, create public/private threads, send in threads; no Manage anything), ``Admin``
(``fake.admin_role``, Administrator) and ``Moderator`` (``fake.moderator_role``: Manage Threads
and Manage Messages, not Manage Server). Members: ``fake.alice`` (owner, Admin: every
permission), ``fake.bob`` and ``fake.carol`` (ordinary), ``fake.moderator`` (user ``mod``,
Moderator). The bot has the managed role ``Kibitz`` (``fake.bot_role``: every permission but
Administrator, so channel overwrites apply to it). Interaction payloads carry each member's ``roles`` and ``permissions``, so the bot's
``interaction.permissions`` is right. ``fake.add_role(name, permissions) -> id`` and
``fake.add_member(name, permissions=None, roles=[role ids])`` add more (permissions default to
@everyone's plus the roles'; all of them with Administrator); added after the bot connected they
are dispatched (GUILD_ROLE_CREATE, GUILD_MEMBER_ADD). ``GET /users/{id}`` knows every member.

Channels, threads, DMs
----------------------
``fake.channel_id`` is the default text channel (``#chess``); ``fake.add_channel(name) -> id``
adds another (in GUILD_CREATE if added before the bot connects, else dispatched as
CHANNEL_CREATE: ``await fake.wait_until(lambda: bot.get_channel(int(cid)))``). ``fake.channels``
holds the text channels by id. ``slash``, ``click``, ``select`` and ``autocomplete`` take
``channel=<id>`` (a channel, thread or DM) and run the interaction there: ``channel_id``, a
``channel`` object of the right type and ``app_permissions`` for that channel; in a DM, no
``guild_id``, ``user`` instead of ``member`` and ``context`` 1. A click or select runs where its
message is (a button in a thread is clicked in the thread) unless ``channel`` says otherwise.
Messages record their ``channel_id`` (and ``guild_id`` outside DMs), so discord.py's
``Message.jump_url`` is right.

Threads: ``POST /channels/{id}/threads`` (``type`` 11 public or 12 private, the default;
``name``, ``auto_archive_duration``, ``invitable``) and ``POST /channels/{id}/messages/{mid}/threads``
(a public thread whose id is the message's, once per message) answer 201 with a thread channel
(type, parent_id, owner_id = the bot, thread_metadata, member_count...) and dispatch THREAD_CREATE.
``fake.threads`` maps id -> that thread plus ``"members"`` (user ids: the bot, then everyone added
with ``PUT /channels/{thread}/thread-members/{user}``; DELETE removes). ``GET /channels/{id}``
answers channels, threads and DMs (404 code 10003 for others); ``PATCH /channels/{id}`` renames,
archives, locks threads (or renames channels), dispatches THREAD_UPDATE / CHANNEL_UPDATE and is
recorded in ``fake.channel_patches`` as ``(id, body)``. ``DELETE /channels/{thread}`` removes a
thread when the bot has Manage Threads there (403 code 50013 otherwise, and for any channel that
is not a thread), dispatches THREAD_DELETE and keeps the thread in ``fake.deleted_threads``.
``fake.deny_threads(channel_id=None)``
(None: every channel, also those added later) puts a permission overwrite on the channel denying
the bot CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS and SEND_MESSAGES_IN_THREADS (dispatched
as CHANNEL_UPDATE, so ``channel.permissions_for(guild.me)`` agrees): thread creation there
answers 403 ``{"message": "Missing Permissions", "code": 50013}`` and ``app_permissions`` of
interactions in the channel and its threads lack them (``fake.app_permissions(channel_id)``).
Posting in a thread is allowed; a post unarchives an archived thread, unless it is also locked
(400, code 50083 "Thread is archived"). A private thread is seen by its members and by those with Manage
Threads only: running an interaction there as anyone else raises AssertionError (a test mistake,
as Discord would never send it). As on Discord, a bot message in a private thread that pings a
user (per its allowed_mentions) adds them to the thread.

``POST /channels/{id}/typing`` (the typing indicator) answers 204 with no body, as Discord does
outside slow mode; ``fake.requests_to("typing")`` lists them.

DMs: ``POST /users/@me/channels {recipient_id}`` answers the user's DM channel (type 1, the same
id every time; ``fake.dm_channel_of(user)`` gives it, creating it if need be).
``fake.deny_dms(user)``: posting there answers 403 code 50007 "Cannot send messages to this user".

``fake.messages_in(channel_id)`` lists, in order, as :class:`Sent`, the bot messages that appeared
in a channel, thread or DM: its own posts and the answers to interactions that ran there (an
immediate reply, followups, or the edit that replaced a "thinking" placeholder; not the
placeholder, not later edits; ephemeral ones included, see ``Sent.ephemeral``).

Messages and mentions
---------------------
Every message keeps ``content`` and the ``allowed_mentions`` of the body that created or last
edited it (``Sent.allowed_mentions`` gives a request's own); its ``mentions``, ``mention_roles``
and ``mention_everyone`` list who is really pinged: ``<@id>`` / ``<@&id>`` / ``@everyone`` in the
content that allowed_mentions lets through (all of them without allowed_mentions).
``GET``, ``PATCH`` and ``DELETE /channels/{id}/messages/{mid}`` work on stored messages of that
channel (404 code 10008 otherwise, and for an ephemeral message, which is no channel's); edits are
appended to ``fake.channel_edits`` as ``Sent("channel_edit", body, files, message after the edit)``,
deletions to ``fake.deleted_messages``. As Discord does, an edit of another user's message answers
403 code 50005, one in an archived and locked thread 400 code 50083, and any body whose
allowed_mentions both parses and lists users (or roles), or lists more than 100 or one twice, 400
code 50035.

Commands
--------
``PUT /applications/{app}/commands`` replaces the global commands (``fake.commands``, counted in
``fake.command_syncs``; a command keeps its id across syncs), GET answers them.
``PUT/GET /applications/{app}/guilds/{guild}/commands`` do the same per guild:
``fake.guild_commands[guild_id]``, ``fake.guild_command_syncs[guild_id]`` (a Counter).
``FakeDiscord(commands=[...], guild_commands={guild_id: [...]})`` starts with commands already
registered (Discord "already has these" before the bot starts). ``slash`` finds a command among
the global ones, then the default guild's. One FakeDiscord can serve several bot sessions in
turn (``running_bot`` twice): each connection gets HELLO, READY and GUILD_CREATE anew.

Faults
------
``fake.rate_limit("answer", retry_after=0.2)``, ``fake.server_error("followup")``,
``fake.unknown_webhook("answer")``, ``fake.disconnect("answer", after=True)`` or the general
``fake.inject(...)`` answer the next N requests to a route (a name in ``ROUTES`` or
``"METHOD /path-regex"``) the way Discord does when it fails; with ``seconds=S`` (e.g.
``fake.server_error("channel_message", status=503, seconds=3)``) every request to it for S
seconds. Every REST request is recorded in ``fake.requests`` with the status it got and when it
arrived; ``fake.requests_to(route)`` filters.
As Discord does, a message whose embeds total more than 6,000 characters (titles, descriptions,
fields, footers, authors) is refused with 400 code 50035; ``fake.refuse_token()`` answers the
bot's login 401, as for a token Discord does not know.

Time: ids are snowflakes minted from the clock, so discord.py's ``created_at`` of an interaction
is when the stand-in made it. ``fake.slash(..., late=2.0)`` delivers an interaction two seconds
after making it (a slow gateway, a lagging bot). ``fake.callback_window = 3.0`` refuses, as
Discord does, a callback that comes later than that after the interaction was made (404 code
10062); by default there is no limit, so a loaded test machine never fails a test on time alone.
"""
from __future__ import annotations

import asyncio
import collections
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Self

from aiohttp import WSMsgType, web

EPHEMERAL = 1 << 6
DISCORD_EPOCH_MS = 1_420_070_400_000   # 2015-01-01, where snowflake time starts
PATIENCE = 30.0   # default seconds a wait polls before failing: generous, so a busy machine never fails a test
LOADING = 1 << 7

# interaction callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

# permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR, MANAGE_CHANNELS, MANAGE_GUILD, ADD_REACTIONS = 1 << 3, 1 << 4, 1 << 5, 1 << 6
VIEW_CHANNEL, SEND_MESSAGES, MANAGE_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 13, 1 << 14, 1 << 15
READ_MESSAGE_HISTORY, USE_APPLICATION_COMMANDS = 1 << 16, 1 << 31
MANAGE_THREADS, CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS, SEND_MESSAGES_IN_THREADS = 1 << 34, 1 << 35, 1 << 36, 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS
# what an ordinary member may do (the @everyone role of the fake guild)
MEMBER_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS | EMBED_LINKS
                      | ATTACH_FILES | ADD_REACTIONS | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS
                      | SEND_MESSAGES_IN_THREADS)

# channel types
TEXT_CHANNEL, DM_CHANNEL, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12

_OPTION_STRING, _OPTION_INTEGER, _OPTION_BOOLEAN, _OPTION_USER, _OPTION_NUMBER = 3, 4, 5, 6, 10
_OPTION_CHANNEL = 7   # a channel option: its value is the channel's id, resolved like a user


EMBED_TOTAL = 6000   # characters over all embeds of one message (Discord's documented embed limits)
EMBED_TEXT, EMBED_TITLE = 4096, 256   # characters in one embed's description, in its title


def _embed_size(embeds: Any) -> int:
    """What Discord counts against EMBED_TOTAL: titles, descriptions, field names and values, footers, authors."""
    return sum(len(e.get("title") or "") + len(e.get("description") or "")
               + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in e.get("fields") or [])
               + len((e.get("footer") or {}).get("text") or "") + len((e.get("author") or {}).get("name") or "")
               for e in embeds or [])


def _embed_refused(embeds: Any) -> str:
    """Why Discord refuses these embeds by their length ("" when it takes them)."""
    if _embed_size(embeds) > EMBED_TOTAL:
        return f"Embed size exceeds maximum size of {EMBED_TOTAL}"
    over = [limit for e in embeds or [] for field, limit in (("description", EMBED_TEXT), ("title", EMBED_TITLE))
            if len(e.get(field) or "") > limit]
    return f"Must be {over[0]} or fewer in length." if over else ""


def _mentions_refused(allowed: Any) -> str | None:
    """Why Discord refuses a message's allowed_mentions, or None: "users" both parsed and listed
    (documented as mutually exclusive), more than 100 users or roles, or one listed twice."""
    if not isinstance(allowed, dict):
        return None
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        listed = [str(i) for i in allowed.get(kind) or []]
        if kind in parse and listed:
            return f"parse:[\"{kind}\"] and {kind}: [ids...] are mutually exclusive."
        if len(listed) > 100 or len(set(listed)) != len(listed):
            return f"{kind}: at most 100, each once."
    return None


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
    def allowed_mentions(self) -> dict[str, Any] | None:
        """The `allowed_mentions` the bot sent with this message (None: not given)."""
        return self.data.get("allowed_mentions")

    @property
    def channel_id(self) -> str | None:
        """Where the message is (None for callbacks that made no message)."""
        return self.message.get("channel_id") if self.message is not None else None

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
    created: float = field(default_factory=time.monotonic)   # when Discord made it (the stand-in, here)

    @property
    def channel_id(self) -> str:
        """Where the interaction ran (a channel, thread or DM)."""
        return str(self.payload["channel_id"])

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

    def components(self) -> list[dict[str, Any]]:
        """Every component (flattened) in the messages the bot sent for this interaction."""
        out: list[dict[str, Any]] = []
        for s in self.messages:
            for row in s.data.get("components") or []:
                out.extend(row.get("components", [row]))
        return out

    async def wait(self, predicate: Callable[[InteractionLog], bool], timeout: float = PATIENCE) -> None:
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
    # a command's message, however it is sent: the callback that carries it, or after a defer a
    # followup or an edit of the loading message
    "answer": ("POST|PATCH", r"/interactions/[^/]+/[^/]+/callback|/webhooks/[^/]+/[^/]+(/messages/@original)?"),
    "followup": ("POST", r"/webhooks/[^/]+/[^/]+"),
    "edit_original": ("PATCH", r"/webhooks/[^/]+/[^/]+/messages/@original"),
    "delete_original": ("DELETE", r"/webhooks/[^/]+/[^/]+/messages/@original"),
    "get_original": ("GET", r"/webhooks/[^/]+/[^/]+/messages/@original"),
    "channel_message": ("POST", r"/channels/[^/]+/messages"),
    "edit_channel_message": ("PATCH", r"/channels/[^/]+/messages/[^/]+"),
    "delete_channel_message": ("DELETE", r"/channels/[^/]+/messages/[^/]+"),
    "create_thread": ("POST", r"/channels/[^/]+(/messages/[^/]+)?/threads"),
    "add_thread_member": ("PUT", r"/channels/[^/]+/thread-members/[^/]+"),
    "edit_channel": ("PATCH", r"/channels/[^/]+"),
    "get_channel": ("GET", r"/channels/[^/]+"),
    "create_dm": ("POST", r"/users/@me/channels"),
    "typing": ("POST", r"/channels/[^/]+/typing"),
    "sync_commands": ("PUT", r"/applications/[^/]+/commands"),
    "sync_guild_commands": ("PUT", r"/applications/[^/]+/guilds/[^/]+/commands"),
}


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_DISPOSITION = re.compile(r'([\w*]+)="((?:[^"\\]|\\.)*)"')
_UNESCAPE = re.compile(r"\\(.)")


def _multipart(raw: bytes, content_type: str) -> tuple[Any, list[Upload]]:
    """A multipart/form-data body as Discord reads one: ``payload_json`` and the files. Split here
    directly: aiohttp's reader parses every part's headers with the email package, which made the
    stand-in spend more CPU on a board upload than the bot spent making it."""
    found = _BOUNDARY.search(content_type)
    if found is None:
        return {}, []
    body: Any = {}
    files: list[Upload] = []
    for chunk in raw.split(b"--" + found.group(1).encode())[1:]:
        if chunk.startswith(b"--"):   # the closing delimiter
            break
        head, _, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        data = data.removesuffix(b"\r\n")
        headers = {}
        for line in head.decode().split("\r\n"):
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().lower()] = value.strip()
        disposition = {k: _UNESCAPE.sub(r"\1", v)   # a quoted string: \" is ", \\ is \
                       for k, v in _DISPOSITION.findall(headers.get("content-disposition", ""))}
        if disposition.get("name") == "payload_json":
            body = json.loads(data)
        elif "filename" in disposition:
            files.append(Upload(disposition["filename"], bytes(data), headers.get("content-type")))
    return body, files


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
    until: float | None = None         # time.monotonic() when it stops spoiling (a stretch of time), if set

    def matches(self, method: str, path: str) -> bool:
        return (self.times is None or self.hits < self.times) and self.method.fullmatch(method) is not None \
            and self.pattern.fullmatch(path) is not None and (self.until is None or time.monotonic() < self.until)


class FakeDiscord:
    API_PREFIX = "/api/v10"

    def __init__(self, *, commands: list[dict[str, Any]] | None = None,
                 guild_commands: dict[str, list[dict[str, Any]]] | None = None) -> None:
        self._last_id = 0
        self.callback_window: float | None = None   # seconds Discord takes a callback for; None: no limit
        self.ready = asyncio.Event()
        self._ws: web.WebSocketResponse | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.app_id = str(self._next_id())
        self.bot_user = self._user("Kibitz", bot=True, user_id=self.app_id)
        self.guild_id = str(self._next_id())
        self.channel_id = str(self._next_id())
        self.channels: dict[str, dict[str, Any]] = {self.channel_id: self._text_channel(self.channel_id, "chess")}
        self.threads: dict[str, dict[str, Any]] = {}       # id -> thread channel, plus "members" (user ids)
        self.dms: dict[str, dict[str, Any]] = {}           # user id -> DM channel
        self.channel_patches: list[tuple[str, dict[str, Any]]] = []   # (thread or channel id, PATCH body)
        self.roles: dict[str, dict[str, Any]] = {}         # id -> role; @everyone has the guild's id
        self._add_role_object(self.guild_id, "@everyone", MEMBER_PERMISSIONS, position=0)
        self.admin_role = self.add_role("Admin", ADMINISTRATOR)
        self.moderator_role = self.add_role("Moderator", MANAGE_THREADS | MANAGE_MESSAGES)
        self.bot_role = self.add_role("Kibitz", ALL_PERMISSIONS & ~ADMINISTRATOR)   # the bot's own, managed
        self.roles[self.bot_role].update(managed=True, tags={"bot_id": self.app_id})
        self._member_roles: dict[str, list[str]] = {}
        self._member_permissions: dict[str, int] = {}
        self.members: list[dict[str, Any]] = []
        self.alice = self.add_member("alice", roles=[self.admin_role])     # the server owner
        self.bob = self.add_member("bob")
        self.carol = self.add_member("carol")
        self.moderator = self.add_member("mod", roles=[self.moderator_role])
        self.session_id = "fake-session"

        self.requests: list[Request] = []                  # every REST call, in order
        self.commands: list[dict[str, Any]] = [self._command(c) for c in commands or []]   # global, as last synced
        self.command_syncs = 0
        self.guild_commands: dict[str, list[dict[str, Any]]] = {}   # guild id -> commands, as last synced
        for guild_id, cmds in (guild_commands or {}).items():
            self.guild_commands[guild_id] = [self._command(c, guild_id) for c in cmds]
        self.guild_command_syncs: collections.Counter[str] = collections.Counter()
        self.identify: dict[str, Any] | None = None
        self.gateway_query: dict[str, str] = {}
        self.heartbeats = 0
        self.interactions: dict[str, InteractionLog] = {}  # by token
        self.messages: dict[str, dict[str, Any]] = {}      # every message the bot created, by id
        self.unhandled: list[Request] = []                 # REST calls this fake does not know
        self.channel_messages: list[Sent] = []             # messages the bot posted in channels itself
        self.channel_edits: list[Sent] = []                # edits of channel messages (PATCH .../messages/{id})
        self.deleted_messages: list[dict[str, Any]] = []   # messages the bot deleted (DELETE .../messages/{id})
        self.deleted_threads: list[dict[str, Any]] = []    # threads the bot deleted (DELETE /channels/{thread})
        self.faults: list[Fault] = []
        self._nonces: dict[tuple[str, str], dict[str, Any]] = {}
        self._posted: list[Sent] = []                      # every message that appeared, in order
        self._threads_denied: set[str | None] = set()      # channel ids; None: everywhere
        self._dms_denied: set[str] = set()                 # user ids

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
        """A snowflake as Discord makes them: milliseconds since 2015 in the high bits (so discord.py's
        ``created_at`` of an interaction or message is when the stand-in made it), always increasing."""
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, stamp)
        return self._last_id

    def _user(self, name: str, *, bot: bool = False, user_id: str | None = None) -> dict[str, Any]:
        return {"id": user_id or str(self._next_id()), "username": name, "global_name": name,
                "discriminator": "0", "avatar": None, "bot": bot, "public_flags": 0}

    def _add_role_object(self, role_id: str, name: str, permissions: int, *, position: int) -> dict[str, Any]:
        role = {"id": role_id, "name": name, "permissions": str(permissions), "position": position, "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                "unicode_emoji": None, "description": None}
        self.roles[role_id] = role
        return role

    def add_role(self, name: str, permissions: int) -> str:
        """A guild role granting `permissions` (an int of permission bits); returns its id."""
        role = self._add_role_object(str(self._next_id()), name, permissions, position=len(self.roles))
        self._later("GUILD_ROLE_CREATE", lambda: {"guild_id": self.guild_id, "role": role})
        return role["id"]

    def add_member(self, name: str, *, permissions: int | None = None, roles: list[str] | None = None,
                   bot: bool = False) -> dict[str, Any]:
        """A new guild member (returns its user dict). `roles` are role ids (see add_role); its
        `permissions` default to @everyone's plus its roles' (all of them with Administrator or for
        the server owner, alice)."""
        user = self._user(name, bot=bot)
        self._member_roles[user["id"]] = list(roles or [])
        if permissions is None:
            permissions = int(self.roles[self.guild_id]["permissions"])
            for role_id in roles or []:
                permissions |= int(self.roles[role_id]["permissions"])
            if permissions & ADMINISTRATOR or not self.members:   # the first member is the owner
                permissions = ALL_PERMISSIONS
        self._member_permissions[user["id"]] = permissions
        self.members.append(user)
        self._later("GUILD_MEMBER_ADD", lambda: {**self._member(user), "guild_id": self.guild_id})
        return user

    def permissions_of(self, user: dict[str, Any]) -> int:
        """The member's permissions, as interaction payloads carry them."""
        return self._member_permissions.get(user["id"], MEMBER_PERMISSIONS)

    def _member(self, user: dict[str, Any], *, with_user: bool = True) -> dict[str, Any]:
        if user["id"] == self.app_id:
            roles, permissions = [self.bot_role], self.app_permissions(self.channel_id)
        else:
            roles, permissions = self._member_roles.get(user["id"], []), self.permissions_of(user)
        member = {"roles": list(roles), "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                  "flags": 0, "nick": None, "avatar": None, "pending": False, "permissions": str(permissions)}
        if with_user:
            member["user"] = user
        return member

    # -- channels, threads, DMs -------------------------------------------------------------------
    def _text_channel(self, channel_id: str, name: str) -> dict[str, Any]:
        return {"id": channel_id, "type": TEXT_CHANNEL, "name": name, "guild_id": self.guild_id,
                "position": len(getattr(self, "channels", {})), "permission_overwrites": [], "nsfw": False,
                "parent_id": None, "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
                "default_auto_archive_duration": 1440, "flags": 0}

    def add_channel(self, name: str) -> str:
        """A new text channel in the guild; returns its id. Before the bot connects it comes in
        GUILD_CREATE; after, as CHANNEL_CREATE (wait for the bot to see it with wait_until)."""
        channel = self._text_channel(str(self._next_id()), name)
        self.channels[channel["id"]] = channel
        if None in self._threads_denied:
            channel["permission_overwrites"].append(
                {"id": self.app_id, "type": 1, "allow": "0", "deny": str(THREAD_PERMISSIONS)})
        self._later("CHANNEL_CREATE", lambda: dict(channel))
        return channel["id"]

    def _later(self, event: str, data: Callable[[], dict[str, Any]]) -> None:
        """Dispatch `event` now if the bot is connected (else GUILD_CREATE will carry the change)."""
        if self._ws is not None and not self._ws.closed and self.ready.is_set():
            task = asyncio.get_running_loop().create_task(self._dispatch(event, data()))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def channel_object(self, channel_id: str) -> dict[str, Any]:
        """The channel, thread or DM with this id, as Discord answers GET /channels/{id}."""
        if channel_id in self.channels:
            return dict(self.channels[channel_id])
        if channel_id in self.threads:
            thread = {k: v for k, v in self.threads[channel_id].items() if k != "members"}
            thread["thread_metadata"] = dict(thread["thread_metadata"])
            thread["member_count"] = min(len(self.threads[channel_id]["members"]), 50)
            return thread
        for dm in self.dms.values():
            if dm["id"] == channel_id:
                return dict(dm)
        raise KeyError(f"no channel {channel_id}")

    def _guild_of(self, channel_id: str) -> str | None:
        return None if self._is_dm(channel_id) else self.guild_id

    def _is_dm(self, channel_id: str) -> bool:
        return any(dm["id"] == channel_id for dm in self.dms.values())

    def _knows(self, channel_id: str) -> bool:
        return channel_id in self.channels or channel_id in self.threads or self._is_dm(channel_id)

    def dm_channel_of(self, user: dict[str, Any]) -> str:
        """The id of the DM channel with `user` (the same id each time, as on Discord)."""
        dm = self.dms.get(user["id"])
        if dm is None:
            dm = self.dms[user["id"]] = {"id": str(self._next_id()), "type": DM_CHANNEL, "last_message_id": None,
                                         "recipients": [user], "flags": 0}
        return dm["id"]

    def deny_dms(self, user: dict[str, Any]) -> None:
        """`user` accepts no DMs from the bot: posting in their DM answers 403, code 50007."""
        self._dms_denied.add(user["id"])

    def deny_threads(self, channel_id: str | None = None) -> None:
        """The bot may not create threads in `channel_id` (None: in every channel, also those added
        later): a permission overwrite on the channel denies the bot the thread permissions, so
        creating one answers 403, and app_permissions (and discord.py's
        ``channel.permissions_for(guild.me)``) lack them there."""
        self._threads_denied.add(channel_id)
        for cid in self.channels if channel_id is None else [channel_id]:
            self._deny_threads_in(cid)

    def _deny_threads_in(self, channel_id: str) -> None:
        channel = self.channels[channel_id]
        overwrite = {"id": self.app_id, "type": 1, "allow": "0", "deny": str(THREAD_PERMISSIONS)}
        channel["permission_overwrites"] = [o for o in channel["permission_overwrites"] if o["id"] != self.app_id]
        channel["permission_overwrites"].append(overwrite)
        self._later("CHANNEL_UPDATE", lambda: dict(channel))

    def app_permissions(self, channel_id: str) -> int:
        """What the bot may do in a channel, thread or DM, as interactions there tell it: its roles'
        permissions, then the channel's (a thread's parent's) overwrites for it."""
        permissions = int(self.roles[self.guild_id]["permissions"]) | int(self.roles[self.bot_role]["permissions"])
        parent = self.threads[channel_id]["parent_id"] if channel_id in self.threads else channel_id
        for overwrite in self.channels.get(parent, {}).get("permission_overwrites", []):
            if overwrite["id"] in (self.guild_id, self.bot_role, self.app_id):
                permissions = (permissions & ~int(overwrite["deny"])) | int(overwrite["allow"])
        return permissions

    def messages_in(self, channel_id: str) -> list[Sent]:
        """Messages the bot made appear in a channel, thread or DM, in order: its own posts and the
        answers to interactions that ran there (immediate replies, followups, and the answer that
        replaced a "thinking" placeholder; not the placeholder itself, not later edits)."""
        return [s for s in self._posted if s.channel_id == channel_id]

    def _guild(self) -> dict[str, Any]:
        members = [self._member(u) for u in (*self.members, self.bot_user)]
        threads = [self.channel_object(t) for t in self.threads if not self.threads[t]["thread_metadata"]["archived"]]
        return {"id": self.guild_id, "name": "Kibitz Test Club", "icon": None, "owner_id": self.alice["id"],
                "roles": list(self.roles.values()), "emojis": [], "stickers": [], "features": [],
                "channels": [dict(c) for c in self.channels.values()],
                "threads": threads, "members": members, "member_count": len(members), "voice_states": [],
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
                 message_id: str | None = None, base: dict[str, Any] | None = None,
                 channel_id: str | None = None) -> dict[str, Any]:
        channel_id = channel_id or self.channel_id
        message = dict(base) if base else {
            "id": message_id or str(self._next_id()), "channel_id": channel_id, "guild_id": self._guild_of(channel_id),
            "author": self.bot_user, "content": "", "timestamp": _now_iso(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 20, "flags": 0, "components": [],
            "webhook_id": self.app_id, "application_id": self.app_id,
        }
        if base:
            message["edited_timestamp"] = _now_iso()
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if message.get("guild_id") is None:
            message.pop("guild_id", None)
        message["flags"] = flags
        message["mentions"], message["mention_roles"], message["mention_everyone"] = self._mentions(message)
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

    def _mentions(self, message: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str], bool]:
        """Who the message pings: mentions in its content that its allowed_mentions let through
        (all of them when it has none, as for bots on Discord)."""
        content = message.get("content") or ""
        allowed = message.get("allowed_mentions")
        parse = set(allowed.get("parse") or []) if allowed is not None else {"users", "roles", "everyone"}
        users = {str(u) for u in (allowed or {}).get("users") or []}
        roles = {str(r) for r in (allowed or {}).get("roles") or []}
        known = {u["id"]: u for u in (*self.members, self.bot_user)}
        pinged: list[dict[str, Any]] = []
        for user_id in dict.fromkeys(re.findall(r"<@!?(\d+)>", content)):
            if user_id in known and ("users" in parse or user_id in users):
                pinged.append(known[user_id])
        pinged_roles = [r for r in dict.fromkeys(re.findall(r"<@&(\d+)>", content))
                        if r in self.roles and ("roles" in parse or r in roles)]
        everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
        return pinged, pinged_roles, everyone

    # -- faults -------------------------------------------------------------------------------
    def inject(self, route: str, *, status: int | None, body: Any = None, headers: dict[str, str] | None = None,
               times: int | None = 1, after: bool = False, seconds: float | None = None) -> Fault:
        """Spoil the next `times` requests to `route` (None: until clear_faults), or with `seconds`
        every request to it for that long from now."""
        method, pattern = _route(route)
        until = None if seconds is None else time.monotonic() + seconds
        fault = Fault(method, pattern, status, body, dict(headers or {}), None if seconds else times, after, until=until)
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

    def server_error(self, route: str, *, times: int | None = 1, status: int = 500, after: bool = False,
                     seconds: float | None = None) -> Fault:
        return self.inject(route, status=status, body={"message": "500: Internal Server Error", "code": 0},
                           times=times, after=after, seconds=seconds)

    def unknown_webhook(self, route: str = "answer", *, times: int | None = None) -> Fault:
        """404 Unknown Webhook: what Discord answers once an interaction token is dead."""
        return self.inject(route, status=404, body={"message": "Unknown Webhook", "code": 10015}, times=times)

    def refuse_token(self) -> Fault:
        """Answer every login (GET /users/@me) 401, as Discord does for a token it does not know."""
        return self.inject("GET /users/@me", status=401, body={"message": "401: Unauthorized", "code": 0}, times=None)

    def disconnect(self, route: str, *, times: int | None = 1, after: bool = False,
                   seconds: float | None = None) -> Fault:
        """Close the connection without an answer (with `after`: once the request has taken effect)."""
        return self.inject(route, status=None, times=times, after=after, seconds=seconds)

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

    def _channel_route(self, method: str, parts: list[str], body: dict[str, Any],
                       files: list[Upload]) -> web.Response | None:
        channel_id, rest = parts[1], parts[2:]
        if not rest and method == "GET":
            return _json(self.channel_object(channel_id))
        if not rest and method == "PATCH":
            return self._edit_channel(channel_id, body)
        if not rest and method == "DELETE":
            return self._delete_thread(channel_id)
        if rest == ["threads"] and method == "POST":
            return self._create_thread(channel_id, body, None)
        if len(rest) == 3 and rest[0] == "messages" and rest[2] == "threads" and method == "POST":
            return self._create_thread(channel_id, body, rest[1])
        if len(rest) == 2 and rest[0] == "thread-members" and method in ("PUT", "DELETE"):
            thread = self.threads.get(channel_id)
            if thread is None:
                return _json({"message": "Unknown Channel", "code": 10003}, status=404)
            user_id = self.app_id if rest[1] == "@me" else rest[1]
            if method == "PUT" and user_id not in thread["members"]:
                thread["members"].append(user_id)
            elif method == "DELETE" and user_id in thread["members"]:
                thread["members"].remove(user_id)
            return web.Response(status=204)
        if rest == ["messages"] and method == "POST":
            return self._channel_message(channel_id, body, files)
        if rest == ["typing"] and method == "POST":   # trigger typing indicator: 204, no body
            return web.Response(status=204)
        if len(rest) == 2 and rest[0] == "messages":
            message = self.messages.get(rest[1])
            if message is None or message["channel_id"] != channel_id or message.get("flags", 0) & EPHEMERAL:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)   # ephemeral: not the channel's
            if method == "PATCH" and message["author"]["id"] != self.bot_user["id"]:
                return _json({"message": "Cannot edit a message authored by another user", "code": 50005}, status=403)
            meta = self.threads[channel_id]["thread_metadata"] if channel_id in self.threads else {}
            if method == "PATCH" and meta.get("archived") and meta.get("locked"):
                return _json({"message": "Thread is archived", "code": 50083}, status=400)
            if method == "GET":
                return _json(message)
            if method == "DELETE":
                del self.messages[rest[1]]
                self.deleted_messages.append(message)
                return web.Response(status=204)
            if method == "PATCH":
                edited = self._message(body, files, flags=message.get("flags", 0), base=message)
                self.channel_edits.append(Sent("channel_edit", body, files, edited))
                return _json(edited)
        return None

    def _create_thread(self, channel_id: str, body: dict[str, Any], message_id: str | None) -> web.Response:
        if channel_id not in self.channels:
            return _json({"message": "Cannot execute action on this channel type", "code": 50024}, status=400)
        needed = CREATE_PRIVATE_THREADS if body.get("type") == PRIVATE_THREAD or (
            message_id is None and body.get("type") is None) else CREATE_PUBLIC_THREADS
        if not self.app_permissions(channel_id) & needed:
            return _json({"message": "Missing Permissions", "code": 50013}, status=403)
        if message_id is not None:
            message = self.messages.get(message_id)
            if message is None or message["channel_id"] != channel_id:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            if message_id in self.threads:
                return _json({"message": "A thread has already been created for this message", "code": 160004},
                             status=400)
        kind = PUBLIC_THREAD if message_id is not None else int(body.get("type") or PRIVATE_THREAD)
        now = _now_iso()
        thread: dict[str, Any] = {
            "id": message_id or str(self._next_id()), "type": kind, "guild_id": self.guild_id,
            "parent_id": channel_id, "owner_id": self.app_id, "name": body.get("name") or "thread",
            "last_message_id": None, "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "message_count": 0, "total_message_sent": 0, "member_count": 1, "flags": 0,
            "thread_metadata": {"archived": False, "locked": False, "archive_timestamp": now,
                                "auto_archive_duration": int(body.get("auto_archive_duration") or 4320),
                                "create_timestamp": now},
            "members": [self.app_id],
        }
        if kind == PRIVATE_THREAD:
            thread["thread_metadata"]["invitable"] = bool(body.get("invitable", True))
        self.threads[thread["id"]] = thread
        data = self.channel_object(thread["id"])
        self._later("THREAD_CREATE", lambda: {**data, "newly_created": True})
        return _json(data, status=201)

    def _delete_thread(self, channel_id: str) -> web.Response:
        """Discord: deleting a thread takes Manage Threads; the bot never deletes other channels."""
        if channel_id not in self.threads or not self.app_permissions(channel_id) & MANAGE_THREADS:
            return _json({"message": "Missing Permissions", "code": 50013}, status=403)
        data = self.channel_object(channel_id)
        thread = self.threads.pop(channel_id)
        self.deleted_threads.append(thread)
        self._later("THREAD_DELETE", lambda: {"id": channel_id, "guild_id": self.guild_id,
                                              "parent_id": thread["parent_id"], "type": thread["type"]})
        return _json(data)

    def _edit_channel(self, channel_id: str, body: dict[str, Any]) -> web.Response:
        self.channel_patches.append((channel_id, dict(body)))
        if channel_id in self.threads:
            thread = self.threads[channel_id]
            meta = thread["thread_metadata"]
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = _now_iso()
            for key in ("name", "rate_limit_per_user", "flags"):
                if key in body:
                    thread[key] = body[key]
            data = self.channel_object(channel_id)
            self._later("THREAD_UPDATE", lambda: data)
            return _json(data)
        if channel_id in self.channels:
            for key in ("name", "topic", "rate_limit_per_user", "nsfw", "position"):
                if key in body:
                    self.channels[channel_id][key] = body[key]
            data = self.channel_object(channel_id)
            self._later("CHANNEL_UPDATE", lambda: data)
            return _json(data)
        return _json({"message": "Cannot execute action on a DM channel", "code": 50003}, status=403)

    def _channel_message(self, channel_id: str, body: dict[str, Any], files: list[Upload]) -> web.Response:
        if self._is_dm(channel_id):
            user_id = next(u for u, dm in self.dms.items() if dm["id"] == channel_id)
            if user_id in self._dms_denied:
                return _json({"message": "Cannot send messages to this user", "code": 50007}, status=403)
        meta = self.threads[channel_id]["thread_metadata"] if channel_id in self.threads else {}
        if meta.get("archived") and meta.get("locked"):
            return _json({"message": "Thread is archived", "code": 50083}, status=400)
        if meta.get("archived"):      # Discord: a message unarchives a thread that is not locked
            meta.update(archived=False, archive_timestamp=_now_iso())
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce") and (channel_id, str(nonce)) in self._nonces:
            return _json(self._nonces[(channel_id, str(nonce))])   # Discord: same nonce, same message
        message = self._message(body, files, flags=body.get("flags", 0) or 0, channel_id=channel_id)
        message.pop("webhook_id", None)
        message.update(type=0, nonce=nonce)
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[(channel_id, str(nonce))] = message
        sent = Sent("channel_message", body, files, message)
        self.channel_messages.append(sent)
        self._posted.append(sent)
        if channel_id in self.threads:
            thread = self.threads[channel_id]
            thread.update(last_message_id=message["id"], message_count=thread["message_count"] + 1,
                          total_message_sent=thread["total_message_sent"] + 1)
            if thread["type"] == PRIVATE_THREAD:   # Discord: pinging someone in a private thread adds them
                thread["members"].extend(u["id"] for u in message["mentions"] if u["id"] not in thread["members"])
        return _json(message)

    @staticmethod
    def _not_found() -> web.Response:
        return _json({"message": "Unknown", "code": 10000}, status=404)

    def _command(self, data: dict[str, Any], guild_id: str | None = None) -> dict[str, Any]:
        stored = getattr(self, "commands", []) if guild_id is None else self.guild_commands.get(guild_id, [])
        known = next((c for c in stored if c["name"] == data["name"]), None)
        command = dict(data)
        command.update(id=known["id"] if known else str(self._next_id()), application_id=self.app_id,
                       version=str(self._next_id()))
        if guild_id is not None:
            command["guild_id"] = guild_id
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
        if self.callback_window is not None and time.monotonic() - log.created > self.callback_window:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)   # Discord's 3 seconds
        sent = Sent("callback", body, files)
        kind = body.get("type")
        data = body.get("data") or {}
        flags = data.get("flags", 0) or 0
        answer: dict[str, Any] = {"interaction": {"id": interaction_id, "type": log.type}}
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            if kind == DEFERRED_CHANNEL_MESSAGE:
                flags |= LOADING
            log.original = sent.message = self._message(data, files, flags=flags, channel_id=log.channel_id)
            if kind == CHANNEL_MESSAGE:
                self._posted.append(sent)
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
                message = self._message(body, files, flags=body.get("flags", 0) or 0, channel_id=log.channel_id)
            sent = Sent("followup", body, files, message)
            self._add(log, sent)
            self._posted.append(sent)
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
                sent = Sent("edit", body, files, message)
                self._add(log, sent)
                if target.get("flags", 0) & LOADING:     # the answer replacing a "thinking" placeholder
                    self._posted.append(sent)
                return _json(message)
        self.unhandled.append(Request(method, "/" + "/".join(parts), dict(query), body, files))
        return self._not_found()

    # -- driving the bot ------------------------------------------------------------------------
    def _interaction(self, kind: int, user: dict[str, Any], data: dict[str, Any],
                     message: dict[str, Any] | None = None) -> InteractionLog:
        """An interaction by `user` in the default channel (see _place for others)."""
        interaction_id = str(self._next_id())
        token = f"tok-{interaction_id}"
        payload: dict[str, Any] = {
            "id": interaction_id, "application_id": self.app_id, "type": kind, "token": token, "version": 1,
            "locale": "en-US", "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024, "data": data,
        }
        if message is not None:
            payload["message"] = message
        log = InteractionLog(interaction_id, token, kind, payload)
        self._place(log, self.channel_id, user)
        self.interactions[token] = log
        return log

    def _place(self, log: InteractionLog, channel: str, user: dict[str, Any]) -> None:
        """Make the interaction run in `channel` (a channel, thread or DM): its channel, guild,
        member or user, context and app_permissions as Discord sends them there."""
        if not self._knows(channel):
            raise AssertionError(f"no channel, thread or DM {channel}")
        thread = self.threads.get(channel)
        if thread is not None and thread["type"] == PRIVATE_THREAD and user["id"] not in thread["members"] \
                and not self.permissions_of(user) & (MANAGE_THREADS | ADMINISTRATOR):
            raise AssertionError(f"{user['username']} cannot see private thread {channel}: not a member")
        payload = log.payload
        for key in ("guild_id", "member", "user", "guild_locale"):
            payload.pop(key, None)
        payload.update(channel_id=channel, channel=self.channel_object(channel),
                       app_permissions=str(self.app_permissions(channel)))
        if self._is_dm(channel):
            payload.update(user=user, context=1, authorizing_integration_owners={"0": "0"})
        else:
            payload.update(guild_id=self.guild_id, member=self._member(user), guild_locale="en-US", context=0,
                           authorizing_integration_owners={"0": self.guild_id})

    def _new_interaction(self, kind: int, user: dict[str, Any], data: dict[str, Any], *,
                         message: dict[str, Any] | None = None, channel: str | None = None) -> InteractionLog:
        log = self._interaction(kind, user, data, message)
        if channel is None and message is not None and self._knows(str(message.get("channel_id"))):
            channel = str(message["channel_id"])     # a click runs where the clicked message is
        if channel is not None and channel != log.channel_id:
            self._place(log, channel, user)
        return log

    def _channel(self) -> dict[str, Any]:
        """The default channel, as interactions carry it."""
        return self.channel_object(self.channel_id)

    def _command_named(self, name: str, channel: str | None = None) -> dict[str, Any]:
        in_guild = channel is None or not self._is_dm(channel)
        for command in [*self.commands, *(self.guild_commands.get(self.guild_id, []) if in_guild else [])]:
            if command["name"] == name:
                return command
        synced = [c["name"] for c in self.commands] + [c["name"] for c in self.guild_commands.get(self.guild_id, [])]
        raise AssertionError(f"/{name} was never synced; synced: {synced}")

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
            if kind == _OPTION_CHANNEL and isinstance(value, str) and self._knows(value):
                resolved.setdefault("channels", {})[value] = self._resolved_channel(value)
            option = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    def _resolved_channel(self, channel_id: str) -> dict[str, Any]:
        """A channel option's entry in `resolved`, as Discord sends it: a partial channel."""
        channel = self.channel_object(channel_id)
        partial: dict[str, Any] = {key: channel[key] for key in ("id", "name", "type", "parent_id", "thread_metadata")
                                   if key in channel}
        partial["permissions"] = str(self.app_permissions(channel_id))
        return partial

    async def _run(self, log: InteractionLog, timeout: float, wait: bool = True, late: float = 0.0) -> InteractionLog:
        if late:   # delivered `late` seconds after Discord made it (a slow gateway, a bot lagging behind)
            await asyncio.sleep(late)
        await self._dispatch("INTERACTION_CREATE", log.payload)
        if wait:
            await log.wait(InteractionLog.is_answered, timeout)
        return log

    async def wait_until(self, predicate: Callable[[], object], timeout: float = PATIENCE) -> None:
        """Poll until predicate() is true (for answers that do not come through the interaction)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; requests: {[(r.method, r.path, r.status) for r in self.requests]}")
            await asyncio.sleep(0.01)

    async def nothing_more(self, *, user: dict[str, Any]) -> list[Request]:
        """Proof that nothing else was on its way, without sleeping: run a later /help (it changes
        nothing) and wait for its answer; return the REST requests that came in meanwhile, /help's
        own left out. The bot shares the test's event loop, so whatever it was about to send (a
        followup, a channel post, a second copy) reaches this log before /help is answered."""
        mark = len(self.requests)
        later = await self.slash("help", user=user)
        return [r for r in self.requests[mark:] if later.token not in r.path and later.id not in r.path]

    @staticmethod
    def besides_stripped(requests: list[Request]) -> list[Request]:
        """`requests` but the edits that only take a message's components off (an older board losing
        its controls once a newer one is shown)."""
        return [r for r in requests if not (r.method == "PATCH" and isinstance(r.body, dict)
                                            and r.body.get("components") == [] and set(r.body) <= {"components", "tts"})]

    def _command_data(self, name: str, options: dict[str, Any], focused: str | None,
                      channel: str | None) -> dict[str, Any]:
        command = self._command_named(name, channel)
        opts, resolved = self._options(command, options, focused)
        data = {"id": command["id"], "name": name, "type": 1, "options": opts}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, name: str, options: dict[str, Any] | None = None, *, user: dict[str, Any],
                    timeout: float = PATIENCE, wait: bool = True, channel: str | None = None,
                    late: float = 0.0) -> InteractionLog:
        """Run /name with options (user options take a user dict) in `channel` (a channel, thread or
        DM id; default: fake.channel_id); wait for the bot's answer (with wait=False, return as soon
        as the interaction is dispatched). `late`: seconds between the interaction's creation and
        its delivery to the bot."""
        data = self._command_data(name, options or {}, None, channel)
        return await self._run(self._new_interaction(2, user, data, channel=channel), timeout, wait, late)

    async def autocomplete(self, name: str, options: dict[str, Any], focused: str, *, user: dict[str, Any],
                           timeout: float = PATIENCE, channel: str | None = None) -> list[dict[str, Any]]:
        """Type into option `focused` of /name; return the choices the bot offered."""
        data = self._command_data(name, options, focused, channel)
        log = await self._run(self._new_interaction(4, user, data, channel=channel), timeout)
        return log.choices

    async def click(self, custom_id: str, *, user: dict[str, Any], message: dict[str, Any] | None = None,
                    timeout: float = PATIENCE, wait: bool = True, channel: str | None = None) -> InteractionLog:
        """Click the button with custom_id on `message` (default: the latest message carrying it);
        the interaction runs where the message is (or in `channel`)."""
        if message is None:
            message = self.message_with(custom_id)
        data = {"custom_id": custom_id, "component_type": 2}
        log = self._new_interaction(3, user, data, message=message, channel=channel)
        log.original = message   # for a component interaction, @original is the clicked message
        return await self._run(log, timeout, wait)

    async def select(self, custom_id: str, values: list[str], *, user: dict[str, Any],
                     message: dict[str, Any] | None = None, timeout: float = PATIENCE,
                     wait: bool = True, channel: str | None = None) -> InteractionLog:
        """Pick `values` in the string select with custom_id on `message` (default: the latest
        message carrying it): a component interaction of type 3 with its values."""
        if message is None:
            message = self.message_with(custom_id)
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        log = self._new_interaction(3, user, data, message=message, channel=channel)
        log.original = message
        return await self._run(log, timeout, wait)

    @staticmethod
    def forged(message: dict[str, Any], custom_id: str, *, select: bool = False) -> dict[str, Any]:
        """`message` as a client could claim it looks: carrying one more button (or select menu) with
        any `custom_id`, for a click the bot never offered (who may act is the service's to check)."""
        extra = {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "x"}]} if select else \
            {"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}
        return {**message, "components": [*(message.get("components") or []), {"type": 1, "components": [extra]}]}

    def message_with(self, custom_id: str) -> dict[str, Any]:
        for message in reversed(list(self.messages.values())):
            for row in message.get("components") or []:
                for component in row.get("components", [row]):
                    if component.get("custom_id") == custom_id:
                        return message
        raise AssertionError(f"no message carries a component {custom_id!r}")
