"""What several cogs' options share: the string option type and the variant autocomplete."""
from __future__ import annotations

import logging

import discord
from discord import app_commands

import rules

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
    return [app_commands.Choice(name=choice_name(f"{name} ({slug})", slug), value=slug) for slug, name in hits[:MAX_CHOICES]]


def choice_name(name: str, slug: str) -> str:
    """"Zoo Chess (zoo): Be first to capture…": the variant's goal after its name, as much as fits."""
    goal = rules.VARIANTS[slug].summary if slug in rules.VARIANTS else ""
    if not goal or len(name) + 2 + len(goal) <= MAX_CHOICE_NAME:
        return f"{name}: {goal}" if goal else name[:MAX_CHOICE_NAME]
    room = MAX_CHOICE_NAME - len(name) - 3   # ": " and "…"
    cut = goal[:room + 1].rsplit(" ", 1)[0] if room > 0 else ""
    return f"{name}: {cut.rstrip(',;:')}…" if cut else name[:MAX_CHOICE_NAME]
