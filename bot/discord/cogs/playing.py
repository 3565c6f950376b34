"""Playing a game: /move, /board, /resign, /draw, /undo, /hint, /takeback and /abort. Those that
draw no board answer at once (``answer`` shows "thinking" only for a slow call), and a refusal is
one private sentence (bot/discord/tree.py)."""
from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.answers import answer, message, send_reply
from bot.discord.cogs.options import Text
from bot.discord.context import channel_key, guild_key, player
from bot.discord.interactions import defer_privately
from bot.discord.limits import MAX_CHOICE_NAME, MAX_CHOICES, MAX_INTEGER
from bot.service import GameService, Reply, UserError

log = logging.getLogger(__name__)

ABORT_REFUSED = "Only members who may manage threads can abort a game."


class Playing(commands.Cog):
    def __init__(self, service: GameService) -> None:
        self.service = service

    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        try:
            choices = await self.service.move_choices(channel_key(interaction), player(interaction.user), current)
        except Exception:
            log.exception("move autocomplete failed")
            return []
        return [app_commands.Choice(name=name[:MAX_CHOICE_NAME], value=value[:MAX_CHOICE_NAME])
                for value, name in choices[:MAX_CHOICES]]

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

    @app_commands.command(name="hint", description="One good next move in this channel's solo puzzle, and why.")
    async def hint(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.hint(channel_key(interaction), player(interaction.user)), changes=True)

    @app_commands.command(name="takeback", description="Ask your opponent to take back your last move.")
    async def takeback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, self.service.takeback(channel_key(interaction), player(interaction.user)),
                     changes=True)

    @app_commands.command(name="abort", description="End a game with no result and no rating (Manage Threads).")
    @app_commands.describe(game="The game's number (#12), if not the one in this channel or thread")
    async def abort(self, interaction: discord.Interaction,
                    game: app_commands.Range[int, 1, MAX_INTEGER] | None = None) -> None:
        permissions = interaction.permissions
        if not (permissions.manage_threads or permissions.administrator):
            raise UserError(ABORT_REFUSED)
        here, elsewhere = channel_key(interaction), []

        async def aborted() -> Reply:
            reply = await self.service.abort(here, player(interaction.user), moderator=True, game_id=game,
                                             guild=guild_key(interaction))
            record = await self.service.game_record(reply.game_id) if reply.game_id is not None else None
            if record is not None and record.channel_id != here:   # aborted from elsewhere: pinged where they play
                elsewhere.append((record, Reply(reply.lines, pings=reply.pings)))
                reply.pings = ()
            return reply

        await answer(interaction, aborted(), changes=True)
        for record, told in elsewhere:
            try:   # its players hear of it where they play
                text, mentions = message(told)
                await interaction.client.get_partial_messageable(int(record.channel_id)).send(text, **mentions)
            except discord.HTTPException as error:
                log.warning("could not tell channel %s that game %s was aborted: %s", record.channel_id,
                            record.id, error)
