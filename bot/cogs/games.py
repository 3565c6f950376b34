"""The slash commands: parse, call the service through ``answer`` (bot/tree.py), send its Reply.

``answer`` runs the service call first: a mistake it finds (not your game, not your turn, an
illegal move) is a private sentence with no public "thinking" before it; a public answer is the
interaction's callback itself (one request), and a call still running after 1.5 s defers while it
runs, so rendering or storage never runs into Discord's 3-second deadline. Errors are not handled here: they propagate
to ``KibitzTree.on_error`` (bot/tree.py). Autocomplete only suggests; the service validates slugs
and moves again. String options are at most 100 characters (``Text``).

Commands that change a game pass ``changes=True``: once the service has returned, the change is
committed, so the answer is delivered (by the callback or a followup, else in the channel) and
never turned into an error. Commands that only read send their answer as it is.

A challenge accepted or a puzzle asked for in a text channel is played in a thread of its own
(bot/views/challenge.py); the commands of bot/cogs/lobby.py list games and keep settings.
"""
from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.puzzles import daily_puzzle
from bot.service import GameService, Reply, UserError
from bot.tree import MAX_OPTION, answer, answered_in, defer_privately
from bot.views.challenge import (add_players, challenge_line, drop_thread, may_open_thread, open_thread, post_reply,
                                 thread_name)
from bot.views.kingswap_grid import post_grid
from bot.views.replies import channel_key, guild_key, player, send_reply

log = logging.getLogger(__name__)

MAX_SEED = 2**53 - 1   # Discord integer options stop at 2**53
Text = app_commands.Range[str, 1, MAX_OPTION]   # every string option: Discord caps it at 100 characters


