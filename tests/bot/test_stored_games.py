"""Games stored by Kibitz 0.2.0 open with today's store and replay to the same positions and endings.

tests/bot/data/kibitz-0.2.0.db was written through the service and SQLite store of 0.2.0 by
tests/bot/stored_games_record.py; kibitz-0.2.0.json beside it says what each game replays to.
"""
from __future__ import annotations

import json
import shutil

import pytest
import pytest_asyncio

import rules
from bot.service import GameService
from bot.store import SqliteStore

from .conftest import fake_png
from .stored_games_record import BLACK, DATABASE, EXPECTED, VARIANTS_OF_0_2_0, WHITE, WRITTEN_AT, replayed

GAMES = json.loads(EXPECTED.read_text())


@pytest_asyncio.fixture
async def store(tmp_path):
    copy = tmp_path / "kibitz.sqlite3"
    shutil.copy(DATABASE, copy)
    store = await SqliteStore.open(copy)   # today's migrations applied
    yield store
    await store.close()


def test_the_stored_games_cover_every_variant_and_kind_of_game():
    assert {game["variant"] for game in GAMES} == set(VARIANTS_OF_0_2_0)
    assert sorted(set(VARIANTS_OF_0_2_0) - set(rules.VARIANTS)) == []   # every one of them is still a game
    assert {game["status"] for game in GAMES} == {"active", "finished", "challenge", "declined"}
    assert {game["kind"] for game in GAMES} >= {"checkmate", "goal", "solved", "failed", "resignation", "agreement"}
    assert {game["variant"] for game in GAMES if game["drops"]} >= {"reentrant", "tyrant", "donnybrook"}
    assert sum(game["parts"] for game in GAMES) > 100


def test_a_variant_added_since_0_2_0_needs_no_stored_game(monkeypatch):
    from tests.rules.king_of_the_hill import VARIANT
    monkeypatch.setitem(rules.VARIANTS, VARIANT.slug, VARIANT.info())
    test_the_stored_games_cover_every_variant_and_kind_of_game()


@pytest.mark.asyncio
async def test_every_stored_game_replays_to_its_position_and_ending(store):
    for expected in GAMES:
        record = await store.get(expected["id"])
        where = f"game {expected['id']} ({expected['variant']})"
        assert (record.variant, record.status, record.fen, record.result, record.reason, record.score,
                len(record.moves)) == (expected["variant"], expected["status"], expected["fen"], expected["result"],
                                       expected["reason"], expected["score"], expected["plies"]), where
        assert record.ending == expected["kind"], where   # migration 006 read it once from the result and reason
        game = replayed(record)
        assert game.fen() == expected["fen"], where
        outcome = game.outcome
        if expected["ended"] == "rules":
            assert outcome is not None, where
            assert (outcome.result, outcome.reason, outcome.score, outcome.kind) == (
                expected["result"], expected["reason"], expected["score"], expected["kind"]), where
        else:   # in play, or ended by a player (resigned, agreed): the rules see a game going on
            assert outcome is None, where
        if expected["ended"] == "player":   # the service rebuilds such an ending from the record, its kind too
            assert record.outcome.kind == expected["kind"], where


@pytest.mark.asyncio
async def test_the_stored_games_go_on_under_todays_service(store):
    service = GameService(store, renderer=fake_png, timer=lambda: WRITTEN_AT)   # the challenge has not expired
    open_games = [game for game in GAMES if game["status"] in ("active", "challenge")]
    assert await service.restore() == len(open_games)
    for expected in open_games:
        if expected["status"] == "active":
            reply = await service.board(expected["channel"])
            assert "could not be restored" not in reply.text
        assert (await store.get(expected["id"])).status == expected["status"], expected["channel"]
    played = next(game for game in GAMES if game["channel"] == "balanced-swap-playing")
    game = replayed(await store.get(played["id"]))
    move = sorted(game.legal_moves())[0]
    await service.move("balanced-swap-playing", WHITE if game.turn == rules.WHITE else BLACK, move)
    assert (await store.get(played["id"])).moves[-1] == move
    await service.accept("waiting", BLACK)
    assert (await store.open_game("waiting")).status == "active"
