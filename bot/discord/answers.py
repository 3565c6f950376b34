"""A service Reply as a Discord message (text, board picture, card, components), and its delivery.

Two ways to send a Reply:

- ``send_reply`` for answers that change nothing (``/board``, ``/rules``): if Discord refuses,
  the error reaches ``KibitzTree.on_error`` like any other, and trying again is safe.
- ``deliver_reply`` for the answer to a change the service has already committed (a move, a
  resignation, an accepted challenge...). It never raises and never reports a failure, because
  the change stands: telling the player "try again" would make the retry fail ("not your turn").
  It sends the Reply as the interaction's answer (its callback, the edit of its "thinking"
  message, or a followup); if that does not go through, it posts the same message in the channel
  instead; and if Discord takes neither, it keeps the answer in the outbox (bot/discord/outbox.py),
  which shows it once Discord answers again.

Retries. ``deliver_reply`` retries each way (bot/discord/transport.py says which failures, how
long) for ``RETRY_FOR`` seconds on the interaction, then as long in the channel, then hands the
answer to the outbox; an error not worth a retry goes to the next way at once. When an answer that
would be the interaction's own message (a callback, or the edit of "thinking") fails after an
attempt that may have gone through (any attempt, not only the last: ``may_have_gone``), the bot
reads what the interaction shows before posting it in the channel; a post kept after such an
attempt is kept as one Discord may have made (bot/discord/outbox.py).
A "thinking" message that could be neither replaced nor deleted is deleted later by the outbox.

No doubles. The answer to a slash command is its callback, which Discord refuses to make twice
(after a refused repeat the bot reads what the interaction shows: see bot/discord/interactions.py),
or after a slow call an edit of its "thinking" message, which a repeat changes again. Channel messages
carry a nonce with ``enforce_nonce``, so Discord answers a repeated post with the first message.
Only a followup that posts (a button's answer) could appear twice, if Discord made it and the
connection dropped before its answer; that is preferred to losing it.
"""
from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.components.board_buttons import with_controls
from bot.discord.components.challenge import challenge_view
from bot.discord.components.kingswap_grid import grid_view
from bot.discord.components.turn_builder import builder_view
from bot.discord.context import guild_key
from bot.discord.interactions import (LOADING_ID, answered_in, called_back, defer_in, defer_publicly, note_answered,
                                      note_message, resolves_loading, send, send_piece, shown_message)
from bot.discord.limits import MAX_ALT, MAX_EMBED_TEXT, MAX_EMBED_TITLE, MAX_EMBED_TOTAL
from bot.discord.outbox import Outbox, show_newest
from bot.discord.transport import describe, may_have_gone, retry_delay, split_content, use_joined_bodies, with_retries
from bot.service import Reply

log = logging.getLogger(__name__)


