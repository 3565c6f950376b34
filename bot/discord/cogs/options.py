"""What several cogs' options share: the string option type and the variant autocomplete."""
from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.discord.context import service_of
from bot.discord.limits import MAX_CHOICE_NAME, MAX_CHOICES, MAX_OPTION

log = logging.getLogger(__name__)

Text = app_commands.Range[str, 1, MAX_OPTION]   # every string option: Discord caps it at MAX_OPTION characters


async def variant_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The variants whose name or slug matches what the member typed."""
    try:
        hits = service_of(interaction).variant_choices(current)
    except Exception:   # autocomplete errors cannot reach the user; suggest nothing
        log.exception("variant autocomplete failed")
        return []
    return [app_commands.Choice(name=f"{name} ({slug})"[:MAX_CHOICE_NAME], value=slug)
            for slug, name in hits[:MAX_CHOICES]]
