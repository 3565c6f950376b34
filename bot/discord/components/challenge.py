"""Accept / Decline buttons under a challenge, rebuilt from their custom_id after a restart; what a
challenge's message says once settled, and its announcement in the server's challenge channel.

Like discord.py's ``examples/views/dynamic_counter.py``: each button is a ``DynamicItem`` whose
custom_id carries everything it needs (game id and who may press it), so no view has to be
kept in memory. ``interaction_check`` refuses other members' clicks with an ephemeral note.
The game logic stays in the service; the buttons only parse, call and reply.

An open challenge (no opponent named) has opponent id 0 in its custom_ids: anyone may press
Accept (the service refuses the challenger), and only the challenger may withdraw it. The ids in
a custom_id only spare a pointless round trip: the service checks who may answer from the stored
challenge, so a forged custom_id changes nothing.

An accepted challenge is played in a thread of its own where the bot may make one
(bot/discord/components/threads.py); its edited message, linking the thread, is then all the
channel shows of it (the accepter alone reads where to play).

A settled challenge (accepted, declined, withdrawn, expired) has its message edited to say so,
with no buttons left: :func:`show_settled` does it from the stored record, for any caller.
A challenge just shown (by /challenge or a Rematch press) is announced in the server's challenge
channel, if that is another one (:func:`announce_challenge`).
"""
from __future__ import annotations

import asyncio
import logging
import re
import weakref
from typing import Any

import discord

import rules
from bot.discord.components.threads import add_players, drop_thread, may_open_thread, open_thread, thread_name
from bot.discord.context import answers_of, channel_key, guild_key, player, service_of
from bot.discord.interactions import answered_in
from bot.discord.transport import describe
from bot.discord.tree import report_error
from bot.service import GameService, Reply
from bot.store import GameRecord

log = logging.getLogger(__name__)

OPEN = 0                         # the opponent id in an open challenge's custom_ids
_ANSWERING: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()   # by game id


# -- settled challenges --------------------------------------------------------------------------

def _who_and_what(record: GameRecord) -> tuple[str, str, str]:
    """The challenge's challenger, opponent ("anyone" for an open one) and variant name."""
    info = rules.VARIANTS.get(record.variant)
    variant = info.name if info else record.variant
    challenger = next((n for p, n in record.players if p and p == record.challenger_id), "Someone")
    other = next((n for p, n in record.players if p and p != record.challenger_id), "anyone")
    return challenger, other, variant


def challenge_line(record: GameRecord) -> str:
    """`alice challenges bob to **Zoo Chess**.`, as announced in the server's challenge channel."""
    challenger, other, variant = _who_and_what(record)
    return f"{challenger} challenges {other} to **{variant}**."


def settled_text(record: GameRecord, how: str, *, by: str | None = None, where: str | None = None) -> str:
    """What a challenge's message says once settled. `how`: "accepted", "declined", "withdrawn"
    or "expired"; `by` who accepted; `where` a link to the game."""
    challenger, other, variant = _who_and_what(record)
    if how == "accepted" and by:
        other = by
    head = f"{challenger}'s challenge to {other} at **{variant}**"
    if how == "accepted":
        return f"{head} was accepted." + (f" The game is played in {where}" if where else "")
    if how == "expired":
        return f"{head} expired without an answer. Challenge again with /challenge."
    return f"{head} was {how}."


async def show_settled(client: discord.Client, record: GameRecord, how: str, *, by: str | None = None,
                       where: str | None = None) -> bool:
    """Edit the challenge's message (record.home_channel_id, record.message_id) to its settled
    text, buttons removed; e.g. ``await show_settled(bot, record, "expired")``. False (logged)
    where there is no message to edit or Discord refuses. Never raises."""
    channel_id = record.home_channel_id or record.channel_id
    if not record.message_id or not channel_id:
        return False
    channel = client.get_partial_messageable(int(channel_id))
    try:
        await channel.get_partial_message(int(record.message_id)).edit(
            content=settled_text(record, how, by=by, where=where), view=None)
        return True
    except Exception as error:  # noqa: BLE001 - cosmetic: the challenge itself is settled
        log.warning("could not mark challenge %s as %s (%s)", record.id, how, describe(error))
        return False


