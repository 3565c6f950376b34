"""Nothing lost, nothing forked: unplayable games set aside, compare-and-set saves, one process
per SQLite file, clear refusals of unusable databases, rollback of every failed write, stored
set-ups, and databases written by an older Kibitz."""
from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import rules
from bot.service import STALE, GameService, UserError
from bot.store import InMemoryStore, SqliteStore, StaleRecord, StoreError

from bot.service import Player

from .conftest import ALICE, BOB, CHANNEL, fake_png



OLD_DB = Path(__file__).parent / "data" / "kibitz-0.1.0.db"   # written by Kibitz 0.1.0
OLD_ALICE, OLD_BOB = Player("101", "alice"), Player("102", "bob")   # the players in that file
OLD_OPEN = {"c-standard": "standard", "c-zoo": "zoo", "c-moderation": "moderation", "c-kingswap": "kingswap"}


@pytest.fixture
def old_db(tmp_path):
    path = tmp_path / "kibitz.sqlite3"
    shutil.copy(OLD_DB, path)
    return path


def tamper(path: Path, sql: str, *args) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(sql, args)


@pytest.mark.asyncio
async def started(service, channel=CHANNEL, slug="standard"):
    await service.challenge(channel, ALICE, BOB, slug)
    await service.accept(channel, BOB)


# -- a database written by an older version ------------------------------------------------------

@pytest.mark.asyncio
async def test_database_written_by_the_previous_version_migrates_and_every_game_replays(old_db):
    store = await SqliteStore.open(old_db)
    service = GameService(store, renderer=fake_png)
    assert await service.restore() == 5            # four games under way and one challenge
    for channel, slug in OLD_OPEN.items():
        record = await store.open_game(channel)
        game = rules.new_game(slug, seed=record.seed, fen=record.start_fen)
        for move in record.moves:
            game.play(move)
        assert game.fen() == record.fen
        assert record.version == 0 and record.rules_version is None
        assert "game #" in (await service.board(channel)).text
    await service.move("c-standard", OLD_BOB, "a7a6")      # old games go on and save
    assert (await store.open_game("c-standard")).version == 1
    await service.accept("c-pending", OLD_BOB)             # an old challenge is accepted
    assert (await store.latest("c-done")).result == "1-0"  # finished games stay finished (bob resigned)
    new_id = (await service.challenge("fresh", OLD_ALICE, OLD_BOB, "zoo")).game_id
    assert new_id == 8                                     # ids go on after the old ones
    await store.close()


# -- defect 1: a game that no longer replays -----------------------------------------------------

@pytest.mark.asyncio
async def test_a_game_that_no_longer_replays_is_set_aside_and_the_bot_starts(old_db, caplog):
    tamper(old_db, "UPDATE games SET moves = ? WHERE channel_id = 'c-standard'",
           json.dumps(["e2e4", "e7e5", "e1e3"]))            # a move a rules fix made illegal
    tamper(old_db, "UPDATE games SET variant = 'retired-variant' WHERE channel_id = 'c-zoo'")
    store = await SqliteStore.open(old_db)
    service = GameService(store, renderer=fake_png)
    assert await service.restore() == 5                    # start-up replays nothing, so nothing fails
    caplog.set_level(logging.ERROR, logger="bot.service")

    with pytest.raises(UserError) as told:
        await service.move("c-standard", OLD_ALICE, "g1f3")
    assert "could not be restored after an update" in str(told.value)
    assert "Game #1 (Standard chess)" in str(told.value)
    assert "No game in this channel" in str(told.value)
    assert any("game 1 " in r.getMessage() and "IllegalMove" in r.getMessage() for r in caplog.records)

    stored = await store.get(1)
    assert stored.status == "suspended" and stored.moves == ["e2e4", "e7e5", "e1e3"]
    assert "IllegalMove" in stored.error
    assert await store.open_game("c-standard") is None     # the channel is free ...
    reply = await service.challenge("c-standard", ALICE, BOB, "standard")
    assert "could not be restored" not in reply.text       # ... and its players were told once

    reply = await service.challenge("c-zoo", ALICE, BOB, "standard")   # the notice rides on a success too
    assert reply.text.startswith("Game #2 (retired-variant) could not be restored")
    assert (await store.get(2)).status == "suspended"
    # the other old games are untouched
    assert "game #3" in (await service.board("c-moderation")).text
    await store.close()


@pytest.mark.asyncio
async def test_unplayable_game_found_by_autocomplete_is_reported_on_the_next_command(old_db):
    tamper(old_db, "UPDATE games SET moves = '[\"a1a8\"]' WHERE channel_id = 'c-kingswap'")
    store = await SqliteStore.open(old_db)
    service = GameService(store, renderer=fake_png)
    assert await service.move_suggestions("c-kingswap", OLD_ALICE, "") == []
    reply = await service.start_puzzle("c-kingswap", OLD_ALICE, "kingswap", seed=1)
    assert "Game #4 (KingSwap!) could not be restored" in reply.text
    await store.close()


@pytest.mark.asyncio
async def test_new_games_record_the_rules_version_they_started_under(service, store):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "standard")
    from importlib.metadata import version
    assert (await store.get(reply.game_id)).rules_version == version("kibitz")


