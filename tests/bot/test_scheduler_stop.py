"""The deadline scheduler stops when asked, even when a save wakes it at that very moment."""
import asyncio

import pytest

from bot.scheduler import Scheduler
from bot.service import DueSignal

pytestmark = pytest.mark.asyncio


class IdleService:
    """Nothing is ever due: the scheduler sleeps until a save wakes it."""

    def __init__(self) -> None:
        self.deadlines = DueSignal()

    def timer(self) -> float:
        return asyncio.get_running_loop().time()

    async def due_events(self, now=None, owns=None):
        return []

    async def next_due(self, after=None):
        return None


async def nothing(event) -> None:
    pass


@pytest.mark.parametrize("turns", range(6))
async def test_a_scheduler_woken_by_a_save_as_it_is_stopped_still_stops(turns):
    service = IdleService()
    scheduler = Scheduler(service, nothing)  # type: ignore[arg-type]
    scheduler.start()
    for _ in range(20):   # until it sleeps, waiting for its wake-up
        await asyncio.sleep(0)
    service.deadlines.event.set()   # a save wakes it ...
    for _ in range(turns):          # ... and stop() arrives this many loop turns later
        await asyncio.sleep(0)
    stopping = asyncio.ensure_future(scheduler.stop())
    done, _ = await asyncio.wait({stopping}, timeout=30)   # a bound for a hang, not a speed check
    assert stopping in done, "Scheduler.stop() never returned"
