"""The shape and limit checks Discord applies to a message body (its API description), and the
wire format: JSON answers, timestamps, multipart bodies with their uploads."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

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
