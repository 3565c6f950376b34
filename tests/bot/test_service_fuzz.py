"""Random sequences of service calls by random players with random arguments (property-based),
on the in-memory store and on SQLite over a temporary file.

Every call answers with a Reply (suggestions: a list of moves) or raises UserError; a refused
call leaves every stored record as it was. What the service keeps in memory never differs from
the store: each call is also made on a fresh service over a copy of the store as it was before
the call, and both must answer alike and leave the same records; after each call the service and
a fresh service over the same store show the same open game in each channel, the same position,
the same moves. When a write fails, nothing changes, in the store or in memory: the same call
made again answers as a fresh service would.
"""
from __future__ import annotations

import asyncio
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

import rules
from bot.service import GameService, Player, Reply, UserError
from bot.store import GameRecord, InMemoryStore, SqliteStore

PLAYERS = [Player("1", "alice"), Player("2", "bob"), Player("3", "carol")]
CHANNELS = ["room-1", "room-2"]
FUZZ = settings(max_examples=15, deadline=None, derandomize=True, database=None,
                phases=[Phase.explicit, Phase.generate, Phase.shrink],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

CALLS = ["start_puzzle", "challenge", "accept", "decline", "move", "resign", "draw", "undo", "board",
         "move_suggestions"]
# What usually comes next, by the state of the channel's open game, so that games get going and
# get played; any call may still come at any time.
LIKELY_CALLS = {
    None: ["start_puzzle", "challenge", "challenge", "undo"],
    "challenge": ["accept", "accept", "accept", "decline"],
    "active": ["move"] * 12 + ["draw", "undo"],
}
GARBAGE_SLUGS = ["", " ", "STANDARD", "Standard chess", " kingswap ", "king swap", "nope", "ｓｔａｎｄａｒｄ",
                 "\x00", "standard\n", "standard; DROP TABLE games", "🙂"]
SLUGS = st.one_of(*[st.sampled_from(sorted(rules.VARIANTS))] * 4, st.sampled_from(GARBAGE_SLUGS),
                  st.text(max_size=12))
GARBAGE_MOVES = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["", " ", "e2e4", "e7e5", "Nf3", "O-O", "e8=Q", "a1a1", "z9z9", "resign", "\x00", "e2e4 " * 400,
                     "ｅ２ｅ４", "Kxe1", "undo"]),
)
GAME_IDS = st.one_of(st.none(), st.integers(-1, 12))
SEEDS = st.one_of(st.none(), st.integers(-3, 2**64))
# What a game is, as the service writes it (a store may add bookkeeping fields of its own).
GAME_FIELDS = ("id", "variant", "channel_id", "players", "fen", "status", "guild_id", "seed", "start_fen",
               "moves", "result", "reason", "ending", "score", "draw_offer", "created_at", "updated_at")


def no_png(view, orientation) -> bytes:
    return b"\x89PNG fuzz"


class Clock:
    """The time every service reads, as text (`clock`) and as Unix time for deadlines (`seconds`):
    moved on by the test between calls, so that a service and its fresh twin stamp the same call
    with the same time, and a deadline never differs by the second the real clock ticked between them."""

    def __init__(self) -> None:
        self.now, self.unix = "", 0.0

    def __call__(self) -> str:
        return self.now

    def seconds(self) -> float:
        return self.unix

    def set(self, number: int) -> None:
        """The time of call `number`: that many seconds after 2026-01-01 00:00 UTC."""
        self.now = f"2026-01-01T00:{number // 60:02d}:{number % 60:02d}+00:00"
        self.unix = 1_767_225_600.0 + number


class WriteFailed(Exception):
    """The disk said no (stands in for a full disk or an I/O error)."""


class FailingStore:
    """Wraps a store; when armed, its next write fails before anything is written."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.fail_next_write = False

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    async def _write(self, method: str, record: GameRecord):
        if self.fail_next_write:
            self.fail_next_write = False
            raise WriteFailed("disk I/O error")
        return await getattr(self.inner, method)(record)

    async def create(self, record: GameRecord) -> int:
        return await self._write("create", record)

    async def save(self, record: GameRecord) -> None:
        await self._write("save", record)


async def stored(store) -> list[GameRecord]:
    """Every record in the store, by id (ids are handed out one after another from 1)."""
    records, game_id = [], 1
    while (record := await store.get(game_id)) is not None:
        records.append(record)
        game_id += 1
    return records


def games(records: list[GameRecord]) -> list[tuple]:
    return [tuple(getattr(r, name) for name in GAME_FIELDS) for r in records]


async def copy_of(records: list[GameRecord]) -> InMemoryStore:
    copy = InMemoryStore()
    for record in records:
        record = record.copy()
        await copy.create(record)
    assert games(await stored(copy)) == games(records)
    return copy


@dataclass
class Call:
    name: str
    channel: str
    user: Player
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    async def on(self, service: GameService, seed: int):
        random.seed(seed)        # a puzzle without a seed draws one: the same for service and twin
        return await getattr(service, self.name)(self.channel, *self.args, **self.kwargs)


async def answer(call) -> tuple:
    """What a call shows a user: the reply's substance, the suggestions, or the refusal's sentence."""
    try:
        result = await call
    except UserError as exc:
        assert str(exc).strip(), "a refusal must say why"
        return ("refused", str(exc))
    if isinstance(result, list):
        return ("suggestions", result)
    assert isinstance(result, Reply), f"returned {result!r}"
    return ("reply", result.game_id, result.text, result.view, result.finished, result.ephemeral,
            result.challenge, result.image is not None)


async def likely_user(service: GameService, store, channel: str) -> Player | None:
    """Who would sensibly act next in the channel: the player to move, or the one challenged."""
    record = await store.open_game(channel)
    if record is None:
        return None
    seat = 1
    if record.status == "active":
        try:
            view = (await service.board(channel)).view
        except UserError:
            return None
        assert view is not None
        turn = view.turn
        seat = 0 if record.solo or turn == rules.WHITE else 1
    return next(p for p in PLAYERS if p.id == record.players[seat][0])


async def draw_call(service: GameService, store, data) -> Call:
    """Draw one call with its arguments, looking at the game through `service` (a fresh one)."""
    channel = data.draw(st.sampled_from(CHANNELS), label="channel")
    record = await store.open_game(channel)
    likely_calls = LIKELY_CALLS.get(record.status if record else None, CALLS)
    name = data.draw(st.sampled_from(likely_calls * 3 + CALLS), label="call")
    likely = await likely_user(service, store, channel)
    user = data.draw(st.sampled_from([likely] * 6 + PLAYERS if likely else PLAYERS), label="user")
    if name == "move":
        legal = await service.move_suggestions(channel, user, limit=None)
        text = data.draw(st.one_of(*[st.sampled_from(legal)] * 4, GARBAGE_MOVES) if legal else GARBAGE_MOVES,
                         label="move")
        return Call(name, channel, user, (user, text))
    if name == "challenge":
        others = [p for p in PLAYERS if p != user]
        opponent = data.draw(st.sampled_from(others * 3 + [user]), label="opponent")
        return Call(name, channel, user, (user, opponent, data.draw(SLUGS, label="slug")))
    if name == "start_puzzle":
        slug = data.draw(st.one_of(st.just("kingswap"), SLUGS), label="slug")
        return Call(name, channel, user, (user, slug), {"seed": data.draw(SEEDS, label="seed")})
    if name in ("accept", "decline"):
        return Call(name, channel, user, (user, data.draw(GAME_IDS, label="game id")))
    if name == "move_suggestions":
        prefix = data.draw(st.text(max_size=3), label="prefix")
        limit = data.draw(st.one_of(st.none(), st.integers(0, 30)), label="limit")
        return Call(name, channel, user, (user, prefix, limit))
    if name == "board":
        return Call(name, channel, user)
    return Call(name, channel, user, (user,))


async def check_agreement(service: GameService, store) -> None:
    """The service and a fresh one over the same store see the same games, and each stored open
    game replays to its stored position."""
    fresh = GameService(store, renderer=no_png, clock=service.clock, timer=service.timer)
    for channel in CHANNELS:
        seen, reloaded = await answer(service.board(channel)), await answer(fresh.board(channel))
        assert seen == reloaded, f"{channel}: the service shows {seen}, a fresh one {reloaded}"
        assert (await service.move_suggestions(channel, PLAYERS[0], limit=None)
                == await fresh.move_suggestions(channel, PLAYERS[0], limit=None))
        record = await store.open_game(channel)
        if record is None:   # nothing in play: no game, or the final board of the channel's last game
            assert seen[0] == "refused" or (seen[0] == "reply" and seen[4]), seen
            continue
        if seen[0] == "reply":
            assert seen[1] == record.id
        game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
        for move in record.moves:
            game.play(move)
        assert game.fen() == record.fen, f"game {record.id} replays to {game.fen()}, stored {record.fen}"
        if record.status == "active":
            seat = record.players[0 if game.turn == rules.WHITE else -1][0]   # suggestions go to the player to move
            user = next(p for p in PLAYERS if p.id == seat)
            assert await service.move_suggestions(channel, user, limit=None) == sorted(game.legal_moves())


async def play_session(store, data, failing: FailingStore | None = None) -> None:
    """Random calls, each also made on a fresh twin. With `failing`, every call is first made with
    its write failing: that must change nothing, and the call is then made again."""
    clock = Clock()
    service = GameService(failing or store, renderer=no_png, clock=clock, timer=clock.seconds)
    for number in range(data.draw(st.integers(20, 60), label="calls")):
        clock.set(number)
        before = await stored(store)
        twin_store = await copy_of(before)
        twin = GameService(twin_store, renderer=no_png, clock=clock, timer=clock.seconds)
        call = await draw_call(twin, twin_store, data)
        if failing is not None:
            failing.fail_next_write = True
            try:
                await answer(call.on(service, number))
            except WriteFailed:
                assert await stored(store) == before, f"{call.name} failed to write, yet the store changed"
                event(f"failed write: {call.name}")
            finally:
                failing.fail_next_write = False
        got = await answer(call.on(service, number))
        expected = await answer(call.on(twin, number))
        assert got == expected, f"{call}: the service answered {got}, a fresh one {expected}"
        after = await stored(store)
        assert games(after) == games(await stored(twin_store)), f"{call}: stored differently than by a fresh service"
        if got[0] == "refused":
            assert after == before, f"{call.name} was refused ({got[1]}), yet the store changed"
        event(got[0])
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


@settings(FUZZ, max_examples=10)   # the memory store's test makes the same calls, on 15 sessions
@given(data=st.data())
def test_random_calls_on_sqlite_answer_or_refuse_cleanly(data):
    asyncio.run(on_sqlite(data))


@settings(FUZZ, max_examples=14, phases=[Phase.explicit, Phase.generate])    # no shrinking: stays quick
@given(data=st.data())
def test_a_failed_write_changes_nothing_in_the_store_or_in_memory(data):
    store = InMemoryStore()
    asyncio.run(play_session(store, data, failing=FailingStore(store)))
