"""Starting games: /challenge, /puzzle and /games (the open games and challenges to join).

A challenge accepted or a puzzle asked for in a text channel is played in a thread of its own
(bot/discord/components/threads.py).

``/challenge variant opponent:@Kibitz [level]`` (the bot's own user) starts a game against the
computer at once (:func:`play_computer`): no Accept; the channel gets a public pointer and the
game its own thread, ``alice vs Kibitz (level 3) · Zoo Chess``. Other bots are refused.

``/puzzle variant daily:True`` (:func:`daily_puzzle`): each member plays their own copy of today's
deal where nobody else sees it,

1. in a private thread of their own (of the channel asked in, or of a thread's parent), with
   them added as its member, where the bot may create one;
2. else in a direct message;
3. else nowhere: one private sentence says why.

The asker hears privately where the copy is. Asking again the same day links the copy already
dealt. A daily never takes the channel's one game in play: it lives in the thread or DM.

A KingSwap! board carries its grid of buttons (bot/discord/components/kingswap_grid.py).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import engine
import rules
from bot.discord.answers import answer, post_reply
from bot.discord.cogs.options import Text, variant_autocomplete
from bot.discord.components.challenge import announce_challenge
from bot.discord.components.threads import (add_players, begin_in, drop_thread, fit_thread_name, may_open_thread,
                                            open_thread, thread_name)
from bot.discord.context import channel_key, guild_key, player
from bot.discord.interactions import defer_privately, send
from bot.discord.limits import MAX_INTEGER
from bot.discord.transport import describe
from bot.names import plain
from bot.service import COMPUTER, GameService, Player, Reply, UserError
from bot.settings import MAX_DAYS, MIN_DAYS
from bot.store import GameRecord, GameStatus

log = logging.getLogger(__name__)

JUMP = "https://discord.com/channels"
# One deal at a time per member and puzzle: a double click on Send must not open two private threads.
_dealing: dict[tuple[str, str], asyncio.Lock] = {}

NOWHERE = ("I cannot deal you a private copy: I may not open a private thread here and your direct "
           "messages are closed to me. Open your DMs to this server's members, or ask in another channel.")


def game_link(guild_id: int | None, record: GameRecord) -> str | None:
    """Where a listed game is: the challenge's message, or the channel or thread the game is played in."""
    if guild_id is None:
        return None
    if record.status == GameStatus.CHALLENGE:
        home = record.home_channel_id or record.channel_id
        return f"{JUMP}/{guild_id}/{home}/{record.message_id}" if record.message_id else f"{JUMP}/{guild_id}/{home}"
    return f"{JUMP}/{guild_id}/{record.channel_id}"


class Starting(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    @app_commands.command(name="puzzle", description="Start a solo puzzle (in a thread of its own where possible).")
    @app_commands.describe(variant="The puzzle", seed="Seed for the starting setup (same seed, same puzzle)",
                           level="Target level, for puzzles that have levels (Safe Passage: 1 to 3)",
                           daily="Today's deal, the same for everyone, in a private thread or DM of your own")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def puzzle(self, interaction: discord.Interaction, variant: Text,
                     seed: app_commands.Range[int, 0, MAX_INTEGER] | None = None,
                     level: app_commands.Range[int, 1, 9] | None = None, daily: bool = False) -> None:
        if daily:
            return await daily_puzzle(interaction, self.service, variant, seed, level)

        async def work() -> Reply:
            guild, home, user = guild_key(interaction), channel_key(interaction), player(interaction.user)
            info = await self.service.check_start(guild, variant, players=1)   # before any thread is made
            thread = await open_thread(interaction, thread_name(user.name, info.name)) \
                if await may_open_thread(interaction) else None
            try:
                reply = await self.service.start_puzzle(str(thread.id) if thread else home, user, variant, seed,
                                                        guild=guild, level=level, home=home)
            except BaseException:
                if thread is not None:
                    await drop_thread(thread, self.service)
                raise
            if thread is None:
                return reply
            await post_reply(interaction, thread, reply)
            await add_players(thread, [user.id])
            return Reply(f"{user.name} starts **{info.name}** in {thread.jump_url}", game_id=reply.game_id)

        await answer(interaction, work(), changes=True)

    @app_commands.command(name="challenge", description="Challenge a member, or anyone, to a two-player variant.")
    @app_commands.describe(variant="The variant",
                           opponent="Who you want to play (leave out: an open challenge anyone may accept)",
                           colour="The colour you play (random if left out)",
                           days=f"Days allowed per move, {MIN_DAYS} to {MAX_DAYS} (default: the server's)",
                           level=f"Against Kibitz: 1 ({engine.LEVELS[0].name}) to {engine.MAX_LEVEL} "
                                 f"({engine.LEVELS[-1].name}); default {engine.DEFAULT_LEVEL}")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def challenge(self, interaction: discord.Interaction, variant: Text, opponent: discord.User | None = None,
                        colour: Literal["white", "black", "random"] = "random",
                        days: app_commands.Range[int, MIN_DAYS, MAX_DAYS] | None = None,
                        level: app_commands.Range[int, 1, engine.MAX_LEVEL] | None = None) -> None:
        me = interaction.client.user
        if opponent is not None and me is not None and opponent.id == me.id and interaction.guild_id is not None:
            await answer(interaction, play_computer(interaction, self.service, variant, colour, days, level),
                         changes=True)
            return

        async def work() -> Reply:
            if interaction.guild_id is None:   # nobody else sees a DM with the bot: the challenge would go unseen
                raise UserError("Challenges are made in a server channel, where your opponent can see them.")
            if opponent is not None and opponent.bot:
                raise UserError("Bots do not play here; challenge a person, or Kibitz itself.")
            return await self.service.challenge(channel_key(interaction), player(interaction.user),
                                                player(opponent) if opponent is not None else None, variant,
                                                guild=guild_key(interaction), colour=colour, days=days, level=level)

        reply = await answer(interaction, work(), changes=True)
        await announce_challenge(interaction, self.service, reply)

    @app_commands.command(name="games", description="This server's open games and challenges, with links.")
    async def games(self, interaction: discord.Interaction) -> None:
        async def work():
            if interaction.guild_id is None:
                raise UserError("/games lists a server's games: use it in a server.")
            return await self.service.games(guild_key(interaction), lambda r: game_link(interaction.guild_id, r))

        await answer(interaction, work())


async def play_computer(interaction: discord.Interaction, service: GameService, variant: str, colour: str,
                        days: int | None, level: int | None) -> Reply:
    """A game against the computer, begun at once in a thread of its own where one may be made
    (else in place): its first board posted there, the member added; the answer is a public pointer."""
    guild, home, user = guild_key(interaction), channel_key(interaction), player(interaction.user)
    level = engine.DEFAULT_LEVEL if level is None else level
    info = await service.check_computer(guild, user, variant, level)   # before any thread is made
    thread = await open_thread(interaction, thread_name(f"{user.name} vs Kibitz (level {level})", info.name)) \
        if await may_open_thread(interaction) else None
    return await begin_in(interaction, thread, lambda play_in: service.challenge(
        home, user, COMPUTER, variant, guild=guild, colour=colour, days=days, level=level, play_in=play_in), [user.id])


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
    await post_reply(interaction, place, reply)
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
