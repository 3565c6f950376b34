"""The one place where Discord-layer errors become replies, plus the helpers that send them.

User mistakes (``UserError``, and ``AppCommandError`` subclasses such as a failed transformer
or check) become one ephemeral sentence. Anything else is logged with its traceback and the
user gets a short generic apology. Slash commands reach ``KibitzTree.on_error`` through
discord.py; button callbacks call :func:`report_error` themselves (discord.py sends
DynamicItem errors to a log line, not to the tree).

One request per answer: a command whose answer is ready within ``DEFER_AFTER`` seconds answers
with the interaction's callback itself (text, picture and buttons in one request), with no
"thinking" message before it. Discord refuses a second callback to the same interaction
("already acknowledged", code 40060), so repeating a callback is safe (discord.py repeats a
request Discord answered with a 5xx, and deliver_reply one whose connection dropped). A refusal
alone does not say what went through, so the bot then reads what the interaction shows
(GET @original, only on this rare path): an answer already there counts as delivered; a "thinking"
message (a defer that went through though its reply was lost) is resolved as after any defer;
no message at all gets the answer as a followup.

Discord's 3 seconds run from when it made the interaction, not from when the bot got it, so
``DEFER_AFTER`` (1.5 s) counts from there too (the interaction's snowflake, :func:`defer_in`): an
interaction that reached a lagging bot late defers sooner.

A slow command (still running after ``DEFER_AFTER`` seconds) defers publicly so Discord's
3-second limit holds (a defer that fails is left to the answer, as above), and its public answer
then replaces the loading message by editing it (PATCH @original) rather than by a first followup
(POST): both look the same to the user, but an edit can be repeated safely, where a POST that
Discord had carried out before failing would post the board twice.

Ephemeral after a public "thinking" defer: Discord makes the first followup after a deferred
response replace the loading message *with the visibility chosen at defer time*, ignoring the
followup's own ephemeral flag. So when the answer turns out to be private (an error), we first
delete the public loading message, then send the ephemeral followup. After a private "thinking"
(:func:`defer_privately`: a command whose answers are all private) the answer simply replaces it.

Answering a command (:func:`answer`, used by every slash command): the service call runs first,
and an error it raises at once (not your game, not your turn, an illegal move, a bad option)
becomes a private reply with no public "thinking" message before it. String options are at most
``MAX_OPTION`` characters (Discord enforces it in its client; the tree refuses longer ones in one
private sentence, before any command runs).

Options are read strictly, whoever sent them (:func:`option_problem`): an option of the wrong type,
outside its choices or range, or a required one missing is refused in one private sentence before
any command runs (`/pings state:sideways` is not taken as off), and an autocomplete whose typed
text is not text gets no suggestions. Every interaction is answered; none leaves a traceback.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands

from bot.service import UserError

if TYPE_CHECKING:
    from bot.service import Reply

log = logging.getLogger(__name__)

GENERIC_FAILURE = "Something went wrong on my side. It has been logged; please try again."
MAX_CONTENT = 2000
_ANSWERED = "kibitz_answered"   # Interaction.extras key: an answer already went (callback or resolved defer)
_LOADING = "kibitz_loading"     # Interaction.extras key, after a refused callback: it left "thinking"
_MESSAGE = "kibitz_message"     # Interaction.extras key: id of the last message that carried the answer
_PRIVATE = "kibitz_private"     # Interaction.extras key: its "thinking" is private (defer_privately)
LOADING_ID = "kibitz_loading_id"   # Interaction.extras key: id of its public "thinking" message, when known
ALREADY_ACKNOWLEDGED = 40060     # Discord's code for a second callback to one interaction
DEFER_AFTER = 1.5     # seconds after the interaction was made before a command defers publicly (Discord allows 3)
MAX_OPTION = 100      # characters in any string option (the `max_length` every one declares)
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


async def send(interaction: discord.Interaction, content: str = "", *, ephemeral: bool = False,
               **kwargs) -> None:
    """Answer an interaction whether or not it was deferred; split content over 2000 chars.

    Extra keyword arguments (file, view, ...) go with the last piece.
    """
    texts = split_content(content) or [""]
    for index, text in enumerate(texts):
        extra = kwargs if index == len(texts) - 1 else {}
        await send_piece(interaction, text, ephemeral=ephemeral, **extra)


def resolves_loading(interaction: discord.Interaction) -> bool:
    """Whether the public "thinking" message of a deferred command still waits for its answer."""
    deferred = (interaction.response.is_done()
                and interaction.response.type is discord.InteractionResponseType.deferred_channel_message)
    return (deferred or bool(interaction.extras.get(_LOADING))) and not interaction.extras.get(_ANSWERED)


async def send_piece(interaction: discord.Interaction, content: str, *, ephemeral: bool, **kwargs) -> None:
    """Send one message (at most 2000 characters) as the interaction's answer or a followup."""
    if not _called_back(interaction):
        try:
            response = await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)
            interaction.extras[_ANSWERED] = True
            note_message(interaction, response.message_id)
            return
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
        # Discord has a callback already: see what it shows (module docstring)
        shown = await _shown(interaction)
        if shown is not None and not shown.flags.loading:
            log.info("interaction %s: a repeated answer was refused as already made", interaction.id)
            interaction.extras[_ANSWERED] = True
            note_message(interaction, shown.id)
            return
        interaction.extras[_LOADING] = shown is not None   # a defer went through: resolve it below
        if shown is not None:
            interaction.extras[LOADING_ID] = shown.id
    if resolves_loading(interaction):
        if not ephemeral or interaction.extras.get(_PRIVATE):   # the answer takes the loading message's place
            await _replace_loading(interaction, content, **kwargs)
            interaction.extras[_ANSWERED] = True
            return
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.debug("could not delete the loading message of interaction %s", interaction.id)
    sent = await interaction.followup.send(content, ephemeral=ephemeral, wait=True, **kwargs)
    interaction.extras[_ANSWERED] = True
    note_message(interaction, sent.id)


