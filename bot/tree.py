"""The one place where Discord-layer errors become replies, plus the helpers that send them.

User mistakes (``UserError``, and ``AppCommandError`` subclasses such as a failed transformer
or check) become one ephemeral sentence. Anything else is logged with its traceback and the
user gets a short generic apology. Slash commands reach ``KibitzTree.on_error`` through
discord.py; button callbacks call :func:`report_error` themselves (discord.py sends
DynamicItem errors to a log line, not to the tree).

Ephemeral after a public "thinking" defer: Discord makes the first followup after a deferred
response replace the loading message *with the visibility chosen at defer time*, ignoring the
followup's own ephemeral flag. So when the answer turns out to be private (an error), we first
delete the public loading message, then send the ephemeral followup.

A public answer after a "thinking" defer replaces the loading message by editing it (PATCH
@original) rather than by a first followup (POST). Both look the same to the user, but an edit
can be repeated safely: discord.py retries a request Discord answered with a 5xx, and a POST
that Discord had carried out before failing would post the board twice.
"""
from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.service import UserError

log = logging.getLogger(__name__)

GENERIC_FAILURE = "Something went wrong on my side. It has been logged; please try again."
MAX_CONTENT = 2000
_ANSWERED = "kibitz_answered"   # Interaction.extras key: an answer already resolved the defer


def user_message(error: BaseException) -> str | None:
    """The sentence to show for a user-facing error, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return str(error) or "That did not work."
    if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        return "That command is out of date. Please try again in a minute."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.TransformerError):
        return f"I could not read {error.value!r} as a {error.type.name.replace('_', ' ')}."
    if isinstance(error, app_commands.AppCommandError):
        return str(error) or "That command cannot be used here."
    return None


async def send(interaction: discord.Interaction, content: str = "", *, ephemeral: bool = False,
               **kwargs) -> None:
    """Answer an interaction whether or not it was deferred; split content over 2000 chars.

    Extra keyword arguments (file, view, ...) go with the last piece.
    """
    texts = split_content(content) or [""]
    for index, text in enumerate(texts):
        extra = kwargs if index == len(texts) - 1 else {}
        await send_piece(interaction, text, ephemeral=ephemeral, **extra)


def resolves_loading(interaction: discord.Interaction) -> bool:
    """Whether the public "thinking" message of a deferred command still waits for its answer."""
    return (interaction.response.is_done()
            and interaction.response.type is discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get(_ANSWERED))


async def send_piece(interaction: discord.Interaction, content: str, *, ephemeral: bool, **kwargs) -> None:
    """Send one message (at most 2000 characters) as the interaction's answer or a followup."""
    if not interaction.response.is_done():
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
        return
    if resolves_loading(interaction):
        if not ephemeral:
            await _replace_loading(interaction, content, **kwargs)
            interaction.extras[_ANSWERED] = True
            return
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.debug("could not delete the loading message of interaction %s", interaction.id)
    await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    interaction.extras[_ANSWERED] = True


async def _replace_loading(interaction: discord.Interaction, content: str, *, file: discord.File | None = None,
                           view: discord.ui.View | None = None, **kwargs) -> None:
    """Turn the public "thinking" message into the answer (see module docstring)."""
    if file is not None:
        kwargs["attachments"] = [file]
    if view is not None:
        kwargs["view"] = view
    await interaction.edit_original_response(content=content, **kwargs)


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


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Turn an error into a reply: a sentence for user mistakes, a logged traceback for bugs."""
    text = user_message(error)
    if text is None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        name = interaction.command.qualified_name if interaction.command else interaction.data
        log.error("Error handling interaction %s (%s)", interaction.id, name, exc_info=original)
        text = GENERIC_FAILURE
    try:
        await send(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.exception("Could not tell the user about an error in interaction %s", interaction.id)


class KibitzTree(app_commands.CommandTree):
    """Maps every app-command error to one ephemeral reply (see module docstring)."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        await report_error(interaction, error)
