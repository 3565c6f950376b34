"""Turning Discord context into service arguments, and service Replies into Discord messages."""
from __future__ import annotations

import io

import discord

from bot.service import Player, Reply
from bot.tree import send

ALT_LIMIT = 1024   # Discord caps an attachment description at 1024 characters


def channel_key(interaction: discord.Interaction) -> str:
    """The service's channel key: the channel id, or the thread id inside a thread.

    Discord already reports a thread as the interaction's channel, so this is channel_id.
    """
    return str(interaction.channel_id)


def guild_key(interaction: discord.Interaction) -> str | None:
    return str(interaction.guild_id) if interaction.guild_id else None


def player(user: discord.abc.User) -> Player:
    return Player(str(user.id), user.display_name)


async def send_reply(interaction: discord.Interaction, reply: Reply) -> None:
    """Send a service Reply: text, the board PNG with its alt text, and challenge buttons."""
    from bot.views.challenge import challenge_view   # the view module imports this one

    extra: dict = {}
    if reply.image is not None:
        extra["file"] = discord.File(io.BytesIO(reply.image), filename=reply.filename or "board.png",
                                     description=(reply.alt or "")[:ALT_LIMIT] or None)
    if reply.challenge is not None:
        extra["view"] = challenge_view(*reply.challenge)
    await send(interaction, reply.text, ephemeral=reply.ephemeral, **extra)
