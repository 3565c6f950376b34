"""The computer's worker pool shared by the tests of one process: each bot or runner a test starts
would otherwise start worker processes of its own, each importing the rules and the engine (about a
second of CPU), most of them for tests that never play the computer. A pool's close leaves it
running; `end_all` ends every shared pool (a fixture's teardown). A worker that dies is replaced as
in any pool."""
from __future__ import annotations

from bot.opponent.workers import Workers


class SharedWorkers(Workers):
    pools: dict[int | None, SharedWorkers] = {}

    @classmethod
    def of_size(cls, size: int | None = None) -> Workers:
        return cls.pools.setdefault(size, cls(size))   # a Workers starts no process until used

    def close(self) -> None:
        pass

    @classmethod
    def end_all(cls) -> None:
        for pool in cls.pools.values():
            Workers.close(pool)
        cls.pools.clear()
