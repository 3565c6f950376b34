"""End to end through the Discord stand-in: KingSwap! played by clicking its 5x5 grid of buttons."""
from __future__ import annotations

from typing import Any

import pytest

import rules
from bot.service import GameService
from tests.discord.conftest import running_bot, tiny_png
from tests.discord.fake_discord import UPDATE_MESSAGE

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """These puzzles are played where the command runs (no thread of their own), unless a test says otherwise."""
    fake.deny_threads()

SEED = 7
PRIMARY, SUCCESS, DANGER = 1, 3, 4


def grid_messages(fake, channel: str) -> list[dict[str, Any]]:
    return [m.message for m in fake.messages_in(channel)
            if m.message and any(c.get("custom_id", "").startswith("kibitz:ks:")
                                 for row in m.message.get("components") or [] for c in row["components"])]


def live_grids(fake) -> list[str]:
    """The ids of the messages in the channel that carry a grid now (after any edits)."""
    return [i for i, m in fake.messages.items() if m["channel_id"] == fake.channel_id
            and any(c.get("custom_id", "").startswith("kibitz:ks:") for row in m.get("components") or []
                    for c in row["components"])]


def cells(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """square -> button, read from the custom_ids (the last field is the square)."""
    return {c["custom_id"].rsplit(":", 1)[1]: c for row in message["components"] for c in row["components"]}


def enabled(message: dict[str, Any]) -> set[str]:
    return {square for square, c in cells(message).items() if not c.get("disabled")}


async def start(fake) -> dict[str, Any]:
    log = await fake.slash("puzzle", {"variant": "kingswap", "seed": SEED}, user=fake.alice)
    assert "starts" in log.text
    await fake.wait_until(lambda: grid_messages(fake, fake.channel_id))
    return grid_messages(fake, fake.channel_id)[-1]


def game() -> rules.Game:
    return rules.new_game("kingswap", seed=SEED)


async def click(fake, message, square, user):
    return await fake.click(cells(message)[square]["custom_id"], user=user, message=message)


async def test_the_grid_is_the_board_as_five_rows_of_five_buttons(bot, fake, service):
    grid = await start(fake)
    assert [len(row["components"]) for row in grid["components"]] == [5, 5, 5, 5, 5]
    view = game().view()
    buttons = cells(grid)
    assert list(buttons) == [f"{f}{r}" for r in range(5, 0, -1) for f in "abcde"]   # a5 top left, e1 bottom right
    assert buttons["e1"]["label"] == "♔" and buttons["e1"]["style"] == PRIMARY
    assert buttons["a5"]["style"] == SUCCESS   # the corner the king heads for
    assert enabled(grid) == {m[:2] for m in game().legal_moves()}
    assert all(view.pieces.get(sq) is None or b["label"] != "·" for sq, b in buttons.items())


async def test_a_first_click_leaves_only_that_mans_legal_targets_enabled(bot, fake, service):
    grid = await start(fake)
    move = game().legal_moves()[0]
    picked = await click(fake, grid, move[:2], fake.alice)
    assert picked.callbacks[0].type == UPDATE_MESSAGE
    updated = picked.reply.message
    targets = {m[2:] for m in game().legal_moves() if m[:2] == move[:2]}
    assert enabled(updated) == targets | {move[:2]}
    assert cells(updated)[move[:2]]["style"] == DANGER
    again = await click(fake, updated, move[:2], fake.alice)   # the man put down again
    assert enabled(again.reply.message) == {m[:2] for m in game().legal_moves()}


async def test_the_second_click_plays_the_move_and_the_new_board_carries_the_grid(bot, fake, service):
    grid = await start(fake)
    assert grid["attachments"] and not [c for row in grid["components"] for c in row["components"]
                                        if c["custom_id"].startswith("kibitz:tb")]   # the board, its grid alone
    move = game().legal_moves()[0]
    picked = (await click(fake, grid, move[:2], fake.alice)).reply.message
    assert picked["content"] == grid["content"]   # a pick changes the grid, not the board's words
    played = await click(fake, picked, move[2:], fake.alice)
    assert "alice plays" in played.text and played.reply.files
    record = await service.store.open_game(fake.channel_id)
    assert record.moves == [move] and record.plies_played == 1
    turned = played.reply.message
    after = game()
    after.play(move)
    assert enabled(turned) == {m[:2] for m in after.legal_moves()}
    assert all(f":{1}:" in c["custom_id"] for c in cells(turned).values())   # ply 1 in every button
    await fake.wait_until(lambda: live_grids(fake) == [turned["id"]])   # one grid: the newest board's


async def test_undo_after_the_end_brings_the_grid_back_on_the_new_board(bot, fake, service):
    grid = await start(fake)
    move = game().legal_moves()[0]
    await fake.slash("move", {"move": move}, user=fake.alice)
    over = await fake.slash("resign", user=fake.alice)
    assert over.reply.message["components"] == []   # given up: no grid
    undone = await fake.slash("undo", user=fake.alice)
    assert "takes back" in undone.reply.content
    assert enabled(undone.reply.message) == {m[:2] for m in game().legal_moves()}
    await fake.wait_until(lambda: live_grids(fake) == [undone.reply.message["id"]])
    assert grid["id"] not in live_grids(fake)


async def test_a_click_on_an_old_grid_changes_nothing_and_says_so_privately(bot, fake, service):
    grid = await start(fake)
    first, *_ = game().legal_moves()
    typed = await fake.slash("move", {"move": first}, user=fake.alice)   # typed /move works beside the grid
    assert "alice plays" in typed.text
    stale = await click(fake, grid, first[:2], fake.alice)
    assert stale.reply.ephemeral and "earlier position" in stale.reply.content
    record = await service.store.open_game(fake.channel_id)
    assert record.moves == [first]


async def test_only_the_puzzles_player_may_click(bot, fake, service):
    grid = await start(fake)
    move = game().legal_moves()[0]
    refused = await click(fake, grid, move[:2], fake.bob)
    assert refused.reply.ephemeral and "Only <@" in refused.reply.content
    assert fake.messages[grid["id"]]["components"] == grid["components"]
    assert (await service.store.open_game(fake.channel_id)).moves == []


async def test_the_grid_works_after_a_restart(fake, service):
    async with running_bot(fake, service):
        grid = await start(fake)
    move = game().legal_moves()[0]
    fresh = GameService(service.store, renderer=tiny_png)   # a new process over the same store
    async with running_bot(fake, fresh):
        picked = (await click(fake, grid, move[:2], fake.alice)).reply.message
        played = await click(fake, picked, move[2:], fake.alice)
    assert "alice plays" in played.text
    assert (await service.store.open_game(fake.channel_id)).moves == [move]


async def test_other_puzzles_get_no_grid(bot, fake, service):
    await fake.slash("puzzle", {"variant": "solitary-patience", "seed": 1}, user=fake.alice)
    assert grid_messages(fake, fake.channel_id) == []



async def test_a_grid_from_a_position_taken_back_changes_nothing_at_the_same_ply(bot, fake, service):
    grid = await start(fake)
    first, second = game().legal_moves()[:2]
    picked = (await click(fake, grid, first[:2], fake.alice)).reply.message
    after_first = (await click(fake, picked, first[2:], fake.alice)).reply.message   # ply 1: the board after `first`
    after = game()
    after.play(first)
    man, target = next((m[:2], m[2:]) for m in after.legal_moves() if m[:2] not in first + second)
    chosen = (await click(fake, after_first, man, fake.alice)).reply.message   # a man picked on that grid
    await fake.slash("undo", user=fake.alice)
    await fake.slash("move", {"move": second}, user=fake.alice)  # ply 1 again, another position
    stale = await click(fake, chosen, target, fake.alice)
    assert stale.reply.ephemeral and "earlier position" in stale.reply.content
    assert (await service.store.open_game(fake.channel_id)).moves == [second]


async def test_a_click_on_the_grid_of_a_puzzle_given_up_says_it_is_over(bot, fake, service):
    grid = await start(fake)
    await fake.slash("resign", user=fake.alice)
    move = game().legal_moves()[0]
    late = await click(fake, grid, move[:2], fake.alice)
    assert late.reply.ephemeral and "is over" in late.reply.content and "newest grid" not in late.reply.content
    assert (await service.store.latest(fake.channel_id)).moves == []
