"""One task for every deadline: challenge expiry, the reminder to move, loss on time.

It sleeps until the store's earliest due_at (``service.next_due()``), woken early when a save
sets a nearer one (``service.deadlines``), then asks the service to carry out what is due
(``service.due_events``) in the guilds this process owns, and hands each event to the front
end's ``deliver`` (bot/discord/deadlines.py on Discord, the console's own output in bot/console.py).
Deadlines are stored as timestamps, so a restart picks them up again; each is carried out as a
compare-and-set on the game's record, so a move made at the last second and the forfeit never
both happen, and two processes never fire the same deadline twice.

Delivery follows the change: the change is committed, so a message that cannot be sent is
logged, never retried into a second forfeit. While something stays due that this process does
not carry out (another shard's game, a round that failed), it tries again after 1 s, then 2, 4...
up to a minute, rather than spinning; but never later than the next deadline still to come, so
its own deadlines are kept on time while another process's lie overdue.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.service import DueEvent, GameService
from bot.timing import HOUR

log = logging.getLogger(__name__)

LONGEST_SLEEP = float(HOUR)   # a safety net: wake at least hourly (a deadline another process stored)
RETRY = 1.0              # after a round that left something due (another shard's, or an error)...
MAX_RETRY = 60.0         # ...doubled while that goes on, up to this


Ready = Callable[[], Awaitable[object]]   # awaited before a timer's first round (the bot's wait_until_ready)


def everywhere(guild_id: str | None) -> bool:
    """Every guild is ours (one process serves them all: the console, an unsharded bot)."""
    return True


class Timer:
    """A task over the service that runs until its front end closes: started once, cancelled by stop()."""
    name = "kibitz-timer"

    def __init__(self, service: GameService, *, ready: Ready | None = None) -> None:
        self.service = service
        self._ready = ready
        self._task: asyncio.Task[None] | None = None

    async def wait_ready(self) -> None:
        if self._ready is not None:
            await self._ready()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        while task is not None and not task.done():   # cancelled again should a cancel be swallowed
            task.cancel()
            await asyncio.wait({task}, timeout=1.0)
        if task is not None and not task.cancelled() and task.exception() is not None:
            log.error("%s ended with an error", self.name, exc_info=task.exception())

    async def _run(self) -> None:
        raise NotImplementedError


class Scheduler(Timer):
    """The deadlines of the guilds `owns` accepts, each event handed to `deliver` once carried out."""
    name = "kibitz-deadlines"

    def __init__(self, service: GameService, deliver: Callable[[DueEvent], Awaitable[None]], *,
                 owns: Callable[[str | None], bool] = everywhere, ready: Ready | None = None) -> None:
        super().__init__(service, ready=ready)
        self._deliver = deliver
        self.owns = owns

    async def _run(self) -> None:
        await self.wait_ready()
        signal = self.service.deadlines
        retry = RETRY
        while True:
            # before reading: a save from now on (even one the store answers after next_due read it)
            # wakes the next sleep, whatever the round then plans
            signal.event.clear()
            signal.until = None
            start = self.service.timer()
            upcoming: float | None = None   # the next deadline after this round's start
            try:
                events = await self.service.due_events(start, owns=self.owns)
                for event in events:
                    await self.deliver(event)
                next_due = await self.service.next_due()
                if next_due is not None and next_due <= start and not events:
                    upcoming = await self.service.next_due(after=start)
            except Exception:
                log.exception("the deadline round failed; trying again shortly")
                events, next_due = [], start
            now = self.service.timer()
            if next_due is None:
                wait = LONGEST_SLEEP
            elif next_due > start:   # came due after this round looked, or later: go (or sleep) at once
                wait, retry = min(max(next_due - now, 0.0), LONGEST_SLEEP), RETRY
            elif events:   # more were due than one round takes: go on at once
                wait, retry = 0.0, RETRY
            else:   # left due by a round that did nothing: another shard's, or refused. Back off,
                # but wake for the next deadline still to come
                wait, retry = retry, min(retry * 2, MAX_RETRY)
                if upcoming is not None:
                    wait = min(wait, max(upcoming - now, 0.0))
            signal.until = now + wait
            # asyncio.timeout, not wait_for: in Python 3.11 wait_for can swallow the cancel stop() sends
            # when the event is set at the same moment, and the loop would then run on for ever
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await signal.event.wait()

    async def deliver(self, event: DueEvent) -> None:
        """Show one carried-out deadline (best effort: the change already stands)."""
        try:
            await self._deliver(event)
        except Exception:
            log.exception("could not show the %s of game %s", event.kind, event.record.id)
