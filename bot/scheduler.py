"""One task for every deadline: challenge expiry, the reminder to move, loss on time.

It sleeps until the store's earliest due_at (``service.next_due()``), woken early when a save
sets a nearer one (``service.deadlines``), then asks the service to carry out what is due
(``service.due_events``) in the guilds this process owns, and delivers each event on Discord.
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
from typing import TYPE_CHECKING

from bot.service import DueEvent
from bot.views.deadlines import post_in, show_expired

if TYPE_CHECKING:
    from bot.discord_app import KibitzBot

log = logging.getLogger(__name__)

LONGEST_SLEEP = 3600.0   # a safety net: wake at least hourly (a deadline another process stored)
RETRY = 1.0              # after a round that left something due (another shard's, or an error)...
MAX_RETRY = 60.0         # ...doubled while that goes on, up to this


class Timer:
    """A task of the bot's that runs until the bot closes: started once, cancelled by stop()."""
    name = "kibitz-timer"

    def __init__(self, bot: KibitzBot) -> None:
        self.bot = bot
        self.service = bot.kibitz_service
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        raise NotImplementedError


class Scheduler(Timer):
    name = "kibitz-deadlines"

    async def _run(self) -> None:
        await self.bot.wait_until_ready()
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
                events = await self.service.due_events(start, owns=self.bot.owns_guild)
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
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(signal.event.wait(), timeout=wait)

    async def deliver(self, event: DueEvent) -> None:
        """Show one carried-out deadline on Discord (best effort: the change already stands)."""
        record, reply = event.record, event.reply
        try:
            if event.kind == "expired":
                await show_expired(self.bot, record, reply.text)
            else:   # a reminder (pinging reply.ping, and no one else), or the final board
                await post_in(self.bot, record.channel_id, reply)
        except Exception:
            log.exception("could not show the %s of game %s", event.kind, record.id)
