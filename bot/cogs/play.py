"""/takeback and /abort. Neither draws a board, so both answer at once (``answer`` shows
"thinking" only for a slow call) and a refusal is one private sentence (bot/tree.py)."""
from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import GameService, UserError
from bot.tree import answer
from bot.views.replies import channel_key, guild_key, player

log = logging.getLogger(__name__)

ABORT_REFUSED = "Only members who may manage threads can abort a game."


class Play(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    @app_commands.command(name="takeback", description="Ask your opponent to take back your last move.")
    async def takeback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.takeback(channel_key(interaction), player(interaction.user)),
                     changes=True)

    @app_commands.command(name="abort", description="End a game with no result and no rating (Manage Threads).")
    @app_commands.describe(game="The game's number (#12), if not the one in this channel or thread")
    async def abort(self, interaction: discord.Interaction,
                    game: app_commands.Range[int, 1, 2**53 - 1] | None = None) -> None:
        permissions = interaction.permissions
        if not (permissions.manage_threads or permissions.administrator):
            raise UserError(ABORT_REFUSED)
        reply = await answer(interaction, self.service.abort(channel_key(interaction), player(interaction.user),
                                                             moderator=True, game_id=game, guild=guild_key(interaction)),
                             changes=True)
        record = await self.service.game_record(reply.game_id) if reply.game_id is not None else None
        if record is not None and record.channel_id != channel_key(interaction):   # aborted from elsewhere
            try:   # its players hear of it where they play (no ping)
                await interaction.client.get_partial_messageable(int(record.channel_id)).send(reply.text)
            except discord.HTTPException as error:
                log.warning("could not tell channel %s that game %s was aborted: %s", record.channel_id,
                            record.id, error)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: expects ``bot.kibitz_service``."""
    await bot.add_cog(Play(bot.kibitz_service))  # type: ignore[attr-defined]
