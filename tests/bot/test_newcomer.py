"""What a newcomer meets first: /undo in a game of two, PGN of puzzles and unusual starts, the console's
small answers, who plays White, the variants list, and a solved puzzle's place on the board after /undo."""
import io

import pytest

import rules
from bot.console import Console
from bot.service import UserError

from .conftest import ALICE, BOB, CHANNEL

pytestmark = pytest.mark.asyncio


async def started(service, slug="standard"):
    reply = await service.challenge(CHANNEL, ALICE, BOB, slug, colour="white")
    await service.accept(CHANNEL, BOB)
    return reply.game_id


async def pgn_of(service) -> str:
    return (await service.export(CHANNEL)).image.decode()


# -- /undo in a game of two --------------------------------------------------------------------
async def test_undo_in_a_two_player_game_points_to_takeback(service):
    await started(service)
    await service.move(CHANNEL, ALICE, "e4")
    with pytest.raises(UserError) as refused:
        await service.undo(CHANNEL, ALICE)
    assert "`/takeback` asks your opponent" in str(refused.value)


# -- PGN ---------------------------------------------------------------------------------------
async def test_pgn_of_a_game_in_play_has_no_final_position(service):
    await started(service, "zoo")
    await service.move(CHANNEL, ALICE, "e4")
    text = await pgn_of(service)
    assert "Final position" not in text and text.rstrip().endswith("1. e4 *")


async def test_pgn_of_a_finished_game_keeps_its_final_position(service):
    await started(service, "zoo")
    await service.resign(CHANNEL, BOB)
    assert "{Final position: " in await pgn_of(service)


async def test_pgn_numbers_a_puzzles_turns_one_by_one(service):
    await service.start_puzzle(CHANNEL, ALICE, "safe-passage")
    for _ in range(3):
        await service.move(CHANNEL, ALICE, (await service.move_suggestions(CHANNEL, ALICE, ""))[0])
    moves = (await pgn_of(service)).split("\n\n", 1)[1].split()
    assert [word for word in moves if word.endswith(".")] == ["1.", "2.", "3."]


async def test_pgn_of_reentrant_names_its_start(service):
    await started(service, "reentrant")
    text = await pgn_of(service)
    start = rules.new_game("reentrant").fen()
    assert '[SetUp "1"]' in text and f'[FEN "{start}"]' in text


async def test_pgn_of_a_variant_starting_from_the_usual_array_has_no_fen(service):
    await started(service, "tyrant")
    assert "[FEN " not in await pgn_of(service)
