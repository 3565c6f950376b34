"""An interaction as the service's arguments: who acts (``player``), where (``channel_key``,
``guild_key``), and the service and answer layer the bot carries (``service_of``, ``answers_of``)."""
from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol

import discord

from bot.names import escape
from bot.service import GameService, Player, Reply


def channel_key(interaction: discord.Interaction) -> str:
    """The service's channel key: the channel id, or the thread id inside a thread.

    Discord already reports a thread as the interaction's channel, so this is channel_id.
    """
    return str(interaction.channel_id)


def guild_key(interaction: discord.Interaction) -> str | None:
    return str(interaction.guild_id) if interaction.guild_id else None


def player(user: discord.abc.User) -> Player:
    return Player(str(user.id), escape(user.display_name))   # shown as typed in messages (bot/names.py)


def service_of(interaction: discord.Interaction) -> GameService:
    """The service of the bot the interaction came to (``KibitzBot.kibitz_service``)."""
    return interaction.client.kibitz_service  # type: ignore[attr-defined]


class Answers(Protocol):
    """What a component asks of bot/discord/answers.py, which sits above it (module docstring of
    bot/discord/__init__.py): answer a click with a service call, deliver a committed change's
    Reply, post a Reply in a channel or thread."""

    async def answer(self, interaction: discord.Interaction, work: Awaitable[Reply], *,
                     changes: bool = False) -> Reply: ...

    async def deliver(self, interaction: discord.Interaction, reply: Reply) -> None: ...

    async def post(self, interaction: discord.Interaction, channel: discord.abc.Messageable,
                   reply: Reply) -> discord.Message | None: ...


def answers_of(interaction: discord.Interaction) -> Answers:
    """The answer layer of the bot the interaction came to (``KibitzBot.answers``)."""
    return interaction.client.answers  # type: ignore[attr-defined]
