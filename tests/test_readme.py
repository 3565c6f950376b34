"""The README is a user's first page: it lists every game and every slash command, and points to
docs/ for the rest; every link between them leads somewhere."""
import re
from pathlib import Path

import rules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COGS = ROOT / "bot" / "discord" / "cogs"
DOCS = sorted((ROOT / "docs").glob("*.md"))


def test_every_game_is_in_the_games_table():
    listed = set(re.findall(r"^\| `([a-z-]+)` \|", README, flags=re.M))
    assert sorted(set(rules.VARIANTS) - listed) == []


def test_every_slash_command_is_documented():
    names = set()
    for source in COGS.glob("*.py"):
        names |= set(re.findall(r'app_commands\.command\(\s*name="([a-z_-]+)"', source.read_text()))
    assert names, "no commands found"
    assert sorted(n for n in names if f"/{n}" not in README) == []


def anchors(markdown: str) -> set[str]:
    """The #fragments of a Markdown file's headings, made as GitHub makes them."""
    headings = re.findall(r"^#+ (.+)$", markdown, flags=re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_the_readme_points_to_every_page_in_docs_and_every_link_resolves():
    assert DOCS, "no docs/*.md"
    linked = set(re.findall(r"\]\((docs/[^)#]+)", README))
    assert sorted(str(page.relative_to(ROOT)) for page in DOCS if str(page.relative_to(ROOT)) not in linked) == []
    broken = []
    for page in [ROOT / "README.md", *DOCS]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue   # a web address
            path, _, fragment = target.partition("#")
            linked_page = (page.parent / path).resolve() if path else page
            if not linked_page.is_file() or (fragment and fragment not in anchors(linked_page.read_text())):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []
