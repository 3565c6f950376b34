"""What the deadline scheduler (bot/scheduler.py) shows on Discord without an interaction to
answer (:func:`show_event`): an expired challenge (its message edited by ``show_settled`` of
bot/discord/components/challenge.py, else a note where it was asked for), and messages posted in
a game's channel or thread (a reminder, the final board of a game lost on time)."""
from __future__ import annotations

import logging

import discord

from bot.discord.answers import post_kept
from bot.discord.components.challenge import show_settled
from bot.service import DueEvent, Reply
from bot.store import GameRecord

log = logging.getLogger(__name__)


async def show_expired(bot: discord.Client, record: GameRecord, text: str) -> None:
    """Edit the expired challenge's message (no buttons left); where it has no known message, or
    the edit fails, post `text` where the challenge was asked for instead."""
    if await show_settled(bot, record, "expired"):
        return
    await post_in(bot, record, record.home_channel_id or record.channel_id, Reply(text), "expired")


async def post_in(bot: discord.Client, record: GameRecord, channel_id: str, reply: Reply, kind: str) -> None:
    """Post a Reply in a channel or thread: its text (opening with the mentions of `reply.pings`,
    the members it may ping), its board and buttons with the last piece; retried, else kept in
    the outbox (answers.py's ``post_kept``), with a nonce of the game, the event and the game's
    version, so it is never posted twice."""
    await post_kept(bot, record.guild_id, bot.get_partial_messageable(int(channel_id)), reply,
                    f"{record.id}-{kind[0]}{record.version}-", f"the {kind} of game {record.id}")


async def show_event(bot: discord.Client, event: DueEvent) -> None:
    """Show one carried-out deadline (the scheduler's `deliver`; it logs a failure)."""
    if event.kind == "expired":
        await show_expired(bot, event.record, event.reply.text)
    else:   # a reminder (pinging reply.pings: the player to move alone), the computer's move, or the final board
        await post_in(bot, event.record, event.record.channel_id, event.reply, event.kind)