def note_message(interaction: discord.Interaction, message_id: int | None) -> None:
    """Keep the id of a message that carried the answer (the last one: it carries the buttons)."""
    if message_id is not None:
        interaction.extras[_MESSAGE] = message_id


def answered_in(interaction: discord.Interaction) -> int | None:
    """The id of the message that carried the interaction's answer (its last piece), if known."""
    return interaction.extras.get(_MESSAGE)


def _called_back(interaction: discord.Interaction) -> bool:
    """Whether a callback of ours went through: discord.py saw it, or Discord refused a repeat."""
    return interaction.response.is_done() or _ANSWERED in interaction.extras or _LOADING in interaction.extras


async def _shown(interaction: discord.Interaction) -> discord.InteractionMessage | None:
    """The message a callback of this interaction made (an answer, or "thinking"), or None."""
    try:
        shown = await interaction.original_response()
    except discord.NotFound:
        return None
    if interaction.message is not None and shown.id == interaction.message.id:
        return None   # a component's own message (after a deferred update): no answer of ours
    return shown


async def _replace_loading(interaction: discord.Interaction, content: str, *, file: discord.File | None = None,
                           view: discord.ui.View | None = None, **kwargs) -> None:
    """Turn the public "thinking" message into the answer (see module docstring)."""
    if file is not None:
        kwargs["attachments"] = [file]
    if view is not None:
        kwargs["view"] = view
    message = await interaction.edit_original_response(content=content, **kwargs)
    note_message(interaction, message.id)


def split_content(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split text into pieces of at most `limit` characters, at line breaks where possible."""
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = rest.rfind("\n", 0, limit)
        if cut <= 0:
            cut = limit
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    if rest:
        pieces.append(rest)
    return pieces


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


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *, changes: bool = False) -> Reply:
    """Answer a slash command with the Reply `work` (a service call) gives; see module docstring.

    `changes`: the call commits a change, so its answer is delivered whatever happens
    (``deliver_reply``); else it is sent (``send_reply``). An error from `work` propagates to
    ``KibitzTree.on_error``: private, and with no "thinking" before it when it came quickly.
    Returns the Reply, sent.
    """
    from bot.views.replies import deliver_reply, send_reply   # that module imports this one

    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=defer_in(interaction))
    if not done:
        await _defer(interaction)   # slow: show "thinking" now; a public answer is the likely one
    reply = await task   # ready in time: the answer is the callback itself, one request
    if changes:
        await deliver_reply(interaction, reply)
    else:
        await send_reply(interaction, reply)
    return reply


async def defer_privately(interaction: discord.Interaction) -> None:
    """"Thinking", seen by the caller alone, for a command whose answers are all private: the
    answer then replaces it in one request (module docstring)."""
    await interaction.response.defer(thinking=True, ephemeral=True)
    interaction.extras[_PRIVATE] = True


def defer_in(interaction: discord.Interaction) -> float:
    """Seconds the command may still run before it defers: DEFER_AFTER counted from when Discord
    made the interaction (its snowflake), as Discord's 3 seconds are, so an interaction that
    reached a lagging bot late defers sooner. Never more than DEFER_AFTER from now: a host clock
    behind Discord's changes nothing, and one ahead only makes slow commands defer earlier."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(DEFER_AFTER, max(0.0, DEFER_AFTER - age))


async def _defer(interaction: discord.Interaction) -> None:
    """Defer publicly ("thinking"); a defer that fails (refused, expired, or its connection lost,
    perhaps after it went through) is left to the answer: send_piece finds out what the
    interaction shows, and deliver_reply posts in the channel what cannot go there."""
    try:
        response = await interaction.response.defer(thinking=True)
        interaction.extras[LOADING_ID] = response.message_id if response is not None else None
    except discord.HTTPException as error:
        log.warning("could not defer interaction %s: %s %s", interaction.id, error.status, error.text)
    except (aiohttp.ClientConnectionError, TimeoutError) as error:   # it may have gone through: the answer finds out
        log.warning("could not defer interaction %s: %s", interaction.id, type(error).__name__)


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


def option_problem(interaction: discord.Interaction) -> str | None:
    """Why a slash command's options cannot be taken as they are (a wrong type, a value outside its
    choices or range, a required option missing), in one sentence; None when they can."""
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
        given[param.display_name] = option.get("value")
    for name, param in params.items():
        if name not in given:
            if param.required:
                return f"/{command.qualified_name} needs its {name} option."
            continue
        problem = _value_problem(param, given[name], data.get("resolved") or {})
        if problem:
            return problem
    return None


def _value_problem(param: app_commands.Parameter, value: Any, resolved: dict[str, Any]) -> str | None:
    kind, name = param.type.value, param.display_name
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if ((kind == 3 and not isinstance(value, str)) or (kind == 4 and not (number and isinstance(value, int)))
            or (kind == 10 and not number) or (kind == 5 and not isinstance(value, bool))
            or (kind in RESOLVED and not any(str(value) in (resolved.get(key) or {}) for key in RESOLVED[kind]))):
        return f"The {name} option takes {KINDS.get(kind, 'something else')}."
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
        if interaction.type is discord.InteractionType.autocomplete and not typed_text(interaction):
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