def message_kwargs(reply: Reply) -> dict[str, Any]:
    """The board PNG with its alt text, challenge buttons or the turn builder. Built afresh for every attempt."""
    extra: dict[str, Any] = {}
    if reply.image is not None:
        extra["file"] = discord.File(io.BytesIO(reply.image), filename=reply.filename or "board.png",
                                     description=(reply.alt or "")[:MAX_ALT] or None)
    if reply.challenge is not None:
        extra["view"] = challenge_view(*reply.challenge)
    elif reply.grid is not None:   # KingSwap!: its grid is the board's one control, not the builder's menus too
        extra["view"] = grid_view(reply.grid)
    elif reply.builder is not None and reply.game_id is not None and reply.ply is not None:
        builder = builder_view(reply.game_id, reply.ply, reply.builder)
        if builder.children:
            extra["view"] = builder
    if reply.challenge is None and (view := with_controls(extra.get("view"), reply)) is not None:
        extra["view"] = view
    if reply.embed is not None:
        extra["embed"] = reply_embed(reply)
        if more := card_pieces(reply.embed)[2]:   # a card longer than one embed goes on in a second
            extra["embeds"] = [extra.pop("embed"), discord.Embed(description=more)]
    if reply.pings:   # those members alone; the bot's default stays AllowedMentions.none()
        extra["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(int(pid)) for pid in reply.pings])
    return extra


def message(reply: Reply) -> tuple[str, dict[str, Any]]:
    """A Reply as a message the bot posts: its text (opening with its ping) and the rest (message_kwargs)."""
    return reply_text(reply), message_kwargs(reply)


def reply_text(reply: Reply) -> str:
    """The Reply's text, opening with a mention of each member it pings, if any."""
    return "".join(f"<@{pid}> " for pid in reply.pings) + reply.text


def reply_embed(reply: Reply) -> discord.Embed:
    """A Reply's card (the /rules embed, its first piece), its picture shown inside it from the attachment."""
    title, first, _, _ = card_pieces(reply.embed or {})
    embed = discord.Embed(title=title, description=first)
    if reply.image is not None:
        embed.set_image(url=f"attachment://{reply.filename or 'board.png'}")
    return embed


def card_pieces(card: dict[str, str]) -> tuple[str, str, str, str]:
    """(title, first, more, next) of a card {"title", "description"}: `first` and `more` are the
    descriptions of the first message's two embeds (its 6,000 characters in all), `next` the second
    message's; what even that cannot hold ends in "…". Empty where the card needs no more."""
    title, body = card.get("title", "")[:MAX_EMBED_TITLE], card.get("description", "")
    first, rest = _cut(body, MAX_EMBED_TEXT)
    more, rest = _cut(rest, min(MAX_EMBED_TEXT, MAX_EMBED_TOTAL - len(title) - len(first)))
    after, rest = _cut(rest, MAX_EMBED_TEXT)
    if rest:
        after = _cut(after, MAX_EMBED_TEXT - 2)[0] + "\n…"
    return title, first, more, after


def _cut(text: str, limit: int) -> tuple[str, str]:
    """`text` cut within `limit` characters, at a paragraph break where there is one (else a line
    break, else anywhere): (the part that fits, the rest)."""
    if len(text) <= limit:
        return text, ""
    cut = max(text.rfind("\n\n", 0, limit + 1), 0) or max(text.rfind("\n", 0, limit + 1), 0) or limit
    return text[:cut].rstrip(), text[cut:].strip()


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a service Reply that changed nothing: text, the board PNG with its alt text, buttons;
    a Reply with a card shows the card (its text is the card's) with the picture inside."""
    text = "" if reply.embed is not None else reply_text(reply)
    use_joined_bodies()
    await send(interaction, text, ephemeral=reply.ephemeral, **message_kwargs(reply))
    await show_newest(interaction.client, reply, answered_in(interaction))
    if reply.embed is not None and (after := card_pieces(reply.embed)[3]):   # too long for one message: a second
        await send(interaction, ephemeral=reply.ephemeral, embed=discord.Embed(description=after))


async def deliver_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Deliver the Reply to a committed change: to the interaction, else to the channel, else to the
    outbox. Never raises (see module docstring); what cannot be delivered at all is logged."""
    texts = split_content(reply_text(reply)) or [""]
    to_channel = False
    use_joined_bodies()
    for index, text in enumerate(texts):
        # file and buttons go with the last message, built afresh for each attempt
        extras: Callable[[], dict[str, Any]] = (lambda: message_kwargs(reply)) if index == len(texts) - 1 else dict
        if not to_channel:
            to_channel = not await _to_interaction(interaction, text, reply.ephemeral, extras)
        if to_channel and (failed := await _to_channel(interaction, reply, index, text, extras)) is not None:
            await _outbox(interaction).keep_post(interaction, reply, "\n".join(texts[index:]),
                                                 _nonce(interaction, index), may_have_gone(*failed))
            break
    else:
        await show_newest(interaction.client, reply, answered_in(interaction))
    if to_channel and resolves_loading(interaction):
        # The answer is in the channel (or kept); take the "thinking" message away, now or later.
        try:
            await interaction.delete_original_response()
        except Exception as error:  # noqa: BLE001 - the outbox deletes it once Discord lets it
            log.warning("could not remove the loading message of interaction %s: %s", interaction.id, describe(error))
            if isinstance(loading := interaction.extras.get(LOADING_ID), int) and interaction.channel_id is not None:
                await _outbox(interaction).keep_removal(guild_key(interaction), str(interaction.channel_id), loading)


def _outbox(interaction: discord.Interaction) -> Outbox:
    return interaction.client.outbox  # type: ignore[attr-defined]   # KibitzBot.outbox


def _nonce(interaction: discord.Interaction, index: int) -> str:
    return f"{interaction.id}-{index}"   # at most MAX_NONCE characters; the same nonce never posts twice


async def _to_interaction(interaction: discord.Interaction, text: str, ephemeral: bool,
                          extras: Callable[[], dict[str, Any]]) -> bool:
    """Send one message as the interaction's answer, retrying. True when it went through; False
    when the channel should have it instead."""
    own_message = not called_back(interaction) or resolves_loading(interaction)   # a callback, or "thinking" edited
    errors: list[BaseException] = []
    try:
        await with_retries(lambda: send_piece(interaction, text, ephemeral=ephemeral, **extras()),
                           f"answering interaction {interaction.id}", errors)
        return True
    except Exception as error:  # noqa: BLE001 - the change is committed: no error may escape
        if own_message and may_have_gone(*errors) and await _answer_shown(interaction):
            log.info("interaction %s shows its answer after all (%s)", interaction.id, describe(error))
            return True
        log.warning("could not answer interaction %s (%s); posting in the channel instead",
                    interaction.id, describe(error))
        return False


async def _answer_shown(interaction: discord.Interaction) -> bool:
    """Whether the interaction's own message is an answer (not "thinking"): a callback or edit
    whose reply was lost went through. False when that cannot be read either."""
    try:
        message = await shown_message(interaction)
    except Exception:  # noqa: BLE001 - unknown: the channel gets the answer
        return False
    if message is None or message.flags.loading:
        return False
    note_answered(interaction, message.id)
    return True


async def _to_channel(interaction: discord.Interaction, reply: Reply, index: int, text: str,
                      extras: Callable[[], dict[str, Any]]) -> list[BaseException] | None:
    """Post one message of the Reply in the interaction's channel, as a plain bot message. None when
    posted (or when it can never be: a private answer, no channel), else the errors of its attempts
    (it is kept for later)."""
    if reply.ephemeral:   # a private answer must not turn public; none of the committed ones is private
        log.error("could not deliver the private answer to interaction %s", interaction.id)
        return None
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        log.error("could not deliver the answer to interaction %s: no channel to post in", interaction.id)
        return None
    errors: list[BaseException] = []
    try:
        posted = await with_retries(lambda: channel.send(text or None, nonce=_nonce(interaction, index), **extras()),
                                    f"posting the answer to interaction {interaction.id}", errors)
    except Exception as error:   # noqa: BLE001 - the change is committed: no error may escape
        if retry_delay(error, 0, float("inf")) is None:
            log.error("could not deliver the answer to interaction %s in channel %s: %s",
                      interaction.id, channel.id, describe(error), exc_info=error)
            return None   # refused for good (403, 404): the outbox would fare no better
        log.warning("could not post the answer to interaction %s (%s); keeping it for later", interaction.id,
                    describe(error))
        return errors
    note_message(interaction, posted.id)   # the answer's message, for whoever reads answered_in
    return None


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *, changes: bool = False) -> Reply:
    """Answer a slash command (or a Confirm) with the Reply `work` (a service call) gives; see
    bot/discord/interactions.py for when it defers.

    `changes`: the call commits a change, so its answer is delivered whatever happens
    (``deliver_reply``); else it is sent (``send_reply``). An error from `work` propagates to
    ``KibitzTree.on_error``: private, and with no "thinking" before it when it came quickly.
    Returns the Reply, sent.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=defer_in(interaction))
    if not done:
        await defer_publicly(interaction)   # slow: show "thinking" now; a public answer is the likely one
    reply = await task   # ready in time: the answer is the callback itself, one request
    if changes:
        await deliver_reply(interaction, reply)
    else:
        await send_reply(interaction, reply)
    return reply


async def post_reply(interaction: discord.Interaction, channel: discord.abc.Messageable,
                     reply: Reply) -> discord.Message | None:
    """Post a Reply (board, buttons, ping) as a plain bot message, e.g. in a game's new thread, for
    the change `interaction` made. Never raises: the change it reports is committed (``post_kept``)."""
    return await post_kept(interaction.client, guild_key(interaction), channel, reply, f"{interaction.id}-p",
                           f"game {reply.game_id} in {getattr(channel, 'id', '?')}")


async def post_kept(client: discord.Client, guild_id: str | None, channel: discord.abc.Messageable, reply: Reply,
                    nonce: str, what: str) -> discord.Message | None:
    """Post the Reply of a committed change in `channel`, each message retried (transport.py) with the
    nonce `nonce` and its index, so a retry never posts it twice; what Discord does not take for now
    goes to the outbox. Never raises; returns the last message, None when not posted (yet)."""
    texts = split_content(reply_text(reply)) or [""]
    message = None
    use_joined_bodies()
    for index, text in enumerate(texts):
        extras: Callable[[], dict[str, Any]] = (lambda: message_kwargs(reply)) if index == len(texts) - 1 else dict
        errors: list[BaseException] = []
        try:
            message = await with_retries(lambda: channel.send(text or None, nonce=f"{nonce}{index}", **extras()),
                                         f"posting {what}", errors)
        except Exception as error:  # noqa: BLE001 - committed: log or keep, never turn into an error
            if retry_delay(error, 0, float("inf")) is None:
                log.error("could not post %s: %s", what, describe(error), exc_info=error)
            else:
                await client.outbox.keep_reply(guild_id, str(getattr(channel, "id", "")),  # type: ignore[attr-defined]
                                               reply, "\n".join(texts[index:]), f"{nonce}{index}", what,
                                               may_have_gone(*errors))
            return None
    await show_newest(client, reply, message.id if message is not None else None)
    return message


class DiscordAnswers:
    """This module as the components reach it (``context.Answers``, set on the bot as ``answers``)."""

    answer = staticmethod(answer)
    deliver = staticmethod(deliver_reply)
    post = staticmethod(post_reply)
