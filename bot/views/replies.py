"""Turning Discord context into service arguments, and service Replies into Discord messages.

Two ways to send a Reply:

- ``send_reply`` for answers that change nothing (``/board``, ``/rules``): if Discord refuses,
  the error reaches ``KibitzTree.on_error`` like any other, and trying again is safe.
- ``deliver_reply`` for the answer to a change the service has already committed (a move, a
  resignation, an accepted challenge...). It never raises and never reports a failure, because
  the change stands: telling the player "try again" would make the retry fail ("not your turn").
  It sends the Reply as the interaction's answer (its callback, the edit of its "thinking"
  message, or a followup); if that does not go through, it posts the same message in the channel
  instead; and if Discord takes neither, it keeps the answer in the outbox (bot/views/outbox.py),
  which shows it once Discord answers again.

What is retried where. discord.py's HTTP clients (``discord/webhook/async_.py`` for interaction
answers, ``discord/http.py`` for channel messages) wait out a 429 from Discord (the
``retry_after`` of its JSON body) and retry some 5xx a few times (interaction answers: any 5xx, five
attempts 1, 3, 5, 7, 9 s apart; channel messages: 500, 502, 504 but not 503). On top of that
``deliver_reply`` retries every 5xx, every 429 (waiting its ``Retry-After``, also one without
Discord's ``Via`` header, which discord.py takes for a Cloudflare ban), a dropped or timed-out
connection, with backoff (``BACKOFF``), for ``RETRY_FOR`` seconds on the interaction, then as long
in the channel, then hands it to the outbox. Anything else (404 Unknown Webhook once the interaction
token is dead, 403) goes to the next way at once. When an answer that would be the interaction's own
message (a callback, or the edit of "thinking") fails in a way that may have gone through, the bot
reads what the interaction shows before posting it in the channel. A "thinking" message that could
be neither replaced nor deleted is deleted later by the outbox.

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
from bot.tree import _ANSWERED, LOADING_ID, _called_back, _shown, note_message, resolves_loading, send, send_piece
from bot.tree import split_content

log = logging.getLogger(__name__)

ALT_LIMIT = 1024          # Discord caps an attachment description at 1024 characters
BACKOFF = (0.5, 1.0, 2.0, 4.0)   # our own retries (see module docstring): seconds before each, the last repeated
RETRY_FOR = 20.0          # seconds of retrying on the interaction, then in the channel, before the next way


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
    """Deliver the Reply to a committed change: to the interaction, else to the channel, else to the
    outbox. Never raises (see module docstring); what cannot be delivered at all is logged."""
    texts = split_content(reply_text(reply)) or [""]
    to_channel = False
    use_joined_bodies()
    for index, text in enumerate(texts):
        # file and buttons go with the last message, built afresh for each attempt
        extras: Callable[[], dict[str, Any]] = (lambda: _extras(reply)) if index == len(texts) - 1 else dict
        if not to_channel:
            to_channel = not await _to_interaction(interaction, text, reply.ephemeral, extras)
        if to_channel and not await _to_channel(interaction, reply, index, text, extras):
            await _outbox(interaction).keep_post(interaction, reply, "\n".join(texts[index:]), _nonce(interaction, index))
            break
    if to_channel and resolves_loading(interaction):
        # The answer is in the channel (or kept); take the "thinking" message away, now or later.
        try:
            await interaction.delete_original_response()
        except Exception as error:  # noqa: BLE001 - the outbox deletes it once Discord lets it
            log.warning("could not remove the loading message of interaction %s: %s", interaction.id, describe(error))
            if isinstance(loading := interaction.extras.get(LOADING_ID), int) and interaction.channel_id is not None:
                await _outbox(interaction).keep_removal(guild_key(interaction), str(interaction.channel_id), loading)


def _outbox(interaction: discord.Interaction) -> Any:
    return interaction.client.outbox  # type: ignore[attr-defined]   # bot/views/outbox.py's Outbox


def _nonce(interaction: discord.Interaction, index: int) -> str:
    return f"{interaction.id}-{index}"   # at most 25 characters; the same nonce never posts twice


async def _with_retries(send: Callable[[], Any], what: str, interaction: discord.Interaction) -> Any:
    """`send()`, retried as the module docstring says for up to RETRY_FOR seconds; raises the last error."""
    deadline = asyncio.get_running_loop().time() + RETRY_FOR
    attempt = 0
    while True:
        try:
            return await send()
        except Exception as error:  # noqa: BLE001 - sorted below: retried, or raised
            delay = retry_delay(error, attempt, deadline - asyncio.get_running_loop().time())
            if delay is None:
                raise
            log.warning("%s interaction %s failed (%s); retrying in %.1f s", what, interaction.id, describe(error), delay)
        await asyncio.sleep(delay)
        attempt += 1


async def _to_interaction(interaction: discord.Interaction, text: str, ephemeral: bool,
                          extras: Callable[[], dict[str, Any]]) -> bool:
    """Send one message as the interaction's answer, retrying. True when it went through; False
    when the channel should have it instead."""
    own_message = not _called_back(interaction) or resolves_loading(interaction)   # a callback, or "thinking" edited
    try:
        await _with_retries(lambda: send_piece(interaction, text, ephemeral=ephemeral, **extras()), "answering",
                            interaction)
        return True
    except Exception as error:  # noqa: BLE001 - the change is committed: no error may escape
        if own_message and _may_have_gone(error) and await _answer_shown(interaction):
            log.info("interaction %s shows its answer after all (%s)", interaction.id, describe(error))
            return True
        log.warning("could not answer interaction %s (%s); posting in the channel instead",
                    interaction.id, describe(error))
        return False


async def _answer_shown(interaction: discord.Interaction) -> bool:
    """Whether the interaction's own message is an answer (not "thinking"): a callback or edit
    whose reply was lost went through. False when that cannot be read either."""
    try:
        shown = await _shown(interaction)
    except Exception:  # noqa: BLE001 - unknown: the channel gets the answer
        return False
    if shown is None or shown.flags.loading:
        return False
    interaction.extras[_ANSWERED] = True
    note_message(interaction, shown.id)
    return True


async def _to_channel(interaction: discord.Interaction, reply: Reply, index: int, text: str,
                      extras: Callable[[], dict[str, Any]]) -> bool:
    """Post one message of the Reply in the interaction's channel, as a plain bot message. True
    when posted (or when it can never be: a private answer, no channel), False to keep it for later."""
    if reply.ephemeral:   # a private answer must not turn public; none of the committed ones is private
        log.error("could not deliver the private answer to interaction %s", interaction.id)
        return True
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        log.error("could not deliver the answer to interaction %s: no channel to post in", interaction.id)
        return True
    try:
        posted = await _with_retries(lambda: channel.send(text or None, nonce=_nonce(interaction, index), **extras()),
                                     "posting the answer to", interaction)
    except Exception as error:   # noqa: BLE001 - the change is committed: no error may escape
        if retry_delay(error, 0, float("inf")) is None:
            log.error("could not deliver the answer to interaction %s in channel %s: %s",
                      interaction.id, channel.id, describe(error), exc_info=error)
            return True   # refused for good (403, 404): the outbox would fare no better
        log.warning("could not post the answer to interaction %s (%s); keeping it for later", interaction.id,
                    describe(error))
        return False
    note_message(interaction, posted.id)   # the answer's message, for whoever reads answered_in
    return True


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


def _may_have_gone(error: BaseException) -> bool:
    """Whether a request that failed with `error` may still have been carried out."""
    return isinstance(error, (aiohttp.ClientConnectionError, TimeoutError)) or (
        isinstance(error, discord.HTTPException) and error.status >= 500)


def _retry_after(error: discord.HTTPException) -> float | None:
    try:
        return float(error.response.headers["Retry-After"])
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or type(error).__name__}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
