"""Turning Discord context into service arguments, and service Replies into Discord messages.

Two ways to send a Reply:

- ``send_reply`` for answers that change nothing (``/board``, ``/rules``): if Discord refuses,
  the error reaches ``KibitzTree.on_error`` like any other, and trying again is safe.
- ``deliver_reply`` for the answer to a change the service has already committed (a move, a
  resignation, an accepted challenge...). It never raises and never reports a failure, because
  the change stands: telling the player "try again" would make the retry fail ("not your turn").
  It sends the Reply as the interaction's answer (its callback, the edit of its "thinking"
  message, or a followup); if that does not go through, it posts the same message in the channel
  instead.

What is retried where. discord.py's HTTP clients (``discord/webhook/async_.py`` for interaction
answers, ``discord/http.py`` for channel messages) already wait out a 429 from Discord (the
``retry_after`` of its JSON body) and retry any 5xx up to five attempts (1, 3, 5, 7, 9 s apart),
so ``deliver_reply`` does not retry those again. It retries only what discord.py gives up on at
once: a dropped or timed-out connection, and a 429 without Discord's ``Via`` header (which
discord.py takes for a Cloudflare ban) when its ``Retry-After`` is short. Anything else (404
Unknown Webhook once the interaction token is dead, 403, 5xx after discord.py's five attempts)
sends the message to the channel instead.

No doubles. The answer to a slash command is its callback, which Discord refuses to make twice
(after a refused repeat the bot reads what the interaction shows: see bot/tree.py), or after a
slow call an edit of its "thinking" message, which a repeat changes again. Channel messages
carry a nonce with ``enforce_nonce``, so Discord answers a repeated post with the first message.
Only a followup that posts (a button's answer) could appear twice, if Discord made it and the
connection dropped before its answer; that is preferred to losing it.

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
import io
import logging
from collections.abc import Callable
from typing import Any, cast

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.names import escape
from bot.service import Player, Reply
from bot.tree import note_message, resolves_loading, send, send_piece, split_content

log = logging.getLogger(__name__)

ALT_LIMIT = 1024          # Discord caps an attachment description at 1024 characters
RETRY_DELAYS = (0.5, 2.0)   # our own retries (see module docstring), seconds before each
MAX_RETRY_AFTER = 10.0    # longest Retry-After we wait out ourselves


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


def channel_key(interaction: discord.Interaction) -> str:
    """The service's channel key: the channel id, or the thread id inside a thread.

    Discord already reports a thread as the interaction's channel, so this is channel_id.
    """
    return str(interaction.channel_id)


def guild_key(interaction: discord.Interaction) -> str | None:
    return str(interaction.guild_id) if interaction.guild_id else None


def player(user: discord.abc.User) -> Player:
    return Player(str(user.id), escape(user.display_name))   # shown as typed in messages (bot/names.py)


def _extras(reply: Reply) -> dict[str, Any]:
    """The board PNG with its alt text, challenge buttons or the turn builder. Built afresh for every attempt."""
    from bot.views.challenge import challenge_view  # the view module imports this one

    extra: dict[str, Any] = {}
    if reply.image is not None:
        extra["file"] = discord.File(io.BytesIO(reply.image), filename=reply.filename or "board.png",
                                     description=(reply.alt or "")[:ALT_LIMIT] or None)
    if reply.challenge is not None:
        extra["view"] = challenge_view(*reply.challenge)
    elif reply.builder is not None and reply.game_id is not None and reply.ply is not None:
        from bot.views.turn_builder import builder_view   # the view module imports this one

        builder = builder_view(reply.game_id, reply.ply, reply.builder)
        if builder.children:
            extra["view"] = builder
    from bot.views.board_buttons import with_controls   # Draw, Resign, Rematch, takeback answers

    if reply.challenge is None and (view := with_controls(extra.get("view"), reply)) is not None:
        extra["view"] = view
    if reply.embed is not None:
        extra["embed"] = reply_embed(reply)
        if reply.embed.get("more"):   # a card longer than one embed goes on in a second
            extra["embeds"] = [extra.pop("embed"), discord.Embed(description=reply.embed["more"][:4096])]
    if reply.ping is not None:   # that member alone; the bot's default stays AllowedMentions.none()
        extra["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(int(reply.ping))])
    return extra


def reply_text(reply: Reply) -> str:
    """The Reply's text, opening with a mention of the member it pings, if any."""
    return f"<@{reply.ping}> {reply.text}" if reply.ping is not None else reply.text


