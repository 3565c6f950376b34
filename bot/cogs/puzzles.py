"""The solo puzzles' own commands and flows: /hint, and the Discord side of the daily deal.

``/puzzle variant daily:True`` (the option lives on /puzzle in bot/cogs/games.py, which calls
:func:`daily_puzzle`): each member plays their own copy of today's deal where nobody else sees it,

1. in a private thread of their own (of the channel asked in, or of a thread's parent), with
   them added as its member, where the bot may create one;
2. else in a direct message;
3. else nowhere: one private sentence says why.

The asker hears privately where the copy is. Asking again the same day links the copy already
dealt. A daily never takes the channel's one game in play: it lives in the thread or DM.

:func:`post_grid` (bot/views/kingswap_grid.py) puts the KingSwap! grid beside the board, for
/puzzle kingswap and for its daily.
"""
from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

import rules

from bot.service import GameService, Player, UserError
from bot.tree import answer, defer_privately, send
from bot.names import plain
from bot.views.challenge import drop_thread, fit_thread_name, post_reply
from bot.views.kingswap_grid import post_grid
from bot.views.replies import channel_key, describe, guild_key, player

log = logging.getLogger(__name__)

# One deal at a time per member and puzzle: a double click on Send must not open two private threads.
_dealing: dict[tuple[str, str], asyncio.Lock] = {}

NOWHERE = ("I cannot deal you a private copy: I may not open a private thread here and your direct "
           "messages are closed to me. Open your DMs to this server's members, or ask in another channel.")


class Puzzles(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    @app_commands.command(name="hint", description="One good next move in this channel's solo puzzle, and why.")
    async def hint(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.hint(channel_key(interaction), player(interaction.user)), changes=True)


async def daily_puzzle(interaction: discord.Interaction, service: GameService, variant: str,
                       seed: int | None = None, level: int | None = None) -> None:
    """Deal today's `variant` to the member, privately (see module docstring)."""
    await defer_privately(interaction)
    if seed is not None or level is not None:
        raise UserError("Today's deal is the same for everyone: leave out the seed and level.")
    me = player(interaction.user)
    await service.check_start(guild_key(interaction), variant, players=1)   # turned off here? before any thread
    deal = await service.daily_deal(variant)   # a UserError here reaches the tree: one private sentence
    async with _dealing.setdefault((me.id, deal.slug), asyncio.Lock()):
        await _deal(interaction, service, me, deal)


async def _deal(interaction: discord.Interaction, service: GameService, me: Player, deal: rules.DailyDeal) -> None:
    """Link the member's copy of `deal`, or deal it in a private place of their own."""
    name = rules.VARIANTS[deal.slug].name
    copy = await service.daily_copy(me, deal.slug)
    if copy is not None:
        where = await _where(interaction.client, copy.channel_id, interaction.user)
        await send(interaction, f"You already have today's {name} deal (game #{copy.id}) {where}. "
                                f"One copy a day: only its first finish counts.", ephemeral=True)
        return
    place, where = await _private_place(interaction, service, f"{name} daily {deal.day.isoformat()} · {plain(me.name)}")
    if place is None:
        await send(interaction, where or NOWHERE, ephemeral=True)
        return
    try:
        reply = await service.start_daily(str(place.id), me, deal.slug, guild=guild_key(interaction),
                                          home=channel_key(interaction))
    except BaseException:
        if isinstance(place, discord.Thread):
            await drop_thread(place, service)   # made for this copy, which was not dealt
        raise
    # The copy is dealt: from here on nothing may turn into an error reply.
    await post_reply(place, reply)
    await post_grid(interaction.client, service, reply.game_id)
    try:
        await send(interaction, f"Today's {name} deal is yours to play {where}. Only your first finish counts "
                                f"for the daily board (/leaderboard {deal.slug} daily:True).", ephemeral=True)
    except Exception as error:  # noqa: BLE001 - the copy stands; the player finds it in the thread or DM
        log.warning("could not tell %s where their daily is (%s)", me.id, describe(error))


async def _private_place(interaction: discord.Interaction, service: GameService,
                         title: str) -> tuple[discord.Thread | discord.DMChannel | None, str]:
    """A private thread with the member in it, else their DM (if it is free and takes a message),
    else None; with the words that say where ("in <#thread>", "in your direct messages"), or
    for None why not (empty: the usual NOWHERE)."""
    channel = interaction.channel
    if interaction.guild is not None:
        parent = channel.parent if isinstance(channel, discord.Thread) else channel
        if isinstance(parent, discord.TextChannel):
            try:
                thread = await parent.create_thread(name=fit_thread_name(title), type=discord.ChannelType.private_thread,
                                                    invitable=False, auto_archive_duration=1440)
                await thread.add_user(interaction.user)
                return thread, f"in {thread.mention}"
            except discord.HTTPException as error:
                log.info("no private thread for a daily in %s (%s); trying a DM", parent.id, describe(error))
    elif isinstance(channel, discord.DMChannel):
        return channel, "here"
    try:
        dm = await interaction.user.create_dm()
        if await service.has_game(str(dm.id)):
            return None, ("I cannot open a private thread here, and our direct messages already have a game in "
                          "play: finish it (or /resign there) first, or ask in another channel.")
        await dm.send(f"{title.split(' · ')[0]}: your own copy, dealt here so nobody else sees your moves.")
        return dm, "in your direct messages with me"
    except discord.HTTPException as error:
        log.info("no DM for the daily of %s (%s)", interaction.user.id, describe(error))
        return None, ""


async def _where(client: discord.Client, channel_id: str, member: discord.abc.Snowflake) -> str:
    """Where a copy is, in words a member can follow. A private thread they left is shut to
    them: they are added to it again."""
    try:
        channel = client.get_channel(int(channel_id)) or await client.fetch_channel(int(channel_id))
    except discord.HTTPException:
        return "in a thread or DM I can no longer find"
    if isinstance(channel, discord.DMChannel):
        return "in your direct messages with me"
    if isinstance(channel, discord.Thread):
        try:
            await channel.add_user(member)
        except discord.HTTPException as error:
            log.info("could not add %s back to thread %s (%s)", member.id, channel_id, describe(error))
    return f"in <#{channel_id}>"
