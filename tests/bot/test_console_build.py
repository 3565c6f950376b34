"""/build in the console: the turn builder's steps as numbered menus."""
import io

import pytest

from bot.console import Console
from bot.service import GameService
from bot.store import InMemoryStore

pytestmark = pytest.mark.asyncio


def blank_png(view, orientation) -> bytes:
    return b"\x89PNG"


def number_of(out: str, words: str) -> str:
    """The menu number printed before `words` in the last menu."""
    menu = out.rsplit("Building a turn.", 1)[-1].rsplit("Turn so far", 1)[-1]
    for line in menu.splitlines():
        if words in line:
            return line.strip().split(".", 1)[0]
    raise AssertionError(f"{words!r} not offered in:\n{menu}")


async def console_game(tmp_path, variant: str) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    console = Console(GameService(InMemoryStore(), renderer=blank_png), tmp_path, stdout=out, user="you")
    for line in (f"/challenge @bob {variant} colour:white", "/as bob", "/accept", "/as you"):
        await console.handle(line)
    return console, out


async def test_build_plays_a_standard_move_from_numbered_menus(tmp_path):
    console, out = await console_game(tmp_path, "standard")
    await console.handle("/build")
    assert "Pick a man to move." in out.getvalue() and "knight g1 (2 moves)" in out.getvalue()
    await console.handle(f"/build {number_of(out.getvalue(), 'knight g1')}")
    assert "Pick where the knight g1 goes." in out.getvalue()
    await console.handle(f"/build {number_of(out.getvalue(), 'Nf3 (g1f3)')}")
    assert "ok. play Nf3" in out.getvalue()
    await console.handle("/build ok")
    assert "1. You play Nf3." in out.getvalue()
    assert (await console.service.board("console")).text.count("bob to move") == 1


async def test_build_offers_the_swaps_after_a_balanced_swap_move(tmp_path):
    console, out = await console_game(tmp_path, "balanced-swap")
    await console.handle("/move e2e4")
    await console.handle("/as bob")
    await console.handle("/build")
    await console.handle(f"/build {number_of(out.getvalue(), 'Nc6 (b8c6)')}")
    assert "Pick the swap." in out.getvalue()
    await console.handle(f"/build {number_of(out.getvalue(), 'swap the bishop f8 with the pawn g7')}")
    await console.handle("/build ok")
    assert "1… bob plays Nc6, then swaps f8 and g7." in out.getvalue()


async def test_build_refuses_a_number_not_offered_and_a_player_not_to_move(tmp_path):
    console, out = await console_game(tmp_path, "standard")
    await console.handle("/build")
    await console.handle("/build 99")
    assert "! Pick a number from 1 to" in out.getvalue()
    await console.handle("/as bob")
    await console.handle("/build")
    assert "! It is not your turn." in out.getvalue()
    assert (await console.service.board("console")).ply == 0
