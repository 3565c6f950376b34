"""The command list is written once (bot/commands_list.py) and every place that lists commands
names the same ones: the Discord cogs, /help, the console's HELP, the README's table and docs/playing.md's."""
import re
from pathlib import Path

import pytest

from bot.commands_list import CONSOLE_ONLY, NOT_IN_CONSOLE, NOT_IN_HELP, SLASH
from bot.console import HELP
from bot.discord.app import COGS
from bot.service import GameService
from bot.store import InMemoryStore

ROOT = Path(__file__).resolve().parents[1]


def named(text: str) -> list[str]:
    """The commands a text names (`/move`, `/board`...), each once, in order of first mention."""
    return list(dict.fromkeys(re.findall(r"(?<![\w/<])/([a-z]+)\b", text)))


def table(markdown: str, heading: str) -> list[str]:
    """The commands of the table under `heading`, in order."""
    section = markdown.split(heading, 1)[1].split("\n## ", 1)[0]
    return list(dict.fromkeys(re.findall(r"^\| `/([a-z]+)", section, flags=re.M)))


def test_the_cogs_have_the_listed_commands():
    commands = [command.name for cog in COGS for command in cog(None).get_app_commands()]   # type: ignore[arg-type]
    assert sorted(commands) == sorted(SLASH)


def test_the_readme_table_lists_the_commands_in_order():
    assert table((ROOT / "README.md").read_text(encoding="utf-8"), "## Commands") == list(SLASH)


def test_the_full_table_in_docs_lists_every_command():
    assert sorted(table((ROOT / "docs" / "playing.md").read_text(encoding="utf-8"), "## Commands")) == sorted(SLASH)


@pytest.mark.asyncio
async def test_help_names_every_command_but_itself():
    text = (await GameService(InMemoryStore()).help_text()).text
    assert sorted(named(text)) == sorted(set(SLASH) - set(NOT_IN_HELP))


def test_the_console_help_names_its_commands():
    assert sorted(named(HELP)) == sorted((set(SLASH) - set(NOT_IN_CONSOLE)) | set(CONSOLE_ONLY))


def test_the_finder_reads_commands_not_paths_or_mentions():
    assert named("`/move e2e4`, then /board; see docs/playing.md or https://discord.com/channels /move") == \
        ["move", "board"]
