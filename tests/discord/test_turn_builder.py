"""End to end through the Discord stand-in: turns built from the board's select menus alone."""
from __future__ import annotations

from typing import Any

import pytest

from bot.builder import origin_of
from bot.service import GameService
from bot.store import InMemoryStore
from tests.discord.conftest import running_bot, tiny_png
from tests.discord.fake_discord import CHANNEL_MESSAGE, UPDATE_MESSAGE, FakeDiscord

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """These tests play where the command runs; games in threads: tests/discord/test_threads.py."""
    fake.deny_threads()

SELECT = 3


def builder_of(message: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The builder's components on a message: "select", "Confirm...", "Clear"."""
    found = {}
    for row in message.get("components") or []:
        for c in row.get("components", []):
            if c.get("custom_id", "").startswith("kibitz:tb"):
                found["select" if c["type"] == SELECT else c["label"].split(" ")[0]] = c
    return found


async def start(fake: FakeDiscord, variant: str, moves: list[str] = ()) -> dict[str, Any]:
    """alice (White) v bob; `moves` typed with /move; returns the last board message."""
    log = await fake.slash("challenge", {"opponent": fake.bob, "variant": variant, "colour": "white"}, user=fake.alice)
    accept_id = next(c["custom_id"] for c in log.components() if c["label"] == "Accept")
    board = (await fake.click(accept_id, user=fake.bob)).reply.message
    for index, move in enumerate(moves):
        played = await fake.slash("move", {"move": move}, user=fake.bob if index % 2 else fake.alice)
        assert "plays" in played.reply.content, played.text
        board = played.reply.message
    return board


async def build(fake: FakeDiscord, board: dict[str, Any], user: dict[str, Any], turn: str,
                transcript: list[str] | None = None, *, complete: bool = True) -> dict[str, Any]:
    """Pick `turn` part by part from what the menus offer (the man first, pages, ...), then check
    Confirm is offered; returns the board message with the finished choice on it."""
    message = board
    wanted = turn.split(" ")
    for depth, part in enumerate(wanted):
        for _ in range(12):
            select = builder_of(message)["select"]
            values = {o["value"]: o for o in select["options"]}
            if transcript is not None:
                transcript.append(f"[{select.get('placeholder')}] " + " | ".join(
                    o["label"] + (f" ({o['description']})" if o.get("description") else "") for o in select["options"]))
            pick = part if part in values else f"#{origin_of(part)}" if f"#{origin_of(part)}" in values else \
                next((v for v in values if v.startswith(">")), None)
            assert pick is not None, f"{part} is not offered: {list(values)}"
            log = await fake.select(select["custom_id"], [pick], user=user, message=message)
            assert log.callbacks[0].type == UPDATE_MESSAGE, log.sent
            message = log.reply.message
            if transcript is not None:
                transcript.append(f"  {user['username']} picks {values[pick]['label']}")
            if pick == part:
                break
        else:
            raise AssertionError(f"never reached {part}")
    assert bool(builder_of(message)["Confirm"].get("disabled")) is not complete, f"{turn}: Confirm state"
    return message


async def confirm(fake: FakeDiscord, message: dict[str, Any], user: dict[str, Any]):
    return await fake.click(builder_of(message)["Confirm"]["custom_id"], user=user, message=message)


async def test_a_standard_move_is_built_man_first_then_target(bot, fake, service):
    board = await start(fake, "standard")
    transcript: list[str] = []
    message = await build(fake, board, fake.alice, "g1f3", transcript)
    assert transcript[0].startswith("[Pick a man to move.]") and "knight g1 (2 moves)" in transcript[0]
    assert "[Pick where the knight g1 goes.]" in transcript[2] and "Nf3 (g1f3)" in transcript[2]
    played = await confirm(fake, message, fake.alice)
    assert "1. alice plays **Nf3**." in played.reply.content
    await fake.wait_until(lambda: fake.messages[message["id"]]["components"] == [])   # old builder off
    assert (await service.board(fake.channel_id)).text.count("bob to move")
    game_id = service._live[fake.channel_id].record.id
    assert builder_of(played.reply.message)["select"]["custom_id"].startswith(f"kibitz:tb:{game_id}:1:")   # ply 1


async def test_a_balanced_swap_turn_is_a_move_then_a_swap(bot, fake, service):
    board = await start(fake, "balanced-swap", ["e2e4"])
    transcript: list[str] = []
    message = await build(fake, board, fake.bob, "b8c6 f8/g7", transcript)
    assert any("swap the bishop f8 with the pawn g7 (f8/g7)" in line for line in transcript)
    assert builder_of(message)["Confirm"]["label"] == "Confirm Nc6, f8/g7"   # as players write it
    played = await confirm(fake, message, fake.bob)
    assert "1… bob plays **Nc6, then swaps f8 and g7**." in played.reply.content
    game = service._live[fake.channel_id].game
    assert game.history == ["e2e4", "b8c6 f8/g7"]


async def test_a_tyrant_capture_is_followed_by_its_placement(bot, fake, service):
    board = await start(fake, "tyrant", ["e2e4", "e7e5", "d1h5", "d8h4"])
    first = builder_of(board)["select"]
    transcript: list[str] = []
    message = await build(fake, board, fake.alice, "h5h4", transcript, complete=False)   # not a turn alone
    message = await build(fake, message, fake.alice, "Q@a3", transcript)
    assert any("place the Queen on a3 (Q@a3)" in line for line in transcript)
    played = await confirm(fake, message, fake.alice)
    assert "alice plays" in played.reply.content
    assert service._live[fake.channel_id].game.history[-1] == "h5h4 Q@a3"
    assert first["custom_id"] != builder_of(played.reply.message)["select"]["custom_id"]


async def test_a_reentrant_drop_is_built_from_the_hand(bot, fake, service):
    board = await start(fake, "reentrant", ["g1f3", "g7g6", "f3g5", "a7a6", "g5h7", "g6h7"])
    transcript: list[str] = []
    message = await build(fake, board, fake.alice, "P@a3", transcript)
    assert "drop a Pawn" in transcript[0] and any("drop a Pawn on a3 (P@a3)" in line for line in transcript)
    played = await confirm(fake, message, fake.alice)
    assert "4. alice drops **a pawn on a3**." in played.reply.content
    assert service._live[fake.channel_id].game.history[-1] == "P@a3"


async def test_only_the_player_to_move_may_use_the_builder(bot, fake, service):
    board = await start(fake, "standard")
    select = builder_of(board)["select"]
    for user in (fake.bob, fake.carol):
        refused = await fake.select(select["custom_id"], ["#e2"], user=user, message=board)
        assert [s.type for s in refused.callbacks] == [CHANNEL_MESSAGE]
        assert refused.reply.ephemeral and ("not your turn" in refused.reply.content
                                           or "not playing" in refused.reply.content)
    assert fake.messages[board["id"]]["components"] == board["components"]   # the board is untouched
    message = await build(fake, board, fake.alice, "e2e4")
    refused = await confirm(fake, message, fake.bob)
    assert refused.reply.ephemeral and "not your turn" in refused.reply.content
    assert service._live[fake.channel_id].game.history == []


async def test_a_stale_builder_plays_nothing(bot, fake, service):
    board = await start(fake, "standard")
    message = await build(fake, board, fake.alice, "e2e4")
    await fake.slash("move", {"move": "d2d4"}, user=fake.alice)          # the game moves on
    await fake.slash("move", {"move": "d7d5"}, user=fake.bob)            # alice to move again
    stale = await confirm(fake, message, fake.alice)
    assert stale.reply.ephemeral and "earlier position" in stale.reply.content
    again = await fake.select(builder_of(board)["select"]["custom_id"], ["#g1"], user=fake.alice, message=board)
    assert again.reply.ephemeral and "earlier position" in again.reply.content
    assert service._live[fake.channel_id].game.history == ["d2d4", "d7d5"]


async def test_clear_starts_the_turn_over(bot, fake, service):
    board = await start(fake, "balanced-swap", ["e2e4"])
    message = await build(fake, board, fake.bob, "b8c6", complete=False)
    cleared = await fake.click(builder_of(message)["Clear"]["custom_id"], user=fake.bob, message=message)
    after = cleared.reply.message
    assert set(builder_of(after)) == {"select"}
    assert builder_of(after)["select"]["options"] == builder_of(board)["select"]["options"]


async def test_the_builder_works_after_a_restart(fake):
    store = InMemoryStore()
    async with running_bot(fake, GameService(store, renderer=tiny_png)):
        board = await start(fake, "standard")
        select = builder_of(board)["select"]
        picked = await fake.select(select["custom_id"], ["#g1"], user=fake.alice, message=board)
        halfway = picked.reply.message
    fresh = GameService(store, renderer=tiny_png)       # a new process: nothing in memory
    async with running_bot(fake, fresh):
        message = await build(fake, halfway, fake.alice, "g1f3")
        played = await confirm(fake, message, fake.alice)
        assert "alice plays **Nf3**" in played.reply.content
        assert (await store.open_game(fake.channel_id)).moves == ["g1f3"]
