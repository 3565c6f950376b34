"""What the deadline scheduler (bot/scheduler.py) shows on Discord without an interaction to
answer: an expired challenge (its message edited by bot/views/challenge.py's ``show_settled``,
else a note where it was asked for), and messages posted in a game's channel or thread (a
reminder, the final board of a game lost on time)."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.service import Reply
from bot.store import GameRecord
from bot.tree import split_content
from bot.views.challenge import show_settled
from bot.views.replies import _extras, reply_text

if TYPE_CHECKING:
    from discord.ext import commands

log = logging.getLogger(__name__)


async def show_expired(bot: commands.Bot, record: GameRecord, text: str) -> None:
    """Edit the expired challenge's message (no buttons left); where it has no known message, or
    the edit fails, post `text` where the challenge was asked for instead."""
    if await show_settled(bot, record, "expired"):
        return
    channel = bot.get_partial_messageable(int(record.home_channel_id or record.channel_id))
    await channel.send(text)


async def post_in(bot: commands.Bot, channel_id: str, reply: Reply) -> None:
    """Post a Reply in a channel or thread: its text (opening with the mention of `reply.ping`,
    the one member it may ping), its board and buttons with the last piece."""
    channel = bot.get_partial_messageable(int(channel_id))
    pieces = split_content(reply_text(reply)) or [""]
    for index, piece in enumerate(pieces):
        extra: dict[str, Any] = _extras(reply) if index == len(pieces) - 1 else {}
        await channel.send(piece or None, **extra)