async def announce_challenge(interaction: discord.Interaction, service: GameService, reply: Reply) -> None:
    """After a challenge is shown: keep its message id (to edit it when settled) and announce it
    in the server's challenge channel, if that is another channel. Never raises: the challenge stands."""
    if reply.game_id is None:
        return
    message_id = answered_in(interaction)   # the callback, followup or channel post that carried it
    if message_id is None:
        try:
            message_id = (await interaction.original_response()).id
        except discord.HTTPException as error:
            log.warning("could not read the message of challenge %s: %s", reply.game_id, error)
            return
    jump_url = f"https://discord.com/channels/{interaction.guild_id or '@me'}/{interaction.channel_id}/{message_id}"
    try:
        await service.note_challenge_message(reply.game_id, str(message_id))
        guild = guild_key(interaction)
        announce = (await service.server_settings(guild)).announce if guild else None
        record = await service.game_record(reply.game_id) if announce else None
        if announce and record is not None and announce != channel_key(interaction):
            channel = interaction.client.get_partial_messageable(int(announce))
            await channel.send(f"New challenge in <#{channel_key(interaction)}>: {challenge_line(record)} "
                               f"{jump_url}")
    except Exception:   # noqa: BLE001 - the challenge is made and shown; this is extra
        log.exception("could not note or announce challenge %s", reply.game_id)


# -- the buttons ---------------------------------------------------------------------------------

class _ChallengeButton:
    """Shared behaviour of the two buttons (a mixin: a DynamicItem subclass needs a template):
    who may press, defer, call the service, settle the challenge's message, reply."""

    game_id: int
    allowed_ids: tuple[int, ...] = ()
    refusal = "This challenge is not for you."

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.allowed_ids == () or interaction.user.id in self.allowed_ids:
            return True
        await interaction.response.send_message(self.refusal, ephemeral=True)
        return False

    async def answer(self, interaction: discord.Interaction) -> tuple[Reply, str]:
        """Act through the service; return the reply and the challenge message's settled text."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer()   # for a button: "deferred update", no new message yet
            # One answer at a time per challenge: a second Accept pressed while the first makes the
            # game's thread is refused before it makes a thread of its own (a stray one would stay).
            async with _ANSWERING.setdefault(self.game_id, asyncio.Lock()):
                reply, settled = await self.answer(interaction)
        except Exception as error:  # noqa: BLE001 - discord.py would only log it; give the user a reply
            await report_error(interaction, error)
            return
        # The service has acted: from here on nothing may turn into an error reply.
        await self._settle_message(interaction, settled)
        await answers_of(interaction).deliver(interaction, reply)

    async def _settle_message(self, interaction: discord.Interaction, text: str) -> None:
        """Say on the challenge's message how it was settled and remove its buttons (best
        effort), through the interaction or else as the bot's own message."""
        try:
            await interaction.edit_original_response(content=text, view=None)
            return
        except Exception as error:  # noqa: BLE001 - best effort: the service has already acted
            log.warning("could not settle the message of challenge %s through the interaction (%s)",
                        self.game_id, describe(error))
        if interaction.message is None:
            return
        try:
            await interaction.message.edit(content=text, view=None)
        except Exception:   # best effort, as above
            log.warning("could not settle the message of challenge %s", self.game_id, exc_info=True)


