"""The one CommandTree: options checked before any command runs, and every error turned into a reply.

User mistakes (``UserError``, and ``AppCommandError`` subclasses such as a failed transformer
or check) become one ephemeral sentence. Anything else is logged with its traceback and the
user gets a short generic apology. Slash commands reach ``KibitzTree.on_error`` through
discord.py; button callbacks call :func:`report_error` themselves (discord.py sends
DynamicItem errors to a log line, not to the tree).

Answering a command (``answer`` in bot/discord/answers.py, used by every slash command): the
service call runs first, and an error it raises at once (not your game, not your turn, an illegal
move, a bad option) becomes a private reply with no public "thinking" message before it. String options are at most
``MAX_OPTION`` characters (Discord enforces it in its client; the tree refuses longer ones in one
private sentence, before any command runs).

Options are read strictly, whoever sent them (:func:`option_problem`): an option of the wrong type,
outside its choices or range, or a required one missing is refused in one private sentence before
any command runs (`/pings state:sideways` is not taken as off), and an autocomplete whose typed
text is not text, or whose other options are of the wrong type, gets no suggestions. Every
interaction is answered; none leaves a traceback.
"""
from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.discord.interactions import send
from bot.discord.limits import MAX_OPTION
from bot.service import UserError

log = logging.getLogger(__name__)

GENERIC_FAILURE = "Something went wrong on my side. It has been logged; please try again."
TOO_LONG = f"That is too long: an option takes at most {MAX_OPTION} characters."
OUT_OF_DATE = "That command is out of date. Please try again in a minute."
# what each option type takes, in words (Discord's option types); the resolved entries an id must name
KINDS = {3: "text", 4: "a whole number", 5: "True or False", 6: "a member", 7: "a channel", 8: "a role",
         9: "a member or a role", 10: "a number", 11: "a file"}
RESOLVED = {6: ("users",), 7: ("channels",), 8: ("roles",), 9: ("users", "roles"), 11: ("attachments",)}
NO_ANSWER = "The database is not answering just now. Please try again in a minute."


def user_message(error: BaseException) -> str | None:
    """The sentence to show for a user-facing error, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return str(error) or "That did not work."
    if isinstance(error, TimeoutError) and not isinstance(error, aiohttp.ClientError):   # a query past
        # KIBITZ_PG_TIMEOUT (not a request to Discord): the database server is frozen or swamped
        log.warning("a database query timed out: %r", error)
        return NO_ANSWER
    if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        return OUT_OF_DATE
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.TransformerError):
        if len(str(error.value)) > MAX_OPTION:
            return TOO_LONG
        return f"I could not read {error.value!r} as a {error.type.name.replace('_', ' ')}."
    if isinstance(error, app_commands.AppCommandError):
        return str(error) or "That command cannot be used here."
    return None


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Turn an error into a reply: a sentence for user mistakes, a logged traceback for bugs."""
    text = user_message(error)
    if text is None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        name = interaction.command.qualified_name if interaction.command else interaction.data
        log.error("Error handling interaction %s (%s)", interaction.id, name, exc_info=original)
        text = GENERIC_FAILURE
    try:
        await send(interaction, text, ephemeral=True)
    except discord.HTTPException:
        log.exception("Could not tell the user about an error in interaction %s", interaction.id)


def overlong_option(interaction: discord.Interaction) -> bool:
    """Whether a slash command carries a string option longer than MAX_OPTION characters."""
    def walk(options) -> bool:
        for option in options or ():
            if isinstance(option.get("value"), str) and len(option["value"]) > MAX_OPTION:
                return True
            if walk(option.get("options")):
                return True
        return False

    data: dict[str, Any] = dict(interaction.data or {})
    return walk(data.get("options"))


def option_problem(interaction: discord.Interaction, *, typed: bool = False) -> str | None:
    """Why a slash command's options cannot be taken as they are (a wrong type, a value outside its
    choices or range, a required option missing), in one sentence; None when they can. With `typed`
    (an autocomplete: options half filled in) only the types of the options not being typed count."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None   # unknown to this bot: discord.py's CommandNotFound is answered by on_error
    data: dict[str, Any] = dict(interaction.data or {})
    options = data.get("options") or []
    while len(options) == 1 and options[0].get("type") in (1, 2):   # a subcommand's own options
        options = options[0].get("options") or []
    params = {param.display_name: param for param in command.parameters}
    given: dict[str, Any] = {}
    for option in options:
        param = params.get(option.get("name"))
        if param is None or option.get("type") != param.type.value:
            return OUT_OF_DATE
        if not (typed and option.get("focused")):
            given[param.display_name] = option.get("value")
    for name, param in params.items():
        if name not in given:
            if param.required and not typed:
                return f"/{command.qualified_name} needs its {name} option."
            continue
        problem = _value_problem(param, given[name], data.get("resolved") or {}, typed)
        if problem:
            return problem
    return None


def _value_problem(param: app_commands.Parameter, value: Any, resolved: dict[str, Any], typed: bool) -> str | None:
    kind, name = param.type.value, param.display_name
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ((kind == 3 and not isinstance(value, str)) or (kind == 4 and not (number and isinstance(value, int)))
            or (kind == 10 and not number) or (kind == 5 and not isinstance(value, bool))
            or (kind in RESOLVED and not any(str(value) in (resolved.get(key) or {}) for key in RESOLVED[kind]))):
        return f"The {name} option takes {KINDS.get(kind, 'something else')}."
    if typed:
        return None
    if param.choices and value not in [choice.value for choice in param.choices]:
        names = [str(choice.name) for choice in param.choices]
        return f"The {name} option takes {', '.join(names[:-1])} or {names[-1]}." if len(names) > 1 else \
            f"The {name} option takes {names[0]}."
    low, high = (param.min_value, param.max_value) if kind in (4, 10) else (None, None)
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if low is not None and high is not None else \
            f"of at least {low}" if low is not None else f"of at most {high}"
        return f"The {name} option takes {KINDS[kind]} {span}."
    return None


def typed_text(interaction: discord.Interaction) -> bool:
    """Whether an autocomplete's focused option holds text (what a member types)."""
    def walk(options) -> bool:
        return all((isinstance(option.get("value"), str) or not option.get("focused")) and walk(option.get("options"))
                   for option in options or ())

    return walk(dict(interaction.data or {}).get("options"))


class KibitzTree(app_commands.CommandTree):
    """Maps every app-command error to one ephemeral reply (see module docstring)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is discord.InteractionType.autocomplete and \
                (not typed_text(interaction) or option_problem(interaction, typed=True)):
            await interaction.response.autocomplete([])
            return False
        if interaction.type is discord.InteractionType.application_command:
            problem = TOO_LONG if overlong_option(interaction) else option_problem(interaction)
            if problem:
                await interaction.response.send_message(problem, ephemeral=True)
                return False
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        await report_error(interaction, error)
