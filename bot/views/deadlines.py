"""What the deadline scheduler (bot/scheduler.py) shows on Discord: the settled challenge's
message edited in place, and messages posted in a game's channel or thread without an
interaction to answer (a reminder, the final board of a game lost on time)."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.service import Reply
from bot.store import GameRecord
from bot.tree import split_content
from bot.views.replies import _extras

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)


async def edit_settled_challenge(bot: commands.Bot, record: GameRecord, text: str) -> None:
    """Edit a settled challenge's message to `text`, with no buttons left. A challenge whose
    message is unknown (or gone) gets `text` posted where it was asked for instead."""
    channel_id = record.home_channel_id or record.channel_id
    channel = bot.get_partial_messageable(int(channel_id))
    if record.message_id:
        try:
            await channel.get_partial_message(int(record.message_id)).edit(content=text, view=None)
            return
        except discord.NotFound:
            log.info("the message of challenge %s is gone; posting its end instead", record.id)
    await channel.send(text)


async def post_in(bot: commands.Bot, channel_id: str, reply: Reply, *, text: str | None = None,
                  **kwargs: Any) -> None:
    """Post a Reply (its board and buttons with the last piece) in a channel or thread."""
    channel = bot.get_partial_messageable(int(channel_id))
    pieces = split_content(reply.text if text is None else text) or [""]
    for index, piece in enumerate(pieces):
        extra = {**_extras(reply), **kwargs} if index == len(pieces) - 1 else kwargs
        await channel.send(piece or None, **extra)
