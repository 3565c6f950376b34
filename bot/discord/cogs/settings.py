"""Settings: /settings (the server's, for members with Manage Server and refused, privately,
for others) and /pings (a member's own). Their answers are private."""
from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.answers import answer
from bot.discord.cogs.options import Text, variant_autocomplete
from bot.discord.context import guild_key, player
from bot.discord.limits import MAX_CHOICES
from bot.service import GameService, UserError
from bot.settings import MAX_DAYS, MIN_DAYS


def channel_mention(channel_id: str) -> str:
    return f"<#{channel_id}>"


async def enable_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """As for a variant, with "all variants" first (`enable all`; there is no `disable all`)."""
    choices = (await variant_autocomplete(interaction, current))[:MAX_CHOICES - 1]
    if "all".startswith(current.strip().lower()):
        choices.insert(0, app_commands.Choice(name="all variants", value="all"))
    return choices


class Settings(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    @app_commands.command(name="pings", description="Whether you are pinged when it is your move.")
    @app_commands.describe(state="on: pinged on your move (the default); off: not pinged")
    async def pings(self, interaction: discord.Interaction, state: Literal["on", "off"]) -> None:
        await answer(interaction, self.service.set_pings(player(interaction.user), state == "on"))

    @app_commands.command(name="settings", description="This server's Kibitz settings (Manage Server to change them).")
    @app_commands.describe(enable="Turn a variant back on (all: every variant)", disable="Turn a variant off here",
                           threads="Whether each accepted challenge and puzzle gets a thread of its own",
                           days=f"Default days per move, {MIN_DAYS} to {MAX_DAYS} (0: the bot's default)",
                           announce="A channel where every challenge is also announced",
                           stop_announcing="Stop announcing challenges in another channel",
                           computer="Whether members may play the computer (/challenge opponent:@Kibitz)")
    @app_commands.autocomplete(enable=enable_autocomplete, disable=variant_autocomplete)
    async def settings(self, interaction: discord.Interaction, enable: Text | None = None,
                       disable: Text | None = None, threads: bool | None = None,
                       days: app_commands.Range[int, 0, MAX_DAYS] | None = None,
                       announce: discord.TextChannel | None = None, stop_announcing: bool = False,
                       computer: bool | None = None) -> None:
        async def work():
            if interaction.guild_id is None:
                raise UserError("Settings belong to a server; there are none in direct messages.")
            if not interaction.permissions.manage_guild:
                raise UserError("Only members with the Manage Server permission can use /settings.")
            if announce is not None and not announce.permissions_for(announce.guild.me).send_messages:
                raise UserError(f"I cannot post in {announce.mention}: let me send messages there, or choose "
                                f"another channel.")
            guild = guild_key(interaction)
            if (enable, disable, threads, days, announce, stop_announcing, computer) == \
                    (None, None, None, None, None, False, None):
                return await self.service.show_settings(guild, channel_mention)
            return await self.service.change_settings(
                guild, enable=enable, disable=disable, threads=threads, days=days,
                announce=str(announce.id) if announce is not None else None, stop_announcing=stop_announcing,
                channel_name=channel_mention, computer=computer)

        await answer(interaction, work())
