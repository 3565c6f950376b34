"""The console takes Discord's commands with Discord's options (`name:value`), keeps its older spellings,
refuses what it does not know in a short sentence, and suggests only commands it accepts."""
import io
import re

import pytest

import rules
from bot.commands_list import NOT_IN_CONSOLE, SLASH
from bot.console import OPTIONS, Console
from bot.discord.app import COGS
from bot.service import GameService, UserError
from bot.store import InMemoryStore

REFUSED = ("Unknown option", "Unknown command", "I don't know what")

pytestmark = pytest.mark.usefixtures("deals_worked_out_once")   # the daily leaderboards work out a deal


def blank_png(view, orientation) -> bytes:
    return b"\x89PNG"


class Typist:
    """A console fed line by line; `said` is what the last line printed."""

    def __init__(self, tmp_path) -> None:
        self.out = io.StringIO()
        self.service = GameService(InMemoryStore(), renderer=blank_png)
        self.console = Console(self.service, tmp_path, stdout=self.out, user="you")
        self.said = ""

    async def type(self, *lines: str) -> str:
        for line in lines:
            before = len(self.out.getvalue())
            await self.console.handle(line)
            self.said = self.out.getvalue()[before:]
        return self.said


def test_the_console_options_are_discords():
    discord = {command.name: [p.name for p in command.parameters]
               for cog in COGS for command in cog(None).get_app_commands()}   # type: ignore[arg-type]
    console = {name: list(OPTIONS.get(name, ((), 0))[0]) for name in SLASH if name not in NOT_IN_CONSOLE}
    assert console == {name: options for name, options in discord.items() if name not in NOT_IN_CONSOLE}


async def answers(t: Typist, steps: list[tuple[str, str]]) -> None:
    """Type each line; what it prints must contain the words paired with it ("": anything)."""
    for line, words in steps:
        assert words in await t.type(line), (line, t.said)


@pytest.mark.asyncio
async def test_discord_spellings_work_on_the_console(tmp_path):
    t = Typist(tmp_path)
    await answers(t, [
        ("/leaderboard kingswap daily:True", "daily deal of"), ("/leaderboard variant:kingswap daily:true", "daily deal of"),
        ("/leaderboard kingswap daily:False", "best score per player"),
        ("/puzzle variant:safe-passage level:2", "target level 2"), ("/channel two", ""),
        ("/puzzle kingswap seed:5", "KingSwap!"), ("/board flip:True", "seen from Black's side"),
        ("/challenge variant:zoo opponent:@bob colour:black days:3", "You would play Black. 3 days per move."),
        ("/rules variant:prop", "Prop Chess"), ("/profile member:bob", "no rated games"),
        ("/as bob", ""), ("/channel three", ""), ("/challenge standard @you colour:black", ""), ("/as you", ""),
        ("/accept", ""), ("/move move:e4", "You play e4.")])
    game = (await t.service.board("three")).game_id
    await answers(t, [(f"/abort game:{game}", f"aborted game #{game}")])


@pytest.mark.asyncio
async def test_the_older_console_spellings_still_work(tmp_path):
    await answers(Typist(tmp_path), [
        ("/leaderboard kingswap daily", "daily deal of"), ("/puzzle kingswap 7", "KingSwap!"),
        ("/board flip", "seen from Black's side"), ("/channel two", ""), ("/challenge @bob zoo", "You challenge bob to Zoo Chess"),
        ("/challenge tyrant carol color:white", "You challenge carol to Tyrant Chess"), ("/profile bob", "bob")])


@pytest.mark.asyncio
async def test_unknown_options_and_stray_words_are_refused_and_change_nothing(tmp_path):
    t = Typist(tmp_path)
    assert "! Unknown option 'hue:red': /puzzle takes variant:, seed:, level: and daily:." in \
        await t.type("/puzzle kingswap hue:red")
    assert "! Unknown option 'hue:red': /leaderboard takes variant: and daily:." in \
        await t.type("/leaderboard kingswap hue:red")
    assert "! The daily option is True or False." in await t.type("/leaderboard kingswap daily:maybe")
    assert "! I don't know what 'junk' means here: say a variant, then a seed, then options." in \
        await t.type("/puzzle kingswap 7 junk")
    with pytest.raises(UserError, match="No game in this channel"):
        await t.service.board("console")
    await t.type("/puzzle kingswap 7")
    assert "! Unknown option 'daily:True': /resign takes none." in await t.type("/resign daily:True")
    assert "! I don't know what 'now' means here: /resign takes nothing more." in await t.type("/resign now")
    assert "! I don't know what 'junk' means here: /board takes flip:." in await t.type("/board junk")
    assert (await t.service.board("console")).finished is False


def suggested(text: str) -> list[str]:
    """The commands a console answer suggests, each with the words that belong to it (a slug, a number,
    `name:value`, @name, yes or no; a channel's name): "/takeback yes or /takeback no" -> ["/takeback yes", "/takeback no"]."""
    word = r"(?:[a-z]+:\w+|@\w+|\d+|yes|no|daily|flip|" + "|".join(map(re.escape, rules.VARIANTS)) + r")"
    return re.findall(rf"(?<![\w/<])/(?:channel [\w-]+|[a-z]+(?![\w/])(?: {word}(?![\w-]))*)", text)


@pytest.mark.asyncio
async def test_every_command_the_console_suggests_in_a_short_tour_is_one_it_accepts(tmp_path):
    t = Typist(tmp_path)
    tour = ["/help", "/leaderboard kingswap", "/leaderboard kingswap daily",
            "/challenge standard @bob colour:white", "/as bob", "/accept", "/as you", "/move e4", "/draw", "/as bob",
            "/move e5", "/as you", "/takeback", "/as bob", "/takeback",
            "/as you", "/channel elsewhere", "/challenge zoo @bob", "/as bob", "/channel puzzle", "/accept 2",
            "/as you", "/puzzle kingswap 3", "/resign"]
    said = {line: await t.type(line) for line in tour}
    assert "press " not in "".join(said.values()) and "button" not in "".join(said.values())
    hints = {hint for text in said.values() for hint in suggested(text)}
    for needed in ("/leaderboard kingswap daily:True", "/puzzle kingswap daily:True", "/draw", "/takeback yes",
                   "/takeback no", "/channel elsewhere", "/accept 2", "/replay", "/export"):
        assert needed in hints
    hints.discard("/quit")   # ends the console's run (tests/bot/test_console.py ends every script with it)
    for hint in sorted(hints):
        await t.type("/channel tried", hint)
        assert not any(refusal in t.said for refusal in REFUSED), (hint, t.said)
        if "daily:True" in hint and hint.startswith("/leaderboard"):
            assert "daily deal of" in t.said