class Games(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    # -- autocomplete -----------------------------------------------------------------------
    async def variant_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        try:
            hits = self.service.variant_choices(current)
        except Exception:   # autocomplete errors cannot reach the user; suggest nothing
            log.exception("variant autocomplete failed")
            return []
        return [app_commands.Choice(name=f"{name} ({slug})"[:100], value=slug) for slug, name in hits[:25]]

    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        try:
            choices = await self.service.move_choices(channel_key(interaction), player(interaction.user), current)
        except Exception:
            log.exception("move autocomplete failed")
            return []
        return [app_commands.Choice(name=name[:100], value=value[:100]) for value, name in choices[:25]]

    # -- catalogue --------------------------------------------------------------------------
    @app_commands.command(name="variants", description="List the chess variants and puzzles Kibitz hosts.")
    async def variants(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.list_variants())

    @app_commands.command(name="rules", description="Show the rules of a variant.")
    @app_commands.describe(variant="The variant")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def rules(self, interaction: discord.Interaction, variant: Text) -> None:
        await answer(interaction, self.service.rules_card(variant))

    # -- starting ---------------------------------------------------------------------------
    @app_commands.command(name="puzzle", description="Start a solo puzzle (in a thread of its own where possible).")
    @app_commands.describe(variant="The puzzle", seed="Seed for the starting setup (same seed, same puzzle)",
                           level="Target level, for puzzles that have levels (Safe Passage: 1 to 3)",
                           daily="Today's deal, the same for everyone, in a private thread or DM of your own")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def puzzle(self, interaction: discord.Interaction, variant: Text,
                     seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
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
            await post_reply(thread, reply)
            await add_players(thread, [user.id])
            return Reply(f"{user.name} starts **{info.name}** in {thread.jump_url}", game_id=reply.game_id)

        reply = await answer(interaction, work(), changes=True)
        await post_grid(interaction.client, self.service, reply.game_id)

    @app_commands.command(name="challenge", description="Challenge a member, or anyone, to a two-player variant.")
    @app_commands.describe(variant="The variant",
                           opponent="Who you want to play (leave out: an open challenge anyone may accept)",
                           colour="The colour you play (random if left out)",
                           days="Days allowed per move, 1 to 14 (default: the server's)")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def challenge(self, interaction: discord.Interaction, variant: Text, opponent: discord.User | None = None,
                        colour: Literal["white", "black", "random"] = "random",
                        days: app_commands.Range[int, 1, 14] | None = None) -> None:
        async def work() -> Reply:
            if interaction.guild_id is None:   # nobody else sees a DM with the bot: the challenge would go unseen
                raise UserError("Challenges are made in a server channel, where your opponent can see them.")
            if opponent is not None and opponent.bot:
                raise UserError("Bots do not play here; challenge a person.")
            return await self.service.challenge(channel_key(interaction), player(interaction.user),
                                                player(opponent) if opponent is not None else None, variant,
                                                guild=guild_key(interaction), colour=colour, days=days)

        reply = await answer(interaction, work(), changes=True)
        await announce_challenge(interaction, self.service, reply)

    # -- playing ----------------------------------------------------------------------------
    @app_commands.command(name="move", description="Play a move in this channel's (or thread's) game.")
    @app_commands.describe(move="Your move, e.g. e2e4 or Nf3")
    @app_commands.autocomplete(move=move_autocomplete)
    async def move(self, interaction: discord.Interaction, move: Text) -> None:
        await answer(interaction, self.service.move(channel_key(interaction), player(interaction.user), move),
                     changes=True)

    @app_commands.command(name="board", description="Show this channel's game (or how it ended).")
    @app_commands.describe(flip="Show it to you alone, turned round: Black at the bottom")
    async def board(self, interaction: discord.Interaction, flip: bool = False) -> None:
        if flip:   # always private: "thinking" privately at once, as the picture takes a moment
            await defer_privately(interaction)
            await send_reply(interaction, await self.service.flipped_board(channel_key(interaction)))
            return
        await answer(interaction, self.service.board(channel_key(interaction)))

    @app_commands.command(name="resign", description="Resign this channel's game (or give up the puzzle).")
    async def resign(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.resign(channel_key(interaction), player(interaction.user)),
                     changes=True)

    @app_commands.command(name="draw", description="Offer a draw, accept one, or claim a draw that can be claimed.")
    async def draw(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.draw(channel_key(interaction), player(interaction.user)),
                     changes=True)

    @app_commands.command(name="undo", description="Take back your last move in a solo puzzle.")
    async def undo(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.undo(channel_key(interaction), player(interaction.user)),
                     changes=True)

    # -- ratings, export, replay ------------------------------------------------------------
    @app_commands.command(name="leaderboard", description="The top rated players of a variant in this server.")
    @app_commands.describe(variant="The variant (a puzzle shows its best scores)",
                           daily="A puzzle's results for today's deal in this server")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def leaderboard(self, interaction: discord.Interaction, variant: Text, daily: bool = False) -> None:
        board = self.service.daily_board if daily else self.service.leaderboard
        await answer(interaction, board(guild_key(interaction), player(interaction.user), variant))

    @app_commands.command(name="profile", description="A member's ratings and results per variant in this server.")
    @app_commands.describe(member="Whose profile (you if left out)")
    async def profile(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        await answer(interaction, self.service.profile(guild_key(interaction), player(member or interaction.user)))

    @app_commands.command(name="export", description="This channel's game (current or last finished) as a PGN file.")
    async def export(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.export(channel_key(interaction)))

    @app_commands.command(name="replay", description="This channel's game (current or last finished) as an animated GIF.")
    async def replay(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.replay(channel_key(interaction)))


async def announce_challenge(interaction: discord.Interaction, service: GameService, reply: Reply) -> None:
    """After a challenge is shown: keep its message id (to edit it when settled) and announce it
    in the server's challenge channel, if that is another channel. Never raises: the challenge stands."""
    if reply.game_id is None:
        return
    message_id = answered_in(interaction)   # the callback, followup or channel post that carried it
    if message_id is None:
        try:
            message_id = (await interaction.original_response()).id
        except discord.HTTPException as error:
            log.warning("could not read the message of challenge %s: %s", reply.game_id, error)
            return
    jump_url = f"https://discord.com/channels/{interaction.guild_id or '@me'}/{interaction.channel_id}/{message_id}"
    try:
        await service.note_challenge_message(reply.game_id, str(message_id))
        guild = guild_key(interaction)
        announce = (await service.server_settings(guild)).announce if guild else None
        record = await service.game_record(reply.game_id) if announce else None
        if announce and record is not None and announce != channel_key(interaction):
            channel = interaction.client.get_partial_messageable(int(announce))
            await channel.send(f"New challenge in <#{channel_key(interaction)}>: {challenge_line(record)} "
                               f"{jump_url}")
    except Exception:   # noqa: BLE001 - the challenge is made and shown; this is extra
        log.exception("could not note or announce challenge %s", reply.game_id)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: expects ``bot.kibitz_service``."""
    await bot.add_cog(Games(bot.kibitz_service))  # type: ignore[attr-defined]
