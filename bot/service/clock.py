"""Deadlines: challenges that expire, reminders when a quarter of a move's time is left, games
lost on time. The scheduler (bot/scheduler.py) asks for what is due and delivers it."""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

import rules
from rules import Ending, Outcome

from ..store import GameRecord, GameStatus, holds
from ..timing import duration
from .tables import Live, Tables
from .types import DueEvent, Mark, Player, Reply, Unsure, UserError, Who

log = logging.getLogger(__name__)


class Clock(Tables):
    """What deadlines bring about."""

    REMIND_SHARE = 0.25   # the player to move is reminded when this share of their time is left
    DUE_PAGE = 100   # due records read at a time

    def _first_due(self, record: GameRecord) -> float | None:
        """The first due_at of a move's clock: the reminder's time (see `deadline_of`)."""
        if not record.move_seconds or record.solo:
            return None
        return self.timer() + record.move_seconds * (1 - self.REMIND_SHARE)

    @classmethod
    def deadline_of(cls, record: GameRecord) -> float | None:
        """When the player to move runs out of time. While a game goes on, due_at is the next
        thing due: the reminder's time until the reminder is sent, then the deadline itself."""
        if record.status != GameStatus.ACTIVE or record.due_at is None or record.reminded or not record.move_seconds:
            return record.due_at
        return record.due_at + record.move_seconds * cls.REMIND_SHARE

    async def next_due(self, after: float | None = None) -> float | None:
        """The earliest stored deadline (later than `after`, if given), whoever's guild it is; without
        `after`, a deadline's write the store could not confirm is due again from when it was made."""
        stored = await self.store.next_due(after)
        unsure = [when for _, when, _ in self._unsure_due.values()] if after is None else []
        return min([stored, *unsure] if stored is not None else unsure, default=None)

    async def due_events(self, now: float | None = None,
                         owns: Callable[[str | None], bool] | None = None) -> list[DueEvent]:
        """Carry out what is due by `now` (default: the timer) in the guilds `owns` accepts:
        expire challenges, remind players, end games on time. Each is a compare-and-set on the
        record, so a move made meanwhile, or another process, wins and nothing fires twice."""
        now = self.timer() if now is None else now
        events = await self._landed_meanwhile()
        for record in await self._due_here(now, owns):
            try:
                event = await (self._expire(record) if record.status == GameStatus.CHALLENGE else self._clock_due(record, now))
            except UserError:   # changed meanwhile (a move, an answer, another process): nothing fired;
                continue        # or the store could not say (Unsure): the next round reads it back
            except Exception:
                log.exception("could not carry out the deadline of game %s", record.id)
                continue
            if event is not None:
                events.append(event)
        return events

    async def _after_save(self, save: Awaitable[None], event: Callable[[], Awaitable[DueEvent]]) -> DueEvent:
        """`event()` once its `save` is stored. Where the store cannot say whether it was, the record
        that save wrote is kept, and `event()` comes in the round that reads it back stored."""
        try:
            await save
        except Unsure as unsure:
            if unsure.written is not None:
                self._unsure_due[self._id(unsure.written)] = (unsure.written, self.timer(), event)
            raise
        return await event()

    async def _landed_meanwhile(self) -> list[DueEvent]:
        """The events of deadline writes the store could not confirm, where it now holds them."""
        events = []
        for game_id, (written, _, event) in list(self._unsure_due.items()):
            try:
                landed = holds(await self.store.get(game_id), written)
            except Exception:   # still cannot tell: the next round asks again
                log.warning("game %s: still cannot tell whether its deadline was carried out", game_id)
                continue
            del self._unsure_due[game_id]
            try:
                events.extend([await event()] if landed else [])   # not stored: due again, done anew
            except Exception:
                log.exception("could not show the deadline of game %s", game_id)
        return events

    async def _due_here(self, now: float, owns: Callable[[str | None], bool] | None) -> list[GameRecord]:
        """The due records of the guilds `owns` accepts. Where a whole page is other processes'
        (one of them down a while, its deadlines piling up), read further rather than see none."""
        limit = self.DUE_PAGE
        while True:
            rows = await self.store.due(now, limit)
            mine = [r for r in rows if owns is None or owns(r.guild_id)]
            if mine or len(rows) < limit:
                return mine
            limit *= 4

    async def _expire(self, record: GameRecord) -> DueEvent:
        before = record.copy()
        record.status, record.due_at = GameStatus.EXPIRED, None
        info = rules.VARIANTS.get(record.variant)
        name = info.name if info else record.variant
        challenger = next((n for p, n in record.players if p == record.challenger_id), "Someone")
        other = next((n for p, n in record.players if p and p != record.challenger_id), "anyone")
        text = (f"{challenger}'s challenge to {other} (", Mark(name), f", game #{record.id}) expired: "
                f"no answer within {duration(self.challenge_ttl)}.")

        async def expired() -> DueEvent:
            return DueEvent("expired", record, Reply([text], game_id=record.id, finished=True))

        return await self._after_save(self._save(Live(record, None), before), expired)

    async def _clock_due(self, record: GameRecord, now: float) -> DueEvent | None:
        channel = record.channel_id
        async with self._lock(channel):
            live = await self._load(channel)
            if live is None or live.game is None or live.record.id != record.id:
                self._live.pop(channel, None)   # memory and store disagree: read it again next time
                return None
            record, game = live.record, live.playing
            if record.due_at is None or record.due_at > now or game.outcome is not None:
                return None   # a move came first
            seat = 0 if game.turn == rules.WHITE else 1
            mover_id, mover = record.players[seat]
            before = record.copy()
            deadline = self.deadline_of(record) or now
            if not record.reminded and deadline > now:
                left = deadline - now
                record.reminded, record.due_at = True, deadline

                async def reminder() -> DueEvent:
                    pings = (mover_id,) if await self.store.pings(mover_id) else ()
                    return DueEvent("reminder", record.copy(), Reply([(
                        Who(Player(mover_id, mover)), ", your move in ", Mark(game.info.name), f" (game #{record.id}) is "
                        f"due within {duration(left)}; after that it is lost on time.")], game_id=record.id, pings=pings))

                return await self._after_save(self._save(live, before), reminder)
            game.finish(Outcome.win(rules.BLACK if seat == 0 else rules.WHITE, "time", Ending.TIME))

            async def timeout() -> DueEvent:   # after an unconfirmed write the game was put back: replay it
                shown = game if game.outcome is not None else (await asyncio.to_thread(self._revive, record)).playing
                reply = await self._board_reply(record, shown, (Who(Player(mover_id, mover), "ran"), " out of time."))
                return DueEvent("timeout", record.copy(), await self._ping_others(reply, record, None))

            return await self._after_save(self._commit(live, before, undo=lambda: game.finish(None)), timeout)
