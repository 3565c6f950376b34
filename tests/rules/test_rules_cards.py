"""What the rules cards (data/rules/<slug>.md) tell a player first, and that they say what the game does."""
import re
from pathlib import Path

import pytest

import rules

CARDS = Path(__file__).resolve().parents[2] / "data" / "rules"
DOCS = Path(__file__).resolve().parents[2] / "docs"
SET_UP = "**Set-up positions**"


def card(slug: str) -> str:
    return (CARDS / f"{slug}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
def test_set_up_and_stored_position_rules_wait_in_the_last_section(slug):
    """A player meets the game before any rule about set-up positions, saved positions or how a deal is computed."""
    text = card(slug)
    player_part, _, set_up = text.partition(SET_UP)
    said = re.findall(r"set-up|set up|saved position|SHA-256|big-endian|Python|\bFEN\b|position (?:may|shows|never)|move counter", player_part, re.I)
    assert not said, f"{slug}: {said} before the {SET_UP} section"
    assert not set_up or "\n**" not in set_up, f"{slug}: {SET_UP} is not the last section"


def test_zoo_card_quotes_the_caption_the_board_shows():
    game = rules.new_game("zoo", fen="rnb1kbnr/pppppppp/8/8/8/8/P1PPPPPP/R1BQKBNR w - - 0 1 pn/q")
    caption = game.view().caption
    assert caption == "White has captured pawn, knight; Black has captured queen (four kinds win)"
    assert f'"{caption}"' in card("zoo")


@pytest.mark.parametrize("text", [card("kingswap"), card("safe-passage"), card("solitary-patience"),
                                  (DOCS / "playing.md").read_text(encoding="utf-8")])
def test_where_undo_is_explained_play_after_any_finish_is_practice(text):
    practice = "finish (solved, failed or given up) counts when it happens, and play after it is practice"
    assert any("`/undo`" in line and practice in line for line in text.splitlines())
