"""Requests to Discord: which failures are retried and how long, and one write per upload.

What is retried where. discord.py's HTTP clients (``discord/webhook/async_.py`` for interaction
answers, ``discord/http.py`` for channel messages) wait out a 429 from Discord (the
``retry_after`` of its JSON body) and retry some 5xx a few times (interaction answers: any 5xx, five
attempts 1, 3, 5, 7, 9 s apart; channel messages: 500, 502, 504 but not 503). On top of that
:func:`with_retries` retries every 5xx, every 429 (waiting its ``Retry-After``, also one without
Discord's ``Via`` header, which discord.py takes for a Cloudflare ban), a dropped or timed-out
connection, with backoff (``BACKOFF``), for ``RETRY_FOR`` seconds (:func:`retry_delay` sorts an
error). Anything else (404 Unknown Webhook once the interaction token is dead, 403) is not retried.

What may have gone. A request that failed may have been carried out all the same, unless Discord
surely refused it: a 5xx may come after the work is done (and reaches us after discord.py's own
retries, so an attempt before it may have gone), and a dropped or timed-out connection may have
lost the answer alone. A 4xx (429 included) or a failed connect (refused, no DNS: the request never
left) did nothing. :func:`with_retries` hands its caller every attempt's error, and
:func:`may_have_gone` judges by all of them: a post made whose answer was lost, then retried and
answered 503, may have gone.

A callback's answer. discord.py asks Discord to echo the message a callback made
(``with_response``) and builds a full Message from it, components and all; nothing in the bot
reads it (the message id, which discord.py keeps, is in the answer's ``interaction`` part), so
:class:`JoinedBodyAdapter` drops the echoed message before discord.py sees it.

One write per upload. aiohttp streams a multipart body part by part, one socket send for each
boundary, part header and part (about fifteen for a board with its builder). discord.py sends
interaction answers through the webhook adapter in its ``async_context`` (a ``ContextVar``):
:func:`use_joined_bodies` puts :class:`JoinedBodyAdapter` there for the rest of the task, which
joins the body into bytes before the request, so aiohttp sends headers and body in one write.
Retries, rate limits and errors stay discord.py's own. aiohttp itself is not changed.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, cast

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.limits import MAX_CONTENT

log = logging.getLogger(__name__)

BACKOFF = (0.5, 1.0, 2.0, 4.0)   # our own retries (see module docstring): seconds before each, the last repeated
RETRY_FOR = 20.0          # seconds of retrying one way (the interaction, the channel) before the next way


class _JoinedBodySession:
    """discord.py's aiohttp session for one request, a multipart form joined into bytes first."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self._session = session

    def request(self, method: str, url: str, *, data: Any = None, headers: dict[str, str] | None = None,
                **kwargs: Any) -> "_JoinedBodyRequest":
        return _JoinedBodyRequest(self._session, method, url, data, dict(headers or {}), kwargs)


class _JoinedBodyRequest:
    """``async with session.request(...)`` as discord.py uses it, sending a form as one body."""

    def __init__(self, session: aiohttp.ClientSession, method: str, url: str, data: Any,
                 headers: dict[str, str], kwargs: dict[str, Any]) -> None:
        self._session, self._method, self._url = session, method, url
        self._data, self._headers, self._kwargs = data, headers, kwargs
        self._context: Any = None

    async def __aenter__(self) -> aiohttp.ClientResponse:
        data = self._data
        if isinstance(data, aiohttp.FormData):
            form = data()   # the multipart writer: its parts are in memory (text, JSON, the PNG's bytes)
            data = await form.as_bytes()
            self._headers["Content-Type"] = form.content_type   # carries the boundary
        self._context = self._session.request(self._method, self._url, data=data, headers=self._headers,
                                              **self._kwargs)
        return await self._context.__aenter__()

    async def __aexit__(self, *exc: Any) -> None:
        await self._context.__aexit__(*exc)


class JoinedBodyAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter (interaction answers and followups), sending each multipart
    body in one write, and reading only the ids from a callback's answer (see module docstring)."""

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:   # type: ignore[override]
        # discord.py calls only `session.request(...)`, which _JoinedBodySession has
        return await super().request(route, cast(aiohttp.ClientSession, _JoinedBodySession(session)), **kwargs)

    async def create_interaction_response(self, *args: Any, **kwargs: Any) -> Any:   # type: ignore[override]
        data = await super().create_interaction_response(*args, **kwargs)
        resource = data.get("resource") if isinstance(data, dict) else None
        if isinstance(resource, dict):
            # the message Discord echoes back: nothing here reads it, and discord.py would build a
            # whole Message from it (components included); its id stays in data["interaction"]
            resource.pop("message", None)
        return data


_ADAPTER = JoinedBodyAdapter()


def use_joined_bodies() -> None:
    """Send this task's interaction answers through JoinedBodyAdapter (a ContextVar: this task only)."""
    if async_context.get() is not _ADAPTER:
        async_context.set(_ADAPTER)


async def with_retries(send: Callable[[], Any], what: str, errors: list[BaseException] | None = None) -> Any:
    """`send()`, retried as the module docstring says for up to RETRY_FOR seconds; raises the last
    error. `what` names the request in the log ("answering interaction 12"); each attempt's error is
    appended to `errors`, if given (for may_have_gone)."""
    deadline = asyncio.get_running_loop().time() + RETRY_FOR
    attempt = 0
    while True:
        try:
            return await send()
        except Exception as error:  # noqa: BLE001 - sorted below: retried, or raised
            if errors is not None:
                errors.append(error)
            delay = retry_delay(error, attempt, deadline - asyncio.get_running_loop().time())
            if delay is None:
                raise
            log.warning("%s failed (%s); retrying in %.1f s", what, describe(error), delay)
        await asyncio.sleep(delay)
        attempt += 1


def retry_delay(error: BaseException, attempt: int, left: float) -> float | None:
    """Seconds to wait before retrying after `error`, with `left` seconds of retrying left; None
    when the error is not worth a retry (refused for good) or the wait would not fit."""
    backoff = BACKOFF[min(attempt, len(BACKOFF) - 1)]
    if isinstance(error, (aiohttp.ClientConnectionError, TimeoutError)):
        delay = backoff
    elif isinstance(error, discord.HTTPException) and (error.status >= 500 or error.status == 429):
        wait = _retry_after(error) if error.status == 429 else None   # Discord's own word on a 429
        delay = backoff if wait is None or wait < 0 else wait
    else:
        return None
    return delay if delay <= left else None


def may_have_gone(*errors: BaseException) -> bool:
    """Whether a request whose attempts failed with `errors` may have been carried out all the same:
    one of them is a 5xx, a timeout, or a connection error other than a failed connect (module docstring)."""
    return any(isinstance(error, (aiohttp.ClientConnectionError, TimeoutError))
               and not isinstance(error, aiohttp.ClientConnectorError)   # never connected: nothing sent
               or isinstance(error, discord.HTTPException) and error.status >= 500 for error in errors)


def _retry_after(error: discord.HTTPException) -> float | None:
    try:
        return float(error.response.headers["Retry-After"])
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or type(error).__name__}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def split_content(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split text into pieces of at most `limit` characters, at line breaks where possible."""
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    if rest:
        pieces.append(rest)
    return pieces
