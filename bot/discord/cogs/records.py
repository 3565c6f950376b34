"""Ratings and records: /leaderboard, /profile, /export and /replay."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.answers import answer
from bot.discord.cogs.options import Text, variant_autocomplete
from bot.discord.context import channel_key, guild_key, player
from bot.service import GameService


class Records(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

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