class AcceptButton(_ChallengeButton, discord.ui.DynamicItem[discord.ui.Button], template=r"kibitz:accept:(?P<game>[0-9]{1,18}):(?P<opponent>[0-9]{1,20})"):
    def __init__(self, game_id: int, opponent_id: int) -> None:
        self.opponent_id = opponent_id
        self.allowed_ids = () if opponent_id == OPEN else (opponent_id,)
        self.refusal = f"Only <@{opponent_id}> can accept this challenge."
        self.game_id = game_id
        super().__init__(discord.ui.Button(
            label="Accept", style=discord.ButtonStyle.success,
            custom_id=f"kibitz:accept:{game_id}:{opponent_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> AcceptButton:
        return cls(int(match["game"]), int(match["opponent"]))

    async def answer(self, interaction: discord.Interaction) -> tuple[Reply, str]:
        service, here, user = service_of(interaction), channel_key(interaction), player(interaction.user)
        record = await service.challenge_to_accept(here, user, self.game_id)   # checked before a thread is made
        thread = None
        if await may_open_thread(interaction):
            seats = [(pid, name) if pid else (user.id, user.name) for pid, name in record.players]
            info = rules.VARIANTS.get(record.variant)
            thread = await open_thread(interaction, thread_name(f"{seats[0][1]} vs {seats[1][1]}",
                                                                info.name if info else record.variant))
        try:
            reply = await service.accept(here, user, self.game_id, play_in=str(thread.id) if thread else None)
        except BaseException:
            if thread is not None:
                await drop_thread(thread, service)
            raise
        if thread is None:
            return reply, settled_text(record, "accepted", by=user.name)
        await answers_of(interaction).post(interaction, thread, reply)
        await add_players(thread, [pid or user.id for pid, _ in record.players])
        # The channel shows the edited challenge alone; the accepter is told where to play, privately.
        pointer = Reply(f"{user.name} accepts: the game is played in {thread.jump_url}", game_id=reply.game_id,
                        ephemeral=True)
        return pointer, settled_text(record, "accepted", by=user.name, where=thread.jump_url)


class DeclineButton(_ChallengeButton, discord.ui.DynamicItem[discord.ui.Button],
                    template=r"kibitz:decline:(?P<game>[0-9]{1,18}):(?P<challenger>[0-9]{1,20}):(?P<opponent>[0-9]{1,20})"):
    """The opponent declines; the challenger may withdraw (an open challenge: the challenger only)."""

    def __init__(self, game_id: int, challenger_id: int, opponent_id: int) -> None:
        self.challenger_id, self.opponent_id = challenger_id, opponent_id
        self.allowed_ids = (challenger_id,) if opponent_id == OPEN else (challenger_id, opponent_id)
        self.refusal = ("Only the challenger can withdraw an open challenge." if opponent_id == OPEN else
                        f"Only <@{opponent_id}> (or the challenger) can decline this challenge.")
        self.game_id = game_id
        super().__init__(discord.ui.Button(
            label="Withdraw" if opponent_id == OPEN else "Decline", style=discord.ButtonStyle.danger,
            custom_id=f"kibitz:decline:{game_id}:{challenger_id}:{opponent_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DeclineButton:
        return cls(int(match["game"]), int(match["challenger"]), int(match["opponent"]))

    async def answer(self, interaction: discord.Interaction) -> tuple[Reply, str]:
        service = service_of(interaction)
        reply = await service.decline(channel_key(interaction), player(interaction.user), self.game_id)
        record = await service.game_record(self.game_id)
        challenger = record.challenger_id if record is not None else str(self.challenger_id)   # the stored one
        how = "withdrawn" if str(interaction.user.id) == challenger else "declined"
        return reply, settled_text(record, how) if record is not None else f"This challenge was {how}."


def challenge_view(game_id: int, challenger_id: str, opponent_id: str) -> discord.ui.View:
    """Accept and Decline (Withdraw for an open challenge: `opponent_id` "")."""
    opponent = int(opponent_id) if opponent_id else OPEN
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptButton(game_id, opponent))
    view.add_item(DeclineButton(game_id, int(challenger_id), opponent))
    return view


DYNAMIC_ITEMS = (AcceptButton, DeclineButton)
