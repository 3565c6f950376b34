"""Accept / Decline buttons under a challenge, rebuilt from their custom_id after a restart.

Like discord.py's ``examples/views/dynamic_counter.py``: each button is a ``DynamicItem`` whose
custom_id carries everything it needs (game id and who may press it), so no view has to be
kept in memory. ``interaction_check`` refuses other members' clicks with an ephemeral note.
The game logic stays in the service; the buttons only parse, call and reply.
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.tree import report_error
from bot.views.replies import channel_key, deliver_reply, describe, player

if TYPE_CHECKING:
    from bot.service import GameService

log = logging.getLogger(__name__)


def _service(interaction: discord.Interaction) -> GameService:
    return interaction.client.kibitz_service  # type: ignore[attr-defined]


class _ChallengeButton:
    """Shared behaviour of the two buttons (a mixin: a DynamicItem subclass needs a template):
    who may press, defer, call the service, drop the buttons, reply."""

    game_id: int
    allowed_ids: tuple[int, ...] = ()
    refusal = "This challenge is not for you."

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id in self.allowed_ids:
            return True
        await interaction.response.send_message(self.refusal, ephemeral=True)
        return False

    async def answer(self, interaction: discord.Interaction):
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer()   # for a button: "deferred update", no new message yet
            reply = await self.answer(interaction)
        except Exception as error:  # noqa: BLE001 - discord.py would only log it; give the user a reply
            await report_error(interaction, error)
            return
        # The service has acted: from here on nothing may turn into an error reply.
        await self._take_buttons_off(interaction)
        await deliver_reply(interaction, reply)

    async def _take_buttons_off(self, interaction: discord.Interaction) -> None:
        """The challenge is settled: remove its buttons (best effort), through the interaction or
        else through the channel, as the bot's own message."""
        try:
            await interaction.edit_original_response(view=None)
            return
        except Exception as error:  # noqa: BLE001 - best effort: the service has already acted
            log.warning("could not remove the buttons from challenge %s through the interaction (%s)",
                        self.game_id, describe(error))
        if interaction.message is None:
            return
        try:
            await interaction.message.edit(view=None)
        except Exception:   # best effort, as above
            log.warning("could not remove the buttons from challenge %s", self.game_id, exc_info=True)


class AcceptButton(_ChallengeButton, discord.ui.DynamicItem[discord.ui.Button], template=r"kibitz:accept:(?P<game>[0-9]+):(?P<opponent>[0-9]+)"):
    def __init__(self, game_id: int, opponent_id: int) -> None:
        self.opponent_id = opponent_id
        self.allowed_ids = (opponent_id,)
        self.refusal = f"Only <@{opponent_id}> can accept this challenge."
        self.game_id = game_id
        super().__init__(discord.ui.Button(
            label="Accept", style=discord.ButtonStyle.success,
            custom_id=f"kibitz:accept:{game_id}:{opponent_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> AcceptButton:
        return cls(int(match["game"]), int(match["opponent"]))

    async def answer(self, interaction: discord.Interaction):
        return await _service(interaction).accept(channel_key(interaction), player(interaction.user), self.game_id)


class DeclineButton(_ChallengeButton, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"kibitz:decline:(?P<game>[0-9]+):(?P<challenger>[0-9]+):(?P<opponent>[0-9]+)"):
    """The opponent declines; the challenger may withdraw."""

    def __init__(self, game_id: int, challenger_id: int, opponent_id: int) -> None:
        self.challenger_id, self.opponent_id = challenger_id, opponent_id
        self.allowed_ids = (challenger_id, opponent_id)
        self.refusal = f"Only <@{opponent_id}> (or the challenger) can decline this challenge."
        self.game_id = game_id
        super().__init__(discord.ui.Button(
            label="Decline", style=discord.ButtonStyle.danger,
            custom_id=f"kibitz:decline:{game_id}:{challenger_id}:{opponent_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DeclineButton:
        return cls(int(match["game"]), int(match["challenger"]), int(match["opponent"]))

    async def answer(self, interaction: discord.Interaction):
        return await _service(interaction).decline(channel_key(interaction), player(interaction.user), self.game_id)


def challenge_view(game_id: int, challenger_id: str, opponent_id: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptButton(game_id, int(opponent_id)))
    view.add_item(DeclineButton(game_id, int(challenger_id), int(opponent_id)))
    return view


DYNAMIC_ITEMS = (AcceptButton, DeclineButton)