# -- defect 2: compare-and-set, and one process per SQLite file -----------------------------------

@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.asyncio
async def test_two_services_on_one_store_never_fork_a_game(kind, tmp_path):
    store = InMemoryStore() if kind == "memory" else await SqliteStore.open(tmp_path / "k.sqlite3")
    first, second = GameService(store, renderer=fake_png), GameService(store, renderer=fake_png)
    await started(first)
    await second.board(CHANNEL)                            # the second has read the game too
    await first.move(CHANNEL, ALICE, "e2e4")
    await first.move(CHANNEL, BOB, "e7e5")
    with pytest.raises(UserError, match="changed elsewhere"):
        await second.move(CHANNEL, ALICE, "d2d4")          # stale: refused, never an overwrite
    assert (await store.open_game(CHANNEL)).moves == ["e2e4", "e7e5"]
    await second.move(CHANNEL, ALICE, "g1f3")              # it reloaded: the retry works
    with pytest.raises(UserError, match="changed elsewhere"):
        await first.move(CHANNEL, ALICE, "d2d4")           # the first is stale now, in turn
    assert (await store.open_game(CHANNEL)).moves == ["e2e4", "e7e5", "g1f3"]
    await store.close()


@pytest.mark.asyncio
async def test_every_change_raises_the_version_even_when_the_move_count_comes_back(service, store):
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=3)
    versions = [(await store.open_game(CHANNEL)).version]
    move = (await service.move_suggestions(CHANNEL, ALICE))[0]
    await service.move(CHANNEL, ALICE, move)
    versions.append((await store.open_game(CHANNEL)).version)
    await service.undo(CHANNEL, ALICE)
    record = await store.open_game(CHANNEL)
    assert record.moves == [] and record.version > versions[-1] > versions[0]
    await service.resign(CHANNEL, ALICE)
    assert (await store.latest(CHANNEL)).version == record.version + 1

    await started(service, "duel")
    before = (await store.open_game("duel")).version
    await service.draw("duel", ALICE)                      # an offer alone is a change
    assert (await store.open_game("duel")).version == before + 1


@pytest.mark.asyncio
async def test_a_stale_save_writes_nothing(tmp_path):
    store = await SqliteStore.open(tmp_path / "k.sqlite3")
    service = GameService(store, renderer=fake_png)
    await started(service)
    mine, theirs = await store.open_game(CHANNEL), await store.open_game(CHANNEL)
    theirs.moves.append("e2e4")
    await store.save(theirs)
    mine.moves.append("d2d4")
    with pytest.raises(StaleRecord):
        await store.save(mine)
    assert (await store.get(mine.id)).moves == ["e2e4"]
    assert STALE.endswith("Please try again.")
    await store.close()


@pytest.mark.asyncio
async def test_a_second_store_on_the_same_file_is_refused(tmp_path):
    path = tmp_path / "k.sqlite3"
    store = await SqliteStore.open(path)
    with pytest.raises(StoreError, match="Another Kibitz process is already using"):
        await SqliteStore.open(path)
    await store.close()
    again = await SqliteStore.open(path)                   # free once the first has closed
    await again.close()


def run_console(db: Path, *, stdin: str = "", user: str | None = None, cwd: Path | None = None,
                python: str = sys.executable) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    env.update(KIBITZ_DB=str(db), KIBITZ_OUT=str(Path(tempfile.gettempdir()) / "kibitz-test-out"))
    return subprocess.run([python, "-m", "bot", "console"], input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=60, user=user)


def test_a_second_process_on_the_same_file_exits_with_a_sentence(tmp_path):
    db = tmp_path / "k.sqlite3"
    first = subprocess.Popen([sys.executable, "-m", "bot", "console"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env={**os.environ, "KIBITZ_DB": str(db), "DISCORD_TOKEN": ""})
    try:
        assert "Kibitz console" in first.stdout.readline()   # the first holds the file
        second = run_console(db)
        assert second.returncode != 0
        assert "Another Kibitz process is already using" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        first.communicate("/quit\n", timeout=30)


# -- defect 3: unusable database files --------------------------------------------------------------

def test_a_damaged_database_file_exits_at_once_with_one_sentence(tmp_path):
    db = tmp_path / "k.sqlite3"
    db.write_bytes(b"this is not a database " * 500)
    result = run_console(db)          # the 60 s timeout is only a guard: it used to hang for ever
    assert result.returncode != 0
    assert "is not a Kibitz database" in result.stderr and "Traceback" not in result.stderr


def open_as_unprivileged(db: Path, answer) -> None:
    """In a forked child: drop root (root ignores file modes), then try to open the store."""
    import asyncio

    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)
    try:
        store = asyncio.run(SqliteStore.open(db))
        asyncio.run(store.close())
        answer.send("opened")
    except StoreError as exc:
        answer.send(str(exc))


