"""Buttons for a game: Draw and Resign on the board of a game in play, Rematch on the final board
of a two-player game, Accept / Decline under a takeback request.

Every button is a ``DynamicItem`` whose custom_id carries the game id, so it works after a
restart (discord.py's ``examples/views/dynamic_counter.py``). Who may press is the service's
call, whatever the custom_id says: anyone else gets its sentence privately. A button from an
earlier game does nothing.

    kibitz:draw:<game>         offer a draw, or accept the opponent's offer
    kibitz:draw-yes:<game>     "Accept draw" under an offer: accepts it, if it still stands
    kibitz:resign:<game>       asks, privately, "Resign?" with a confirm button:
    kibitz:resign-ok:<game>    resigns
    kibitz:rematch:<game>      challenges the other player again, colours swapped; against the
                               computer the new game begins at once, in a new thread of the channel
    kibitz:takeback-yes:<game>:<ply>:<asker> / kibitz:takeback-no:...   answer the takeback request
                               `asker` made after `ply` moves (not a later one)

The turn builder (bot/discord/components/turn_builder.py) uses rows 0 and 1; these go on row 2.
"""
from __future__ import annotations

import logging
import re
from typing import Any

import discord

import rules
from bot.discord.components.challenge import announce_challenge
from bot.discord.components.threads import begin_in, open_thread_in, thread_name
from bot.discord.context import answers_of, channel_key, guild_key, player, service_of
from bot.discord.interactions import send
from bot.discord.transport import describe
from bot.discord.tree import report_error
from bot.service import seats as computer
from bot.service import Reply
from bot.store import GameRecord

log = logging.getLogger(__name__)

ROW = 2


class _GameButton:
    """Shared behaviour (a mixin: a DynamicItem subclass needs a template): defer, call the
    service, optionally take the buttons off the pressed message, deliver the answer."""

    game_id: int
    takes_buttons_off = False
    defers = True   # False: the answer is the interaction's own new message (quick answers only)

    async def answer(self, interaction: discord.Interaction) -> Reply:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.defers:
                await interaction.response.defer()   # a deferred update: no new message yet
            reply = await self.answer(interaction)
        except Exception as error:  # noqa: BLE001 - a refusal or a bug: tell the user privately
            await report_error(interaction, error)
            return
        # The service has acted: from here on nothing may turn into an error reply.
        if self.takes_buttons_off:
            await _take_buttons_off(interaction, self.game_id)
        await answers_of(interaction).deliver(interaction, reply)
        await self.after(interaction, reply)

    async def after(self, interaction: discord.Interaction, reply: Reply) -> None:
        """Anything more once the answer is delivered (never raises)."""


async def _take_buttons_off(interaction: discord.Interaction, game_id: int, content: str | None = None) -> None:
    """Remove the pressed message's buttons (best effort): the question it asked is settled."""
    extra: dict[str, Any] = {} if content is None else {"content": content}
    try:
        await interaction.edit_original_response(view=None, **extra)
    except Exception as error:  # noqa: BLE001 - cosmetic: the service refuses stale presses anyway
        log.warning("could not remove the buttons of game %s (%s)", game_id, describe(error))


class DrawButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button],
                 template=r"kibitz:draw(?P<yes>-yes)?:(?P<game>[0-9]{1,18})"):
    """Draw on the board (offer, or accept an offer); Accept draw under an offer only accepts it."""

    def __init__(self, game_id: int, accept_only: bool = False) -> None:
        self.game_id, self.accept_only = game_id, accept_only
        super().__init__(discord.ui.Button(label="Accept draw" if accept_only else "Draw",
                                           style=discord.ButtonStyle.secondary, row=ROW,
                                           custom_id=f"kibitz:draw{'-yes' if accept_only else ''}:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DrawButton:
        return cls(int(match["game"]), accept_only=bool(match["yes"]))

    async def answer(self, interaction: discord.Interaction) -> Reply:
        return await service_of(interaction).draw(channel_key(interaction), player(interaction.user), self.game_id,
                                                accept_only=self.accept_only)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button], template=r"kibitz:resign:(?P<game>[0-9]{1,18})"):
    """Asks the player, privately, to confirm."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label="Resign", style=discord.ButtonStyle.danger,
                                           custom_id=f"kibitz:resign:{game_id}", row=ROW))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ResignButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await service_of(interaction).check_player(channel_key(interaction), player(interaction.user), self.game_id)
        except Exception as error:  # noqa: BLE001
            await report_error(interaction, error)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmResignButton(self.game_id))
        await send(interaction, f"Resign game #{self.game_id}? This cannot be undone.", ephemeral=True, view=view)


class ConfirmResignButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button],
                          template=r"kibitz:resign-ok:(?P<game>[0-9]{1,18})"):
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label="Yes, resign", style=discord.ButtonStyle.danger,
                                           custom_id=f"kibitz:resign-ok:{game_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ConfirmResignButton:
        return cls(int(match["game"]))

    async def answer(self, interaction: discord.Interaction) -> Reply:
        reply = await service_of(interaction).resign(channel_key(interaction), player(interaction.user), self.game_id)
        await _take_buttons_off(interaction, self.game_id, "You resigned.")   # the private question
        return reply


class RematchButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"kibitz:rematch:(?P<game>[0-9]{1,18})"):
    """The new challenge is this press's own answer (no board to draw, so no defer), so its
    message is the interaction's original response, as a /challenge's is."""

    defers = False

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.primary,
                                           custom_id=f"kibitz:rematch:{game_id}", row=ROW))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RematchButton:
        return cls(int(match["game"]))

    async def answer(self, interaction: discord.Interaction) -> Reply:
        service, user = service_of(interaction), player(interaction.user)
        record = await service.game_record(self.game_id)
        if record is not None and (seat := computer.seat(record.players)) is not None:
            return await self._against_computer(interaction, record, computer.level_of(record.players[seat][0]))
        return await service.rematch(channel_key(interaction), user, self.game_id, guild=guild_key(interaction))

    async def _against_computer(self, interaction: discord.Interaction, record: GameRecord, level: int) -> Reply:
        """The new game begins at once, in a new thread of the channel the last one was asked in
        (else in place); the answer points to it."""
        await interaction.response.defer()   # a thread and a board to make: more than a quick answer
        service, user, guild = service_of(interaction), player(interaction.user), guild_key(interaction)
        await service.check_rematch(user, self.game_id, guild, _mention)   # before any thread is made
        info = rules.VARIANTS.get(record.variant)
        home = record.home_channel_id if record.home_channel_id != record.channel_id else None
        parent = interaction.client.get_channel(int(home)) if home else None
        thread = await open_thread_in(parent, thread_name(f"{user.name} vs Kibitz (level {level})", info.name
                                                          if info else record.variant)) \
            if isinstance(parent, discord.TextChannel) and (await service.server_settings(guild)).threads else None
        return await begin_in(interaction, thread, lambda play_in: service.rematch(
            home if home and play_in else channel_key(interaction), user, self.game_id, guild=guild, play_in=play_in,
            link=_mention), [user.id])

    async def after(self, interaction: discord.Interaction, reply: Reply) -> None:
        """As after a /challenge: note the message (edited when the challenge is settled) and
        announce it in the server's challenge channel (a game against the computer has no challenge)."""
        if reply.challenge is not None:
            await announce_challenge(interaction, service_of(interaction), reply)


