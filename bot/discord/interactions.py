"""The answering protocol: how the bot answers an interaction (its callback, a defer showing
"thinking", the edit of that message, a followup), whatever the answer is.

One request per answer: a command whose answer is ready within ``DEFER_AFTER`` seconds answers
with the interaction's callback itself (text, picture and buttons in one request), with no
"thinking" message before it. Discord refuses a second callback to the same interaction
("already acknowledged", code 40060), so repeating a callback is safe (discord.py repeats a
request Discord answered with a 5xx, and deliver_reply one whose connection dropped). A refusal
alone does not say what went through, so the bot then reads what the interaction shows
(GET @original, only on this rare path): an answer already there counts as delivered; a "thinking"
message (a defer that went through though its reply was lost) is resolved as after any defer;
no message at all gets the answer as a followup.

Discord's 3 seconds run from when it made the interaction, not from when the bot got it, so
``DEFER_AFTER`` (1.5 s) counts from there too (the interaction's snowflake, :func:`defer_in`): an
interaction that reached a lagging bot late defers sooner.

A slow command (still running after ``DEFER_AFTER`` seconds) defers publicly so Discord's
3-second limit holds (a defer that fails is left to the answer, as above), and its public answer
then replaces the loading message by editing it (PATCH @original) rather than by a first followup
(POST): both look the same to the user, but an edit can be repeated safely, where a POST that
Discord had carried out before failing would post the board twice.

Ephemeral after a public "thinking" defer: Discord makes the first followup after a deferred
response replace the loading message *with the visibility chosen at defer time*, ignoring the
followup's own ephemeral flag. So when the answer turns out to be private (an error), we first
delete the public loading message, then send the ephemeral followup. After a private "thinking"
(:func:`defer_privately`: a command whose answers are all private) the answer simply replaces it.
"""
from __future__ import annotations

import logging

import aiohttp
import discord

from bot.discord.transport import split_content

log = logging.getLogger(__name__)

_ANSWERED = "kibitz_answered"   # Interaction.extras key: an answer already went (callback or resolved defer)
_LOADING = "kibitz_loading"     # Interaction.extras key, after a refused callback: it left "thinking"
_MESSAGE = "kibitz_message"     # Interaction.extras key: id of the last message that carried the answer
_PRIVATE = "kibitz_private"     # Interaction.extras key: its "thinking" is private (defer_privately)
LOADING_ID = "kibitz_loading_id"   # Interaction.extras key: id of its public "thinking" message, when known
ALREADY_ACKNOWLEDGED = 40060     # Discord's code for a second callback to one interaction
DEFER_AFTER = 1.5     # seconds after the interaction was made before a command defers publicly (Discord allows 3)


async def send(interaction: discord.Interaction, content: str = "", *, ephemeral: bool = False,
               **kwargs) -> None:
    """Answer an interaction whether or not it was deferred; split content over 2000 chars.

    Extra keyword arguments (file, view, ...) go with the last piece.
    """
    texts = split_content(content) or [""]
    for index, text in enumerate(texts):
        extra = kwargs if index == len(texts) - 1 else {}
        await send_piece(interaction, text, ephemeral=ephemeral, **extra)


async def send_piece(interaction: discord.Interaction, content: str, *, ephemeral: bool, **kwargs) -> None:
    """Send one message (at most 2000 characters) as the interaction's answer or a followup."""
    if not called_back(interaction):
        try:
            response = await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
            interaction.extras[_ANSWERED] = True
            note_message(interaction, response.message_id)
            return
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
        # Discord has a callback already: see what it shows (module docstring)
        shown = await shown_message(interaction)
        if shown is not None and not shown.flags.loading:
            log.info("interaction %s: a repeated answer was refused as already made", interaction.id)
            interaction.extras[_ANSWERED] = True
            note_message(interaction, shown.id)
            return
        interaction.extras[_LOADING] = shown is not None   # a defer went through: resolve it below
        if shown is not None:
            interaction.extras[LOADING_ID] = shown.id
    if resolves_loading(interaction):
        if not ephemeral or interaction.extras.get(_PRIVATE):   # the answer takes the loading message's place
            await _replace_loading(interaction, content, **kwargs)
            interaction.extras[_ANSWERED] = True
            return
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.debug("could not delete the loading message of interaction %s", interaction.id)
    sent = await interaction.followup.send(content, ephemeral=ephemeral, wait=True, **kwargs)
    interaction.extras[_ANSWERED] = True
    note_message(interaction, sent.id)


