"""The turn builder under a board: a select menu per part, then Confirm; Clear starts over.

Every component is a ``DynamicItem`` whose custom_id carries the game id, the ply of the
position shown and the parts chosen so far, so the builder works after a restart like the
challenge buttons, and a click on a board from an earlier position is refused (the service
compares the ply) without playing anything. Only the player to move may use it; the service
says "It is not your turn." privately to anyone else.

    kibitz:tb:<game>:<ply>:<state>     the select (state: parts joined by ",", "~" origin, "~" page)
    kibitz:tbok:<game>:<ply>:<state>   Confirm: plays the parts
    kibitz:tbclr:<game>:<ply>          Clear: back to the first menu

Discord caps a custom_id at MAX_CUSTOM_ID (100) characters. A state too long for that is kept in this process,
keyed by a short token (``!<token>``); after a restart such a builder says to start the turn again.

Rows: the select on the first, Confirm and Clear on the second; three rows stay free for other
controls. A choice edits the board message in place (everyone sees the turn being built, as
over a real board); Confirm posts the new board (as its callback, or the edit of its "thinking"),
whose builder is for the next player; the old board loses its controls as any board does when a
newer one is shown (``show_newest`` in bot/discord/outbox.py).
"""
from __future__ import annotations

import itertools
import logging
import re
from collections import OrderedDict
from typing import Any

import discord

from bot.builder import Menu
from bot.discord.components.board_buttons import keep_controls
from bot.discord.context import answers_of, channel_key, player, service_of
from bot.discord.limits import MAX_BUTTON_LABEL, MAX_CUSTOM_ID, MAX_PLACEHOLDER, MAX_SELECT_TEXT
from bot.discord.tree import report_error
from bot.service import UserError

log = logging.getLogger(__name__)

KEPT_STATES = 5000                 # long states kept in memory, oldest dropped first
_kept: OrderedDict[str, tuple[tuple[str, ...], str, int]] = OrderedDict()
_tokens = itertools.count(1)
FORGOTTEN = "This turn builder was reset (the bot restarted). Press Clear to start the turn again."


def encode_state(parts: tuple[str, ...], origin: str = "", page: int = 0, *, room: int = 60) -> str:
    text = ",".join(parts) + (f"~{origin}~{page}" if origin or page else "")
    if len(text) <= room:
        return text
    token = f"!{next(_tokens):x}"
    _kept[token] = (parts, origin, page)
    while len(_kept) > KEPT_STATES:
        _kept.popitem(last=False)
    return token


def decode_state(text: str) -> tuple[tuple[str, ...], str, int]:
    if text.startswith("!"):
        kept = _kept.get(text)
        if kept is None:
            raise UserError(FORGOTTEN)
        return kept
    chain, _, rest = text.partition("~")
    origin, _, page = rest.partition("~")
    parts = tuple(p for p in chain.split(",") if p)
    return parts, origin, int(page) if page.isascii() and page.isdigit() else 0


def _custom_id(kind: str, game_id: int, ply: int, state: str = "") -> str:
    head = f"kibitz:{kind}:{game_id}:{ply}"
    return f"{head}:{state}" if kind != "tbclr" else head


def _state_for(kind: str, game_id: int, ply: int, parts: tuple[str, ...], origin: str = "", page: int = 0) -> str:
    room = MAX_CUSTOM_ID - len(_custom_id(kind, game_id, ply, ""))
    return encode_state(parts, origin, page, room=room)


def builder_view(game_id: int, ply: int, menu: Menu) -> discord.ui.View:
    """The components for `menu`: its select (when something can follow) and Confirm / Clear."""
    view = discord.ui.View(timeout=None)
    if menu.options:
        view.add_item(PartSelect(game_id, ply, _state_for("tb", game_id, ply, menu.parts, menu.origin, menu.page),
                                 menu))
    if menu.parts or menu.origin or menu.page:
        confirm_state = _state_for("tbok", game_id, ply, menu.parts)
        view.add_item(ConfirmButton(game_id, ply, confirm_state, disabled=not menu.complete,
                                    label=f"Confirm {menu.label}" if menu.complete else "Confirm"))
        view.add_item(ClearButton(game_id, ply))
    return view