def _mention(record: GameRecord) -> str:
    """Where a game is played, as Discord links it."""
    return f"<#{record.channel_id}>"


class TakebackButton(_GameButton, discord.ui.DynamicItem[discord.ui.Button],
                     template=r"kibitz:takeback-(?P<answer>yes|no):(?P<game>[0-9]{1,18})(?::(?P<ply>[0-9]{1,18}):(?P<asker>[0-9]{1,20}))?"):
    """Accept / Decline under one takeback request; older buttons (no ply) answer whichever stands."""

    takes_buttons_off = True

    def __init__(self, game_id: int, accept: bool, ply: int | None = None, asker: str | None = None) -> None:
        self.game_id, self.accept, self.ply, self.asker = game_id, accept, ply, asker
        request = f":{ply}:{asker}" if ply is not None and asker is not None else ""
        super().__init__(discord.ui.Button(
            label="Accept" if accept else "Decline",
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
            custom_id=f"kibitz:takeback-{'yes' if accept else 'no'}:{game_id}{request}", row=ROW))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TakebackButton:
        ply = int(match["ply"]) if match["ply"] else None
        return cls(int(match["game"]), match["answer"] == "yes", ply, match["asker"])

    async def answer(self, interaction: discord.Interaction) -> Reply:
        return await service_of(interaction).answer_takeback(channel_key(interaction), player(interaction.user),
                                                           self.game_id, self.accept, self.ply, self.asker)


def control_items(game_id: int, controls: tuple[str, ...], ply: int | None = None,
                  asker: str | None = None) -> list[discord.ui.Item[Any]]:
    """The buttons a Reply's `controls` name, for game `game_id` (a takeback request's: the one
    `asker` made after `ply` moves)."""
    items: list[discord.ui.Item[Any]] = []
    for name in controls:
        if name == "draw":
            items.append(DrawButton(game_id, accept_only=controls == ("draw",)))
        elif name == "resign":
            items.append(ResignButton(game_id))
        elif name == "rematch":
            items.append(RematchButton(game_id))
        elif name == "takeback":
            items += [TakebackButton(game_id, True, ply, asker), TakebackButton(game_id, False, ply, asker)]
    return items


def with_controls(view: discord.ui.View | None, reply: Reply) -> discord.ui.View | None:
    """`view` (the turn builder's, or None) with the Reply's buttons added on their own row."""
    if not reply.controls or reply.game_id is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    for item in control_items(reply.game_id, reply.controls, reply.ply, reply.asker):
        view.add_item(item)
    return view


def keep_controls(view: discord.ui.View, message: discord.Message | None) -> discord.ui.View:
    """`view` with the Draw and Resign buttons `message` already shows (the turn builder edits
    the board message's components as a turn is built, and these must stay)."""
    if message is None:
        return view
    for row in message.components:
        for component in getattr(row, "children", [row]):
            found = re.fullmatch(r"kibitz:(draw|resign):([0-9]{1,18})", getattr(component, "custom_id", None) or "")
            if found:
                view.add_item(DrawButton(int(found[2])) if found[1] == "draw" else ResignButton(int(found[2])))
    return view


DYNAMIC_ITEMS = (DrawButton, ResignButton, ConfirmResignButton, RematchButton, TakebackButton)
