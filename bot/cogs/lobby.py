"""The lobby commands: /games, /help, /pings and /settings (issue 11). Parse, check, call the
service through ``answer`` (bot/tree.py), reply. /settings is for members with Manage Server
and refused, privately, for others; its answers, and /pings', are private."""
from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import GameService, UserError
from bot.store import GameRecord, GameStatus
from bot.tree import MAX_OPTION, answer
from bot.views.replies import guild_key, player

JUMP = "https://discord.com/channels"
Text = app_commands.Range[str, 1, MAX_OPTION]


def game_link(guild_id: int | None, record: GameRecord) -> str | None:
    """Where a listed game is: the challenge's message, or the channel or thread the game is played in."""
    if guild_id is None:
        return None
    if record.status == GameStatus.CHALLENGE:
        home = record.home_channel_id or record.channel_id
        return f"{JUMP}/{guild_id}/{home}/{record.message_id}" if record.message_id else f"{JUMP}/{guild_id}/{home}"
    return f"{JUMP}/{guild_id}/{record.channel_id}"


def channel_mention(channel_id: str) -> str:
    return f"<#{channel_id}>"


class Lobby(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def variant_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"{name} ({slug})"[:100], value=slug)
                for slug, name in self.service.variant_choices(current)[:25]]

    async def enable_autocomplete(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        """As for a variant, with "all variants" first (`enable all`; there is no `disable all`)."""
        choices = (await self.variant_autocomplete(interaction, current))[:24]
        if "all".startswith(current.strip().lower()):
            choices.insert(0, app_commands.Choice(name="all variants", value="all"))
        return choices

    @app_commands.command(name="games", description="This server's open games and challenges, with links.")
    async def games(self, interaction: discord.Interaction) -> None:
        async def work():
            if interaction.guild_id is None:
                raise UserError("/games lists a server's games: use it in a server.")
            return await self.service.games(guild_key(interaction), lambda r: game_link(interaction.guild_id, r))

        await answer(interaction, work())

    @app_commands.command(name="help", description="What Kibitz does and its commands, in a few lines.")
    async def help(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.help_text())

    @app_commands.command(name="pings", description="Whether you are pinged when it is your move.")
    @app_commands.describe(state="on: pinged on your move (the default); off: not pinged")
    async def pings(self, interaction: discord.Interaction, state: Literal["on", "off"]) -> None:
        await answer(interaction, self.service.set_pings(player(interaction.user), state == "on"))

    @app_commands.command(name="settings", description="This server's Kibitz settings (Manage Server to change them).")
    @app_commands.describe(enable="Turn a variant back on (all: every variant)", disable="Turn a variant off here",
                           threads="Whether each accepted challenge and puzzle gets a thread of its own",
                           days="Default days per move, 1 to 14 (0: the bot's default)",
                           announce="A channel where every challenge is also announced",
                           stop_announcing="Stop announcing challenges in another channel")
    @app_commands.autocomplete(enable=enable_autocomplete, disable=variant_autocomplete)
    async def settings(self, interaction: discord.Interaction, enable: Text | None = None,
                       disable: Text | None = None, threads: bool | None = None,
                       days: app_commands.Range[int, 0, 14] | None = None,
                       announce: discord.TextChannel | None = None, stop_announcing: bool = False) -> None:
        async def work():
            if interaction.guild_id is None:
                raise UserError("Settings belong to a server; there are none in direct messages.")
            if not interaction.permissions.manage_guild:
                raise UserError("Only members with the Manage Server permission can use /settings.")
            if announce is not None and not announce.permissions_for(announce.guild.me).send_messages:
                raise UserError(f"I cannot post in {announce.mention}: let me send messages there, or choose "
                                f"another channel.")
            guild = guild_key(interaction)
            if (enable, disable, threads, days, announce, stop_announcing) == (None, None, None, None, None, False):
                return await self.service.show_settings(guild, channel_mention)
            return await self.service.change_settings(
                guild, enable=enable, disable=disable, threads=threads, days=days,
                announce=str(announce.id) if announce is not None else None, stop_announcing=stop_announcing,
                channel_name=channel_mention)

        await answer(interaction, work())


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: expects ``bot.kibitz_service``."""
    await bot.add_cog(Lobby(bot.kibitz_service))  # type: ignore[attr-defined]
