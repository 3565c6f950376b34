import pytest
import pytest_asyncio

from bot.service import GameService, Player
from bot.store import InMemoryStore

from .pg_server import pg_server, pg_url  # noqa: F401  (a real PostgreSQL, started once per session)

ALICE, BOB, CAROL = Player("1", "alice"), Player("2", "bob"), Player("3", "carol")
CHANNEL = "chan-1"


def fake_png(view, orientation):
    """Stands in for the renderer in service tests: records what it was asked to draw."""
    fake_png.calls.append((view, orientation))
    return b"\x89PNG fake"


fake_png.calls = []


@pytest.fixture
def store():
    return InMemoryStore()


@pytest_asyncio.fixture
async def service(store):
    fake_png.calls.clear()
    return GameService(store, renderer=fake_png)


class HandClock:
    """A service timer (Unix seconds) moved on by hand: `clock.now += 60`."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
