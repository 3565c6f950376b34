"""The slash commands: parse, defer, call the service, send its Reply.

Every command defers ("thinking") before it calls the service, so rendering or storage never
runs into Discord's 3-second deadline; the answer then comes as a followup. Errors are not
handled here: they propagate to ``KibitzTree.on_error`` (bot/tree.py). Autocomplete only
suggests; the service validates slugs and moves again.

Commands that change a game send the service's answer with ``deliver_reply``: once the
service has returned, the change is committed, so the answer is delivered (by followup, else
in the channel) and never turned into an error. Commands that only read use ``send_reply``.
"""
from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import GameService, UserError
from bot.views.replies import channel_key, deliver_reply, guild_key, player, send_reply

log = logging.getLogger(__name__)

MAX_SEED = 2**53 - 1   # Discord integer options stop at 2**53


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
        await interaction.response.defer(thinking=True)
        await send_reply(interaction, await self.service.list_variants())

    @app_commands.command(name="rules", description="Show the rules of a variant.")
    @app_commands.describe(variant="The variant")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def rules(self, interaction: discord.Interaction, variant: str) -> None:
        await interaction.response.defer(thinking=True)
        await send_reply(interaction, await self.service.rules_card(variant))

    # -- starting ---------------------------------------------------------------------------
    @app_commands.command(name="puzzle", description="Start a solo puzzle in this channel.")
    @app_commands.describe(variant="The puzzle", seed="Seed for the starting setup (same seed, same puzzle)",
                           level="Target level, for puzzles that have levels (Safe Passage: 1 to 3)")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def puzzle(self, interaction: discord.Interaction, variant: str,
                     seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
                     level: app_commands.Range[int, 1, 9] | None = None) -> None:
        await interaction.response.defer(thinking=True)
        reply = await self.service.start_puzzle(channel_key(interaction), player(interaction.user), variant,
                                                seed, guild=guild_key(interaction), level=level)
        await deliver_reply(interaction, reply)

    @app_commands.command(name="challenge", description="Challenge a member to a two-player variant.")
    @app_commands.describe(opponent="Who you want to play", variant="The variant")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def challenge(self, interaction: discord.Interaction, opponent: discord.User, variant: str) -> None:
        await interaction.response.defer(thinking=True)
        if opponent.bot:
            raise UserError("Bots do not play here; challenge a person.")
        reply = await self.service.challenge(channel_key(interaction), player(interaction.user), player(opponent),
                                             variant, guild=guild_key(interaction))
        await deliver_reply(interaction, reply)

    # -- playing ----------------------------------------------------------------------------
    @app_commands.command(name="move", description="Play a move in this channel's game.")
    @app_commands.describe(move="Your move, e.g. e2e4")
    @app_commands.autocomplete(move=move_autocomplete)
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await interaction.response.defer(thinking=True)
        reply = await self.service.move(channel_key(interaction), player(interaction.user), move)
        await deliver_reply(interaction, reply)

    @app_commands.command(name="board", description="Show this channel's game.")
    @app_commands.describe(flip="Show it to you alone, turned round: Black at the bottom")
    async def board(self, interaction: discord.Interaction, flip: bool = False) -> None:
        if flip:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await send_reply(interaction, await self.service.flipped_board(channel_key(interaction)))
            return
        await interaction.response.defer(thinking=True)
        await send_reply(interaction, await self.service.board(channel_key(interaction)))

    @app_commands.command(name="resign", description="Resign this channel's game (or give up the puzzle).")
    async def resign(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        reply = await self.service.resign(channel_key(interaction), player(interaction.user))
        await deliver_reply(interaction, reply)

    @app_commands.command(name="draw", description="Offer a draw, accept one, or claim a draw that can be claimed.")
    async def draw(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        reply = await self.service.draw(channel_key(interaction), player(interaction.user))
        await deliver_reply(interaction, reply)

    @app_commands.command(name="undo", description="Take back your last move in a solo puzzle.")
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        reply = await self.service.undo(channel_key(interaction), player(interaction.user))
        await deliver_reply(interaction, reply)

    # -- ratings, export, replay ------------------------------------------------------------
    @app_commands.command(name="leaderboard", description="The top rated players of a variant in this server.")
    @app_commands.describe(variant="The variant (a puzzle shows its best scores)")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def leaderboard(self, interaction: discord.Interaction, variant: str) -> None:
        await interaction.response.defer(thinking=True)
        await send_reply(interaction, await self.service.leaderboard(guild_key(interaction), player(interaction.user),
                                                                     variant))

    @app_commands.command(name="profile", description="A member's ratings and results per variant in this server.")
    @app_commands.describe(member="Whose profile (you if left out)")
    async def profile(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        await interaction.response.defer(thinking=True)
        await send_reply(interaction, await self.service.profile(guild_key(interaction),
                                                                 player(member or interaction.user)))

    @app_commands.command(name="export", description="This channel's game (current or last finished) as a PGN file.")
    async def export(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await send_reply(interaction, await self.service.export(channel_key(interaction)))

    @app_commands.command(name="replay", description="This channel's game (current or last finished) as an animated GIF.")
    async def replay(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await send_reply(interaction, await self.service.replay(channel_key(interaction)))


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: expects ``bot.kibitz_service``."""
    await bot.add_cog(Games(bot.kibitz_service))  # type: ignore[attr-defined]
