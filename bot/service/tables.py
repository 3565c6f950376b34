"""The unit of work: the games held in memory, one lock per channel, and the store behind them.

A game is loaded (revived from its moves) when its channel is first used, set aside when it no
longer replays, and saved with a compare-and-set, read back when the store's answer was lost.
`Tables` is the base of every part of the service: it holds the shared state, and declares (for
type checkers) the helpers one part calls in another."""
from __future__ import annotations

import asyncio
import functools
import logging
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Awaitable, Callable, NoReturn, TypeVar

import rules
from rules import Game

from . import seats as computer
from ..settings import ServerSettings
from ..store import ChannelBusy, GameRecord, GameStatus, GameStore, SetAside, StaleRecord, holds
from ..timing import CHALLENGE_TTL, MOVE_DEADLINE
from .types import STALE, UNSURE, DueEvent, DueSignal, Headline, Line, Player, Reply, Thinker, Unsure, UserError

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _default_renderer(view, orientation: str) -> bytes:
    import render

    return render.board_png(view, orientation=orientation)


@dataclass
class Live:
    """A game held in memory: its stored record and, once accepted, the game replayed from it."""
    record: GameRecord
    game: Game | None   # None while a challenge waits

    @property
    def playing(self) -> Game:
        """The game of an accepted record (callers have checked it is not a waiting challenge)."""
        if self.game is None:
            raise UserError("The challenge has not been accepted yet.")
        return self.game


_Call = TypeVar("_Call", bound=Callable[..., Awaitable[Reply]])


def tells_notices(method: _Call) -> _Call:
    """A channel command also carries, once, the news that the channel's old game was set aside
    (it could not be restored after an update), whether the command succeeds or not."""

    @functools.wraps(method)
    async def wrapper(self: Tables, channel: str, *args, **kwargs) -> Reply:
        try:
            reply = await method(self, channel, *args, **kwargs)
        except UserError as exc:
            notice = self._notices.pop(channel, None)
            if notice:
                raise UserError(f"{notice}\n{exc}") from None
            raise
        notice = self._notices.pop(channel, None)
        if notice:
            reply.lines.insert(0, (notice,))
        return reply

    return wrapper  # type: ignore[return-value]


class Tables:
    """The state every part of the service shares, and the unit of work over it."""

    def __init__(self, store: GameStore, *, renderer: Callable | None = None,
                 clock: Callable[[], str] = _now, timer: Callable[[], float] = time.time,
                 challenge_ttl: float = CHALLENGE_TTL, move_deadline: float | None = MOVE_DEADLINE) -> None:
        self.store = store
        self.renderer = renderer or _default_renderer
        self.clock = clock                  # ISO time for the records
        self.timer = timer                  # Unix time for deadlines
        self.challenge_ttl = challenge_ttl
        self.move_deadline = move_deadline  # default seconds per move; None: no deadlines
        self._live: dict[str, Live] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._notices: dict[str, str] = {}   # channel -> news of a game set aside, told once
        self._deals: dict[tuple[str, str], rules.DailyDeal] = {}   # (slug, day) -> the day's deal, worked out once
        # game id -> (the record a deadline's write would have stored, when, its event): the store
        # could not say whether it landed; the next round reads it back (clock.py)
        self._unsure_due: dict[int, tuple[GameRecord, float, Callable[[], Awaitable[DueEvent]]]] = {}
        self.deadlines = DueSignal()          # wakes the scheduler when a save brings a deadline nearer
        self.thinker: Thinker | None = None   # the computer's runner, once started: woken by a save leaving it to move
        store.on_set_aside = self._set_aside   # a row the store could not read: free its channel here too

    def _lock(self, channel: str) -> asyncio.Lock:
        return self._locks.setdefault(channel, asyncio.Lock())

    async def _load(self, channel: str) -> Live | None:
        live = self._live.get(channel)
        if live is not None and live.record.playing:
            return live
        record = await self.store.open_game(channel)
        if record is None:
            self._live.pop(channel, None)
            return None
        try:
            # replaying a long game takes a while (Balanced Swap: ~3 ms a turn): keep it off the loop
            live = await asyncio.to_thread(self._revive, record)
        except Exception as exc:   # a rules change made it unplayable, or its variant is gone
            await self._suspend(record, exc)
            self._live.pop(channel, None)
            return None
        if live.game is not None and live.game.outcome is not None:   # its moves end it, yet it was stored in play
            log.warning("game %s: its stored moves end the game, so it is finished now", record.id)
            try:
                await self._commit(live, record.copy(), undo=lambda: None)
            finally:
                self._live.pop(channel, None)
            return None
        self._live[channel] = live
        return live

    def _revive(self, record: GameRecord) -> Live:
        if record.status == GameStatus.CHALLENGE:
            return Live(record, None)
        game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
        for move in record.moves:
            game.play(move)
        if game.fen() != record.fen:
            log.warning("game %s: replayed FEN %s differs from stored %s", record.id, game.fen(), record.fen)
        if record.status == GameStatus.FINISHED and record.result and game.outcome is None:
            game.finish(record.outcome)
        return Live(record, game)

    async def _active(self, channel: str) -> Live:
        live = await self._load(channel)
        if live is None or live.game is None:
            await self._no_game(channel)
        return live

    async def _suspend(self, record: GameRecord, error: Exception) -> None:
        """Set aside a game that cannot be replayed: kept with its moves and error, no longer the
        channel's open game; its players hear of it on the channel's next command."""
        log.error("game %s (%s, channel %s, rules %s) cannot be restored and is set aside: %s: %s",
                  record.id, record.variant, record.channel_id, record.rules_version or "before 0.2.0",
                  type(error).__name__, error)
        record.status, record.error = GameStatus.SUSPENDED, f"{type(error).__name__}: {error}"
        record.updated_at = self.clock()
        try:
            await self.store.save(record)
        except StaleRecord:
            return   # changed elsewhere meanwhile: the next use reads it again
        self._tell_set_aside(record.channel_id, self._id(record), record.variant,
                             "could not be restored after an update to Kibitz", "moves")

    def _set_aside(self, row: SetAside) -> None:
        """The store set aside a game whose row it could not read (and logged it): forget it here,
        and tell its players on the channel's next command, where it was in play there."""
        live = self._live.get(row.channel_id)
        if live is not None and live.record.id == row.id:
            self._live.pop(row.channel_id, None)
        if row.status == GameStatus.ACTIVE:
            self._tell_set_aside(row.channel_id, row.id, row.variant, "could not be read from the database", "data")

    def _tell_set_aside(self, channel: str, game_id: int, variant: str, why: str, kept: str) -> None:
        info = rules.VARIANTS.get(variant)
        self._notices[channel] = (f"Game #{game_id} ({info.name if info else variant}) {why}, so it has been "
                                  f"set aside with its {kept} kept. This channel is free for a new game.")

    async def _ended_here(self, channel: str) -> GameRecord | None:
        """The last game played in this channel or thread, if it has ended (nothing in play here)."""
        record = await self.store.latest(channel, (GameStatus.FINISHED, GameStatus.ABORTED))
        if record is None or record.channel_id != channel:
            return None
        return record

    async def _no_game(self, channel: str) -> NoReturn:
        """Refuse a command that needs a game in play where there is none, saying what there is."""
        waiting = await self.store.challenges(channel)
        if waiting:
            record = waiting[-1]
            challenger = next((n for p, n in record.players if p == record.challenger_id), "Someone")
            other = next((n for p, n in record.players if p and p != record.challenger_id), "anyone")
            raise UserError(f"The challenge has not been accepted yet: {challenger}'s challenge to {other} "
                            f"is waiting for an answer.")
        ended = await self._ended_here(channel)
        if ended is not None:
            raise UserError("This game is over. ", *self._ended_words(ended), " Start another with /challenge "
                            "or /puzzle; /board shows the final position.")
        raise UserError("No game in this channel. Start one with /puzzle or /challenge; /games links the games "
                        "in play, each in its own thread.")

    async def _refuse_if_busy(self, channel: str) -> None:
        if await self._load(channel) is not None:
            raise UserError("This channel already has a game. Finish it (or /resign) first, or use another channel or thread.")

    def _variant(self, slug: str) -> rules.VariantInfo:
        key = (slug or "").strip().lower()
        info = rules.VARIANTS.get(key)
        if info is None:
            by_name = [i for i in rules.VARIANTS.values() if i.name.lower() == key]
            if by_name:
                return by_name[0]
            raise UserError(f"I don't know a variant called {slug!r}. /variants lists them.")
        return info

    def _seat(self, record: GameRecord, user: Player) -> str:
        for index, (pid, _) in enumerate(record.players):
            if pid == user.id:
                return rules.WHITE if index == 0 else rules.BLACK
        raise UserError("You are not playing in this game.")

    def _require_turn(self, record: GameRecord, game: Game, user: Player) -> None:
        colour = self._seat(record, user)
        if not record.solo and game.turn != colour:
            raise UserError("It is not your turn.")

    @staticmethod
    def _require_game(record: GameRecord, game_id: int | None) -> None:
        if game_id is not None and record.id != game_id:
            raise UserError("That board is from an earlier game: nothing was done. Use the newest board (or /board).")

    @staticmethod
    def _id(record: GameRecord) -> int:
        if record.id is None:
            raise ValueError("the record has not been stored yet")
        return record.id

    def _settle(self, record: GameRecord, game: Game) -> None:
        """Copy the game's state into the record (position, result)."""
        record.fen = game.fen()
        outcome = game.outcome
        if outcome is not None:
            record.status = GameStatus.FINISHED
            record.result, record.reason, record.score = outcome.result, outcome.reason, outcome.score
            record.ending = outcome.kind
            record.due_at, record.draw_offer, record.takeback_offer = None, None, None
        else:
            record.status = GameStatus.ACTIVE if record.status == GameStatus.FINISHED else record.status
            record.result = record.reason = record.score = record.ending = None
            # the clock of the player to move starts now (two-player games with a deadline; never the computer's)
            record.due_at = None if computer.to_move(record.players, record.fen) else self._first_due(record)
            record.reminded = False

    async def _commit(self, live: Live, before: GameRecord, undo: Callable[[], object],
                      settled: bool = False) -> None:
        """Write the game's new state; if the write fails, put game and record back as they were.
        `settled`: the record already holds the game's state (a turn settles it in the worker)."""
        if not settled:
            self._settle(live.record, live.playing)
        await self._save(live, before, undo)
        if not live.record.is_open:
            self._live.pop(live.record.channel_id, None)
            await self._rate(live.record)
        if live.record.daily:
            await self._daily_after_commit(live.record)

    async def _save(self, live: Live, before: GameRecord, undo: Callable[[], object] | None = None) -> None:
        """Compare-and-set the record. On any failure memory goes back to what the store holds:
        the game is undone and the record restored; a stale record (changed by another writer)
        is dropped from memory so the next command reads the stored one."""
        record = live.record
        record.updated_at = self.clock()
        try:
            await self._write(record)
        except StaleRecord:
            if undo is not None:
                undo()
            self._live.pop(record.channel_id, None)
            raise UserError(STALE) from None
        except BaseException as error:
            if undo is not None:
                undo()
            live.record = before
            if isinstance(error, UserError) or not isinstance(error, Exception):   # unknown: read the store next
                self._live.pop(before.channel_id, None)
            elif before.playing:
                self._live[before.channel_id] = live
            raise
        self.deadlines.note(record.due_at)
        self._wake_computer(record)

    def _wake_computer(self, record: GameRecord) -> None:
        """Tell the computer's runner (if one runs) that the computer is to move in this game."""
        if self.thinker is not None and record.playing and computer.to_move(record.players, record.fen):
            self.thinker.wake(self._id(record))

    async def _create(self, record: GameRecord) -> None:
        async def created() -> bool:   # the row, made just now, is found by its fields (a retry makes no second)
            found = [await self.store.open_game(record.channel_id)] if record.playing else \
                await self.store.challenges(record.home_channel_id or record.channel_id)
            record.id = next((r.id for r in found if r is not None and holds(r, record)), None)
            return record.id is not None

        try:
            await self._confirmed(self.store.create(record), created, f"new game in {record.channel_id}")
        except ChannelBusy:
            raise UserError("This channel already has a game.") from None
        self.deadlines.note(record.due_at)
        self._wake_computer(record)

    async def _write(self, record: GameRecord) -> None:
        """store.save(record), also when the store's answer is lost after the commit."""
        wrote = replace(record, version=record.version + 1)

        async def saved() -> bool:
            if not holds(await self.store.get(self._id(record)), wrote):
                return False
            record.version = wrote.version   # as the store does on an answered save
            return True

        await self._confirmed(self.store.save(record), saved, f"game {record.id}", written=wrote)

    async def _confirmed(self, write: Awaitable[object], landed: Callable[[], Awaitable[bool]], what: str,
                         written: GameRecord | None = None) -> None:
        """Await a write. An error other than a refusal (StaleRecord, ChannelBusy) may have come
        after the commit (a connection cut before the answer): then `landed()` reads the store.
        Stored: carry on as if answered. Not stored: raise the error. Cannot tell: Unsure, carrying `written`."""
        try:
            await write
        except (StaleRecord, ChannelBusy):
            raise
        except Exception as error:
            try:
                stored = await landed()
            except Exception:
                log.exception("%s: could not read back a write that failed with %r", what, error)
                raise Unsure(UNSURE, written) from error
            if not stored:
                raise
            log.warning("%s: the write was stored, though its answer was lost (%r)", what, error)

    async def restore(self) -> int:
        """How many unfinished games wait in the store (after a restart). Nothing is replayed
        here: a game is revived when its channel is first used, so start-up does not grow with
        the number of open games, and one game that no longer replays stops nothing else."""
        return await self.store.count_open()

    async def game_record(self, game_id: int) -> GameRecord | None:
        """A copy of a stored game or challenge, as it is now (for front ends that show it)."""
        return await self.store.get(game_id)

    async def game_stored_in(self, channel: str) -> bool:
        """Whether the store holds a game played in `channel` (True when it cannot say): a front
        end never removes a thread made for a game while this holds, whatever an error said."""
        try:
            return await self.store.latest(channel) is not None
        except Exception:
            log.exception("could not tell whether a game is stored in %s", channel)
            return True

    async def has_game(self, channel: str) -> bool:
        """Whether a game is in play in `channel` (a daily needs a free thread or DM)."""
        async with self._lock(channel):
            live = await self._load(channel)
            return live is not None and live.game is not None

    if TYPE_CHECKING:   # helpers the other parts of the service define (bot/service/__init__.py composes them)
        async def _board_reply(self, record: GameRecord, game: Game, headline: Headline) -> Reply: ...
        def _compose_board(self, record: GameRecord, game: Game, headline: Headline) -> Reply: ...
        def _ended_words(self, record: GameRecord) -> Line: ...
        async def _final_board(self, record: GameRecord) -> Reply: ...
        def _first_due(self, record: GameRecord) -> float | None: ...
        @classmethod
        def deadline_of(cls, record: GameRecord) -> float | None: ...
        async def server_settings(self, guild: str | None) -> ServerSettings: ...
        async def check_start(self, guild: str | None, slug: str, players: int) -> rules.VariantInfo: ...
        async def _ping_next(self, reply: Reply, record: GameRecord, game: Game) -> Reply: ...
        async def _ping_member(self, reply: Reply, pid: str) -> Reply: ...
        async def _ping_others(self, reply: Reply, record: GameRecord, actor: str | None) -> Reply: ...
        async def _rate(self, record: GameRecord) -> None: ...
        async def _recover_daily_results(self, day: str, variant: str, guild: str) -> None: ...
        async def _daily_after_commit(self, record: GameRecord) -> None: ...
        def _with_builder(self, reply: Reply, record: GameRecord, game: Game) -> Reply: ...
        async def _challenge_computer(self, channel: str, user: Player, slug: str, guild: str | None, colour: str,
                                      level: int | None, play_in: str | None, days: int | None,
                                      rematch_of: int | None = None) -> Reply: ...
        async def check_computer(self, guild: str | None, user: Player, slug: str,
                                 level: int | None = None) -> rules.VariantInfo: ...
        async def _computer_draw(self, live: Live, user: Player) -> Reply: ...
        async def _claim_draw(self, live: Live, before: GameRecord, claim: rules.Outcome, claimant: Player) -> Reply: ...
        async def _computer_takeback(self, live: Live, user: Player) -> Reply: ...
        @staticmethod
        def _plays_computer(record: GameRecord) -> bool: ...
