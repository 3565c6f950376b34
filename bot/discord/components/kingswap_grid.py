"""KingSwap! by clicking: the 5x5 board as 25 buttons, under the board image of the newest board.

The grid is the KingSwap! board's one control (no select-menu builder beside it): every board of
a puzzle in play carries it, and a board posted after it (a move, or /undo reopening a finished
puzzle) takes it off the older one, as for any board (outbox.show_newest). Click a man,
then where it goes. The first click edits the grid so only that man's legal targets are enabled
(click the man again to put it down); the second plays the move and posts the new board with its
grid. The other controls (/undo, /hint, /resign) stay commands, and typed /move keeps working.

Like the challenge buttons and the turn builder, each button is a ``DynamicItem`` whose custom_id
carries all it needs, so a grid works after a restart:

    kibitz:ks:<game>:<ply>:<player>:<origin>:<square>     origin: the man picked first, or "-"

`ply` counts moves and takebacks (bot.daily.grid_ply), so it names one position. The service
compares game and ply: a click on a grid from an earlier position changes nothing and says so
privately (with the current grid, for the player). Only the puzzle's player may click.
"""
from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.daily import GRID_STALE, GridState
from bot.discord.context import answers_of, channel_key, player, service_of
from bot.discord.interactions import send
from bot.discord.transport import describe
from bot.discord.tree import report_error

log = logging.getLogger(__name__)

NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}


def grid_text(state: GridState) -> str:
    """The words above the grid."""
    if state.finished:
        return f"KingSwap! game #{state.game_id} is over."
    if state.origin:
        man = next(c.man for row in state.rows for c in row if c.square == state.origin) or ""
        return (f"KingSwap! game #{state.game_id}: where does the {NAMES.get(man, 'man')} on {state.origin} go? "
                f"Click a lit square, or the {NAMES.get(man, 'man')} again to put it down.")
    return (f"KingSwap! game #{state.game_id}: click a man, then where it goes. "
            f"♔ blue is the king, green the corner he is heading for.")


def grid_view(state: GridState) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(state.rows):
        for cell in row:
            if cell.chosen:
                style = discord.ButtonStyle.danger
            elif cell.man == "K":
                style = discord.ButtonStyle.primary
            elif cell.goal:
                style = discord.ButtonStyle.success
            else:
                style = discord.ButtonStyle.secondary
            view.add_item(GridButton(state.game_id, state.ply, state.player_id, state.origin or "-", cell.square,
                                     label=cell.label, style=style, disabled=not cell.enabled or state.finished,
                                     row=row_index))
    return view


class GridButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"kibitz:ks:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,18}):(?P<player>[0-9]{1,20}):(?P<origin>[a-e][1-5]|-)"
                          r":(?P<square>[a-e][1-5])"):
    def __init__(self, game_id: int, ply: int, player_id: str, origin: str, square: str, *, label: str = "·",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        self.game_id, self.ply, self.player_id, self.origin, self.square = game_id, ply, player_id, origin, square
        super().__init__(discord.ui.Button(
            label=label, style=style, disabled=disabled, row=row,
            custom_id=f"kibitz:ks:{game_id}:{ply}:{player_id}:{origin}:{square}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GridButton:
        return cls(int(match["game"]), int(match["ply"]), match["player"], match["origin"], match["square"])

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if str(interaction.user.id) == self.player_id:
            return True
        await interaction.response.send_message(
            f"Only <@{self.player_id}> plays this puzzle. Start your own with /puzzle kingswap.", ephemeral=True)
        return False

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.origin == "-" or self.square == self.origin:
            await self._pick(interaction, "" if self.origin != "-" else self.square)
        else:
            await self._play(interaction, self.origin + self.square)

    async def _pick(self, interaction: discord.Interaction, origin: str) -> None:
        """First click (or putting the man down again): the grid shows what may be clicked next."""
        try:
            state = await service_of(interaction).grid(channel_key(interaction), player(interaction.user),
                                                     self.game_id, self.ply, origin)
        except Exception as error:  # noqa: BLE001 - a refusal or a bug: tell the user privately
            await _refuse(interaction, error)
            return
        if interaction.message is not None and interaction.message.attachments:   # on a board: its text stays
            await interaction.response.edit_message(view=grid_view(state))
        else:
            await interaction.response.edit_message(content=grid_text(state), view=grid_view(state))

    async def _play(self, interaction: discord.Interaction, move: str) -> None:
        service = service_of(interaction)
        try:
            await interaction.response.defer()   # "deferred update": the grid message stays
            reply = await service.play_grid(channel_key(interaction), player(interaction.user),
                                            self.game_id, self.ply, move)
        except Exception as error:  # noqa: BLE001 - nothing was played: tell the user privately
            await _refuse(interaction, error)
            return
        # The move is committed: the new board carries the grid (and takes it off this one once shown).
        if interaction.message is not None and not interaction.message.attachments:   # a grid of its own, from before
            try:
                await interaction.edit_original_response(view=None)
            except Exception as error:  # noqa: BLE001 - cosmetic; an old grid refuses clicks anyway
                log.warning("could not take the old grid of game %s off (%s)", self.game_id, describe(error))
        await answers_of(interaction).deliver(interaction, reply)


async def _refuse(interaction: discord.Interaction, error: BaseException) -> None:
    """Say privately why nothing happened; a click on an old grid also gets the current grid."""
    if str(error) == GRID_STALE:
        try:
            state = await service_of(interaction).current_grid(channel_key(interaction))
            if state is not None and state.player_id == str(interaction.user.id):
                await send(interaction, f"{GRID_STALE}\n{grid_text(state)}", ephemeral=True, view=grid_view(state))
                return
        except Exception:   # fall back to the plain sentence
            log.warning("could not show the current grid after a stale click", exc_info=True)
    await report_error(interaction, error)


DYNAMIC_ITEMS = (GridButton,)
