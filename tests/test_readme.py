"""The README is a user's first page: it lists every game and every slash command."""
import re
from pathlib import Path

import rules

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
COGS = Path(__file__).resolve().parents[1] / "bot" / "cogs"


def test_every_game_is_in_the_games_table():
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", README, flags=re.M))
    assert sorted(set(rules.VARIANTS) - listed) == []


def test_every_slash_command_is_documented():
    names = set()
    for source in COGS.glob("*.py"):
        names |= set(re.findall(r'app_commands\.command\(\s*name="([a-z_-]+)"', source.read_text()))
    assert names, "no commands found"
    assert sorted(n for n in names if f"/{n}" not in README) == []