def test_a_read_only_database_is_refused_at_start_up():
    import multiprocessing

    folder = Path(tempfile.mkdtemp(prefix="kibitz-ro-"))
    try:
        db = folder / "k.sqlite3"
        assert run_console(db, stdin="/quit\n").returncode == 0   # created and migrated
        db.chmod(0o444)
        folder.chmod(0o555)
        context = multiprocessing.get_context("fork")
        mine, theirs = context.Pipe()
        child = context.Process(target=open_as_unprivileged, args=(db, theirs))
        child.start()
        child.join(60)
        sentence = mine.recv() if mine.poll() else "no answer"
        assert "read-only" in sentence, sentence
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


@pytest.mark.asyncio
async def test_a_folder_or_a_path_under_a_file_is_refused_with_a_sentence(tmp_path):
    with pytest.raises(StoreError, match="points at a folder"):
        await SqliteStore.open(tmp_path)
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    with pytest.raises(StoreError, match="is a file, not a folder"):
        await SqliteStore.open(plain / "kibitz.sqlite3")


# -- defect 5: start-up does not replay ----------------------------------------------------------

@pytest.mark.asyncio
async def test_start_up_replays_no_game_until_its_channel_is_used(old_db):
    tamper(old_db, "UPDATE games SET moves = '[\"a1a8\"]' WHERE channel_id = 'c-standard'")
    store = await SqliteStore.open(old_db)
    service = GameService(store, renderer=fake_png)
    await service.restore()
    assert (await store.get(1)).status == "active"        # not even looked at yet
    await service.board("c-zoo")
    assert (await store.get(1)).status == "active"        # other channels do not touch it
    with pytest.raises(UserError):
        await service.board("c-standard")
    assert (await store.get(1)).status == "suspended"
    await store.close()


# -- defect 7: failed writes leave memory as the store ---------------------------------------------

class FailingSaves(InMemoryStore):
    fail = False

    async def save(self, record):
        if self.fail:
            raise sqlite3.OperationalError("database or disk is full")
        await super().save(record)


@pytest.mark.asyncio
async def test_failed_writes_in_accept_decline_and_draw_offers_change_nothing():
    store = FailingSaves()
    service = GameService(store, renderer=fake_png)
    await service.challenge(CHANNEL, ALICE, BOB, "standard")
    for call in (lambda: service.accept(CHANNEL, BOB), lambda: service.decline(CHANNEL, BOB)):
        store.fail = True
        with pytest.raises(sqlite3.OperationalError):
            await call()
        store.fail = False
        assert [r.status for r in await store.challenges(CHANNEL)] == ["challenge"]
    await service.accept(CHANNEL, BOB)                     # the retry works
    store.fail = True
    with pytest.raises(sqlite3.OperationalError):
        await service.draw(CHANNEL, ALICE)
    store.fail = False
    assert (await store.open_game(CHANNEL)).draw_offer is None
    reply = await service.draw(CHANNEL, ALICE)             # not "your draw offer already stands"
    assert "offers a draw" in reply.text


@pytest.mark.asyncio
async def test_a_renderer_failure_after_the_commit_still_reports_the_move(store):
    def broken(view, orientation):
        raise OSError("no art")

    service = GameService(store, renderer=broken)
    await started(service)
    reply = await service.move(CHANNEL, ALICE, "e4")
    assert reply.image is None and "alice plays **e4**" in reply.text
    assert (await store.open_game(CHANNEL)).moves == ["e2e4"]


@pytest.mark.asyncio
async def test_a_move_whose_save_fails_is_not_answered_and_changes_nothing():
    store = FailingSaves()
    service = GameService(store, renderer=fake_png)
    await service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white")
    await service.accept(CHANNEL, BOB)
    store.fail = True
    with pytest.raises(sqlite3.OperationalError):
        await service.move(CHANNEL, ALICE, "e4")
    store.fail = False
    assert (await store.open_game(CHANNEL)).moves == []
    reply = await service.move(CHANNEL, ALICE, "e4")        # the same move again, from the position kept
    assert "alice plays **e4**" in reply.text and reply.ply == 1
    assert (await store.open_game(CHANNEL)).moves == ["e2e4"]


@pytest.mark.asyncio
async def test_the_answer_to_a_mating_move_shows_the_finished_game(store):
    service = GameService(store, renderer=fake_png)
    await service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white")
    await service.accept(CHANNEL, BOB)
    for user, move in ((ALICE, "f3"), (BOB, "e5"), (ALICE, "g4")):
        await service.move(CHANNEL, user, move)
    reply = await service.move(CHANNEL, BOB, "Qh4")
    assert reply.finished and reply.builder is None and reply.controls == ("rematch",)
    assert "**bob wins**" in reply.text


# -- defect 8: set-ups are stored ------------------------------------------------------------------

@pytest.mark.asyncio
async def test_two_player_set_ups_store_their_seed_and_start_position(service, store):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "zoo")
    record = await store.get(reply.game_id)
    assert record.seed is not None
    assert record.start_fen == rules.new_game("zoo", seed=record.seed).fen()
    await service.accept(CHANNEL, BOB)
    await service.start_puzzle("solo", ALICE, "kingswap", seed=42)
    assert (await store.open_game("solo")).start_fen == rules.new_game("kingswap", seed=42).fen()
