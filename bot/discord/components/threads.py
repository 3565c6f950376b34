"""The threads games are played in.

Where games live: a challenge accepted (or a puzzle asked for) in a text channel is played in a
public thread of its own, named after its players and variant, and the channel gets a pointer
with the thread's link. Where the bot may not make threads (its permissions there, or the server's
/settings), or the command already runs in a thread, the game is played in place. A daily deal is
played in a private thread of the member's own (bot/discord/cogs/starting.py).
"""
from __future__ import annotations

import logging

import discord

from collections.abc import Awaitable, Callable

from bot.discord.context import answers_of, guild_key, service_of
from bot.discord.limits import MAX_CHANNEL_NAME
from bot.discord.transport import describe
from bot.names import one_line, plain
from bot.service import GameService, Reply

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES = 10080   # a week without messages before Discord hides the thread (a post revives it)


def thread_name(players: str, variant: str) -> str:
    """`alice vs bob · Zoo Chess`, cut to Discord's MAX_CHANNEL_NAME characters (names as typed: no Markdown in names of threads)."""
    return fit_thread_name(f"{plain(players)} · {variant}")


def fit_thread_name(name: str) -> str:
    """`name` on one line, reading as typed (no control or direction characters), cut to Discord's MAX_CHANNEL_NAME characters."""
    name = one_line(name).strip() or "Kibitz game"
    return name if len(name) <= MAX_CHANNEL_NAME else name[:MAX_CHANNEL_NAME - 1] + "…"


async def may_open_thread(interaction: discord.Interaction) -> bool:
    """Whether a game asked for here gets a thread: a server text channel (not a thread or DM),
    threads on in the server's settings, and the bot allowed to make public threads and post in them."""
    if interaction.guild_id is None or not isinstance(interaction.channel, discord.TextChannel):
        return False
    allowed = interaction.app_permissions
    if not (allowed.create_public_threads and allowed.send_messages_in_threads):
        return False
    return (await service_of(interaction).server_settings(guild_key(interaction))).threads


async def open_thread(interaction: discord.Interaction, name: str) -> discord.Thread | None:
    """A public thread in the interaction's channel, or None where Discord refuses (the game is then played in place)."""
    channel = interaction.channel
    return await open_thread_in(channel, name) if isinstance(channel, discord.TextChannel) else None


async def open_thread_in(channel: discord.TextChannel, name: str) -> discord.Thread | None:
    """A public thread in `channel`, or None where Discord refuses (the game is then played in place)."""
    try:
        return await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                           auto_archive_duration=THREAD_ARCHIVE_MINUTES)  # type: ignore[arg-type]
    except discord.HTTPException as error:   # 403 Missing Permissions and the like: play in place
        log.warning("could not open a thread in channel %s (%s); playing in place", channel.id, describe(error))
        return None


async def add_players(thread: discord.Thread, player_ids: list[str]) -> None:
    """Make the players members of their game's thread, so it shows in their list and they
    hear of it (best effort: a player can always follow the link)."""
    for pid in player_ids:
        if not pid:
            continue
        try:
            await thread.add_user(discord.Object(id=int(pid)))
        except (discord.HTTPException, ValueError) as error:
            log.warning("could not add member %s to thread %s (%s)", pid, thread.id, error)


async def drop_thread(thread: discord.Thread, service: GameService) -> None:
    """Remove a thread the game it was made for never started in (best effort). An error does not
    prove that: a thread the store holds a game in (or cannot say) is kept."""
    if await service.game_stored_in(str(thread.id)):
        log.warning("kept thread %s: a game is stored in it, though starting it reported an error", thread.id)
        return
    try:
        await thread.delete()
    except discord.HTTPException as error:
        log.warning("could not remove unused thread %s (%s)", thread.id, describe(error))


async def begin_in(interaction: discord.Interaction, thread: discord.Thread | None,
                   start: Callable[[str | None], Awaitable[Reply]], player_ids: list[str]) -> Reply:
    """A game begun at once by `start(play_in)` in `thread` (None: in place), the thread removed
    if it fails. With a thread: the first board posted there, the players added, and the answer
    a pointer (the Reply's first line and the thread's link)."""
    try:
        reply = await start(str(thread.id) if thread else None)
    except BaseException:
        if thread is not None:
            await drop_thread(thread, service_of(interaction))
        raise
    if thread is None:
        return reply
    await answers_of(interaction).post(interaction, thread, reply)
    await add_players(thread, player_ids)
    return Reply(f"{reply.text.splitlines()[0]} It is played in {thread.jump_url}", game_id=reply.game_id)