def reply_embed(reply: Reply) -> discord.Embed:
    """A Reply's card (the /rules embed), its picture shown inside it from the attachment."""
    embed = discord.Embed(title=(reply.embed or {}).get("title", "")[:256],
                          description=(reply.embed or {}).get("description", "")[:4096])
    if reply.image is not None:
        embed.set_image(url=f"attachment://{reply.filename or 'board.png'}")
    return embed


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a service Reply that changed nothing: text, the board PNG with its alt text, buttons;
    a Reply with a card shows the card (its text is the card's) with the picture inside."""
    text = "" if reply.embed is not None else reply_text(reply)
    use_joined_bodies()
    await send(interaction, text, ephemeral=reply.ephemeral, **_extras(reply))
    if reply.embed is not None and reply.embed.get("next"):   # a card too long for one message goes on in a second
        await send(interaction, ephemeral=reply.ephemeral, embed=discord.Embed(description=reply.embed["next"]))


async def deliver_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Deliver the Reply to a committed change, to the interaction or else to the channel.

    Never raises (see module docstring); what cannot be delivered at all is logged.
    """
    texts = split_content(reply_text(reply)) or [""]
    to_channel = False
    use_joined_bodies()
    for index, text in enumerate(texts):
        # file and buttons go with the last message, built afresh for each attempt
        extras: Callable[[], dict[str, Any]] = (lambda: _extras(reply)) if index == len(texts) - 1 else dict
        if not to_channel:
            to_channel = not await _to_interaction(interaction, text, reply.ephemeral, extras)
        if to_channel:
            await _to_channel(interaction, reply, index, text, extras)
    if to_channel and resolves_loading(interaction):
        # The answer is in the channel; take the "thinking" message away if Discord still lets us.
        try:
            await interaction.delete_original_response()
        except Exception as error:  # noqa: BLE001 - cosmetic: it times out on Discord's side anyway
            log.debug("could not remove the loading message of interaction %s: %s", interaction.id, describe(error))


async def _to_interaction(interaction: discord.Interaction, text: str, ephemeral: bool,
                          extras: Callable[[], dict[str, Any]]) -> bool:
    """Send one message as the interaction's answer, retrying what discord.py does not.
    True when it went through; False when the channel should have it instead."""
    attempt = 0
    while True:
        try:
            await send_piece(interaction, text, ephemeral=ephemeral, **extras())
            return True
        except Exception as error:  # noqa: BLE001 - the change is committed: no error may escape
            delay = retry_delay(error, attempt)
            if delay is None:
                log.warning("could not answer interaction %s (%s); posting in the channel instead",
                            interaction.id, describe(error))
                return False
            log.warning("answering interaction %s failed (%s); retrying in %.1f s",
                        interaction.id, describe(error), delay)
        await asyncio.sleep(delay)
        attempt += 1


async def _to_channel(interaction: discord.Interaction, reply: Reply, index: int, text: str,
                      extras: Callable[[], dict[str, Any]]) -> None:
    """Post one message of the Reply in the interaction's channel, as a plain bot message."""
    if reply.ephemeral:   # a private answer must not turn public; none of the committed ones is private
        log.error("could not deliver the private answer to interaction %s", interaction.id)
        return
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        log.error("could not deliver the answer to interaction %s: no channel to post in", interaction.id)
        return
    nonce = f"{interaction.id}-{index}"   # at most 25 characters; the same nonce never posts twice
    attempt = 0
    while True:
        try:
            posted = await channel.send(text or None, nonce=nonce, **extras())
            note_message(interaction, posted.id)   # the answer's message, for whoever reads answered_in
            return
        except Exception as error:   # the change is committed: no error may escape
            delay = retry_delay(error, attempt)
            if delay is None:
                log.error("could not deliver the answer to interaction %s in channel %s: %s",
                          interaction.id, channel.id, describe(error), exc_info=error)
                return
            log.warning("posting the answer to interaction %s failed (%s); retrying in %.1f s",
                        interaction.id, describe(error), delay)
        await asyncio.sleep(delay)
        attempt += 1


def retry_delay(error: BaseException, attempt: int) -> float | None:
    """Seconds to wait before retrying after `error`, or None when a retry is not ours to make."""
    if attempt >= len(RETRY_DELAYS):
        return None
    if isinstance(error, (aiohttp.ClientConnectionError, TimeoutError)):
        return RETRY_DELAYS[attempt]
    if isinstance(error, discord.HTTPException) and error.status == 429:
        # discord.py waits out Discord's own 429s; it gives up at once on one without Discord's
        # proxy header. Wait that out too when it is short.
        wait = _retry_after(error)
        if wait is not None and 0 <= wait <= MAX_RETRY_AFTER:
            return wait
    return None


def _retry_after(error: discord.HTTPException) -> float | None:
    try:
        return float(error.response.headers["Retry-After"])
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or type(error).__name__}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