def resolves_loading(interaction: discord.Interaction) -> bool:
    """Whether the public "thinking" message of a deferred command still waits for its answer."""
    deferred = (interaction.response.is_done()
                and interaction.response.type is discord.InteractionResponseType.deferred_channel_message)
    return (deferred or bool(interaction.extras.get(_LOADING))) and not interaction.extras.get(_ANSWERED)


def note_message(interaction: discord.Interaction, message_id: int | None) -> None:
    """Keep the id of a message that carried the answer (the last one: it carries the buttons)."""
    if message_id is not None:
        interaction.extras[_MESSAGE] = message_id


def note_answered(interaction: discord.Interaction, message_id: int | None) -> None:
    """The interaction's answer went (in message `message_id`, if known): no second one follows."""
    interaction.extras[_ANSWERED] = True
    note_message(interaction, message_id)


def answered_in(interaction: discord.Interaction) -> int | None:
    """The id of the message that carried the interaction's answer (its last piece), if known."""
    return interaction.extras.get(_MESSAGE)


def called_back(interaction: discord.Interaction) -> bool:
    """Whether a callback of ours went through: discord.py saw it, or Discord refused a repeat."""
    return interaction.response.is_done() or _ANSWERED in interaction.extras or _LOADING in interaction.extras


async def shown_message(interaction: discord.Interaction) -> discord.InteractionMessage | None:
    """The message a callback of this interaction made (an answer, or "thinking"), or None."""
    try:
        shown = await interaction.original_response()
    except discord.NotFound:
        return None
    if interaction.message is not None and shown.id == interaction.message.id:
        return None   # a component's own message (after a deferred update): no answer of ours
    return shown


async def _replace_loading(interaction: discord.Interaction, content: str, *, file: discord.File | None = None,
                           view: discord.ui.View | None = None, **kwargs) -> None:
    """Turn the public "thinking" message into the answer (see module docstring)."""
    if file is not None:
        kwargs["attachments"] = [file]
    if view is not None:
        kwargs["view"] = view
    message = await interaction.edit_original_response(content=content, **kwargs)
    note_message(interaction, message.id)


async def defer_privately(interaction: discord.Interaction) -> None:
    """"Thinking", seen by the caller alone, for a command whose answers are all private: the
    answer then replaces it in one request (module docstring)."""
    await interaction.response.defer(thinking=True, ephemeral=True)
    interaction.extras[_PRIVATE] = True


def defer_in(interaction: discord.Interaction) -> float:
    """Seconds the command may still run before it defers: DEFER_AFTER counted from when Discord
    made the interaction (its snowflake), as Discord's 3 seconds are, so an interaction that
    reached a lagging bot late defers sooner. Never more than DEFER_AFTER from now: a host clock
    behind Discord's changes nothing, and one ahead only makes slow commands defer earlier."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(DEFER_AFTER, max(0.0, DEFER_AFTER - age))


async def defer_publicly(interaction: discord.Interaction) -> None:
    """Defer publicly ("thinking"); a defer that fails (refused, expired, or its connection lost,
    perhaps after it went through) is left to the answer: send_piece finds out what the
    interaction shows, and deliver_reply posts in the channel what cannot go there."""
    try:
        response = await interaction.response.defer(thinking=True)
        interaction.extras[LOADING_ID] = response.message_id if response is not None else None
    except discord.HTTPException as error:
        log.warning("could not defer interaction %s: %s %s", interaction.id, error.status, error.text)
    except (aiohttp.ClientConnectionError, TimeoutError) as error:   # it may have gone through: the answer finds out
        log.warning("could not defer interaction %s: %s", interaction.id, type(error).__name__)
