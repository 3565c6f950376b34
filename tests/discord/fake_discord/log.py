"""The request log: what the bot sent about each interaction (`Sent`, `InteractionLog`), every REST
request (`Request`), routes by name and the faults that spoil them."""
from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .constants import (
    AUTOCOMPLETE_RESULT, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, EPHEMERAL, MODAL,
    PATIENCE, UPDATE_MESSAGE,
)
from .shapes import Upload


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
