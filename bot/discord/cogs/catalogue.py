"""Looking things up: /variants, /rules and /help."""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.answers import answer
from bot.discord.cogs.options import Text, variant_autocomplete
from bot.service import GameService


class Catalogue(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    @app_commands.command(name="variants", description="List the chess variants and puzzles Kibitz hosts.")
    async def variants(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.list_variants())

    @app_commands.command(name="rules", description="Show the rules of a variant.")
    @app_commands.describe(variant="The variant")
    @app_commands.autocomplete(variant=variant_autocomplete)
    async def rules(self, interaction: discord.Interaction, variant: Text) -> None:
        await answer(interaction, self.service.rules_card(variant))

    @app_commands.command(name="help", description="What Kibitz does and its commands, in a few lines.")
    async def help(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.help_text())