async def _refuse(interaction: discord.Interaction, error: BaseException) -> None:
    await report_error(interaction, error)


class PartSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"kibitz:tb:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,18}):(?P<state>.*)"):
    def __init__(self, game_id: int, ply: int, state: str, menu: Menu | None = None) -> None:
        self.game_id, self.ply, self.state = game_id, ply, state
        options = [discord.SelectOption(label=o.label[:MAX_SELECT_TEXT], value=o.value[:MAX_SELECT_TEXT],
                                        description=o.description[:MAX_SELECT_TEXT] or None)
                   for o in menu.options] if menu else \
            [discord.SelectOption(label="…", value="…")]
        placeholder = (f"{menu.summary}: {menu.prompt}" if menu and menu.summary else menu.prompt if menu else None)
        super().__init__(discord.ui.Select(custom_id=_custom_id("tb", game_id, ply, state), options=options,
                                           placeholder=(placeholder or "")[:MAX_PLACEHOLDER] or None, row=0))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PartSelect:
        return cls(int(match["game"]), int(match["ply"]), match["state"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            parts, origin, page = decode_state(self.state)
            if len(self.item.values) != 1:   # Discord sends exactly one; anything else is not a pick
                raise UserError("Pick one part from the menu.")
            [value] = self.item.values
            if value.startswith(">"):
                page = int(value[1:]) if value[1:].isascii() and value[1:].isdigit() else 0
            elif value.startswith("#"):
                origin, page = value[1:], 0
            else:
                parts, origin, page = (*parts, value), "", 0
            menu = await service_of(interaction).build_menu(channel_key(interaction), player(interaction.user),
                                                          self.game_id, self.ply, parts, origin, page)
        except Exception as error:  # noqa: BLE001 - a refusal or a bug: tell the user privately
            await _refuse(interaction, error)
            return
        await interaction.response.edit_message(view=keep_controls(builder_view(self.game_id, self.ply, menu),
                                                                   interaction.message))


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kibitz:tbok:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,18}):(?P<state>.*)"):
    def __init__(self, game_id: int, ply: int, state: str, *, disabled: bool = False, label: str = "Confirm") -> None:
        self.game_id, self.ply, self.state = game_id, ply, state
        super().__init__(discord.ui.Button(label=label[:MAX_BUTTON_LABEL], style=discord.ButtonStyle.success, disabled=disabled,
                                           custom_id=_custom_id("tbok", game_id, ply, state), row=1))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ConfirmButton:
        return cls(int(match["game"]), int(match["ply"]), match["state"])

    async def callback(self, interaction: discord.Interaction) -> None:
        # Answered as a command is (answer, bot/discord/answers.py): the new board is the interaction's own
        # message, by its callback or the edit of "thinking", so a retry whose reply was lost never
        # posts it twice (a followup would).
        try:
            parts, _, _ = decode_state(self.state)
            await answers_of(interaction).answer(interaction, service_of(interaction).play_built(
                channel_key(interaction), player(interaction.user), self.game_id, self.ply, parts), changes=True)
        except Exception as error:  # noqa: BLE001 - nothing was played: tell the user privately
            await _refuse(interaction, error)
        # The new board, once shown, took the builder off the old one (outbox.show_newest).


class ClearButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kibitz:tbclr:(?P<game>[0-9]{1,18}):(?P<ply>[0-9]{1,18})"):
    def __init__(self, game_id: int, ply: int) -> None:
        self.game_id, self.ply = game_id, ply
        super().__init__(discord.ui.Button(label="Clear", style=discord.ButtonStyle.secondary,
                                           custom_id=_custom_id("tbclr", game_id, ply), row=1))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ClearButton:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            menu = await service_of(interaction).build_menu(channel_key(interaction), player(interaction.user),
                                                          self.game_id, self.ply)
        except Exception as error:  # noqa: BLE001
            await _refuse(interaction, error)
            return
        await interaction.response.edit_message(view=keep_controls(builder_view(self.game_id, self.ply, menu),
                                                                   interaction.message))


DYNAMIC_ITEMS = (PartSelect, ConfirmButton, ClearButton)
