"""Random sequences of service calls by random players with random arguments (property-based),
on the in-memory store and on SQLite over a temporary file.

Every call answers with a Reply (suggestions: a list of moves) or raises UserError; a refused
call leaves every stored record as it was; after each call the service and a fresh service over
the same store show the same open game in each channel, the same position, the same moves.
"""
from __future__ import annotations

import asyncio
import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import rules
from bot.service import GameService, Player, Reply, UserError
from bot.store import InMemoryStore, SqliteStore

PLAYERS = [Player("1", "alice"), Player("2", "bob"), Player("3", "carol")]
CHANNELS = ["room-1", "room-2"]
FUZZ = settings(max_examples=20, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

CALLS = ["start_puzzle", "challenge", "accept", "decline", "move", "resign", "draw", "undo", "board",
         "move_suggestions"]
# What usually comes next, by the state of the channel's open game, so that games get going and
# get played; any call may still come at any time.
LIKELY_CALLS = {
    None: ["start_puzzle", "challenge", "challenge", "undo"],
    "challenge": ["accept", "accept", "accept", "decline"],
    "active": ["move"] * 12 + ["draw", "draw", "undo", "resign"],
}
GARBAGE_SLUGS = ["", " ", "STANDARD", "Standard chess", " kingswap ", "king swap", "nope", "ｓｔａｎｄａｒｄ",
                 "\x00", "standard\n", "standard; DROP TABLE games", "🙂"]
SLUGS = st.one_of(*[st.sampled_from(sorted(rules.VARIANTS))] * 4, st.sampled_from(GARBAGE_SLUGS), st.text(max_size=12))
GARBAGE_MOVES = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", " ", "e2e4", "e7e5", "Nf3", "O-O", "e8=Q", "a1a1", "z9z9", "resign", "\x00", "e2e4 " * 400,
                     "ｅ２ｅ４", "Kxe1", "undo"]),
)
GAME_IDS = st.one_of(st.none(), st.integers(-1, 12))
SEEDS = st.one_of(st.none(), st.integers(-3, 2**64))


def no_png(view, orientation) -> bytes:
    return b"\x89PNG fuzz"


def ticking_clock():
    ticks = itertools.count()
    return lambda: f"2026-01-01T00:00:{next(ticks):06d}"


async def stored(store) -> list:
    """Every record in the store, by id (ids are handed out one after another from 1)."""
    records, game_id = [], 1
    while (record := await store.get(game_id)) is not None:
        records.append(record)
        game_id += 1
    return records


async def answer(call):
    """What a call shows a user: the reply's substance, or the refusal's sentence."""
    try:
        reply = await call
    except UserError as exc:
        return ("refused", str(exc))
    return ("reply", reply.game_id, reply.text, reply.view, reply.finished)


async def likely_user(store, channel: str) -> Player | None:
    """Who would sensibly act next in the channel: the player to move, or the one challenged,
    as a fresh service sees it (the service under test is left alone)."""
    record = await store.open_game(channel)
    if record is None:
        return None
    seat = 1
    if record.status == "active":
        try:
            turn = (await GameService(store, renderer=no_png).board(channel)).view.turn
        except UserError:
            return None
        seat = 0 if record.solo or turn == rules.WHITE else 1
    return next(p for p in PLAYERS if p.id == record.players[seat][0])


async def step(service: GameService, store, data) -> object:
    """Draw one call with its arguments and make it; returns what it returned."""
    channel = data.draw(st.sampled_from(CHANNELS), label="channel")
    record = await store.open_game(channel)
    likely_calls = LIKELY_CALLS.get(record.status if record else None, CALLS)
    name = data.draw(st.sampled_from(likely_calls * 3 + CALLS), label="call")
    likely = await likely_user(store, channel)
    user = data.draw(st.sampled_from(PLAYERS + [likely] * 6 if likely else PLAYERS), label="user")
    if name == "move":
        legal = await service.move_suggestions(channel, user, limit=None)
        text = data.draw(st.one_of(*[st.sampled_from(legal)] * 4, GARBAGE_MOVES)
                         if legal else GARBAGE_MOVES, label="move")
        return await service.move(channel, user, text)
    if name == "challenge":
        others = [p for p in PLAYERS if p != user]
        opponent = data.draw(st.sampled_from(others * 3 + [user]), label="opponent")
        return await service.challenge(channel, user, opponent, data.draw(SLUGS, label="slug"))
    if name == "start_puzzle":
        slug = data.draw(st.one_of(st.just("kingswap"), SLUGS), label="slug")
        return await service.start_puzzle(channel, user, slug, seed=data.draw(SEEDS, label="seed"))
    if name in ("accept", "decline"):
        return await getattr(service, name)(channel, user, data.draw(GAME_IDS, label="game id"))
    if name == "move_suggestions":
        prefix = data.draw(st.text(max_size=3), label="prefix")
        return await service.move_suggestions(channel, user, prefix, data.draw(st.one_of(st.none(), st.integers(0, 30))))
    if name == "board":
        return await service.board(channel)
    return await getattr(service, name)(channel, user)


async def check_agreement(service: GameService, store) -> None:
    """The service and a fresh one over the same store see the same games, and each stored open
    game replays to its stored position."""
    fresh = GameService(store, renderer=no_png)
    for channel in CHANNELS:
        seen, reloaded = await answer(service.board(channel)), await answer(fresh.board(channel))
        assert seen == reloaded, f"{channel}: the service shows {seen}, a fresh one {reloaded}"
        for user in PLAYERS:
            assert (await service.move_suggestions(channel, user, limit=None)
                    == await fresh.move_suggestions(channel, user, limit=None))
        record = await store.open_game(channel)
        if record is None:
            assert seen[0] == "refused"
            continue
        if seen[0] == "reply":
            assert seen[1] == record.id
        game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
        for move in record.moves:
            game.play(move)
        assert game.fen() == record.fen, f"game {record.id} replays to {game.fen()}, stored {record.fen}"
        if record.status == "active":
            user = next(p for p in PLAYERS if p.id == record.players[0][0])
            assert await service.move_suggestions(channel, user, limit=None) == sorted(game.legal_moves())


async def play_session(store, data) -> None:
    service = GameService(store, renderer=no_png, clock=ticking_clock())
    for _ in range(data.draw(st.integers(20, 60), label="calls")):
        before = await stored(store)
        try:
            result = await step(service, store, data)
        except UserError as exc:
            assert str(exc).strip()
            assert await stored(store) == before, f"refused with {exc!r}, yet the store changed"
            event("refused")
        else:
            assert isinstance(result, (Reply, list)), f"returned {result!r}"
            event("answered")
        await check_agreement(service, store)
    records = await stored(store)
    event(f"games stored: {min(len(records), 5)}")
    event(f"moves stored: {min(sum(len(r.moves) for r in records) // 5 * 5, 30)}+")


@FUZZ
@given(data=st.data())
def test_random_calls_on_the_memory_store_answer_or_refuse_cleanly(data):
    asyncio.run(play_session(InMemoryStore(), data))


async def on_sqlite(data) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "fuzz.sqlite3")
        try:
            await play_session(store, data)
        finally:
            await store.close()


@FUZZ
@given(data=st.data())
def test_random_calls_on_sqlite_answer_or_refuse_cleanly(data):
    asyncio.run(on_sqlite(data))

