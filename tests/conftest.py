"""How the suite stays quick and safe to run in parallel: read this before adding a test.

`pytest` runs the suite in worker processes (pytest-xdist, `-n auto` in pyproject.toml: two
workers per core, see `pytest_xdist_auto_num_workers`); `pytest -n 0` runs it in this process alone. Any test may run beside any
other, in another worker, in any order, so a test:

* listens only on a port the system picks (`("127.0.0.1", 0)`): the Discord stand-in does
  (`fake` in tests/discord/conftest.py), and so does each worker's PostgreSQL server;
* uses PostgreSQL through the `pg_url` fixture (tests/bot/pg_server.py): one server per worker,
  started once for the worker's session, and an empty database per test; never a server of its
  own per test (a start costs a second or two);
* writes only under `tmp_path`, never into the checkout: no database, export, image or build in
  the working directory (a subprocess run in the checkout, to import its modules, writes nothing;
  one that writes gets `cwd=tmp_path` or paths under it);
* leaves global state as it found it: environment variables, class attributes and module
  constants changed through `monkeypatch` (or put back in a `finally`);
* never decides by how busy the machine is: no assertion of a duration, and a wait is a poll for a condition with a
  generous timeout (`fake.wait_until`), never a sleep. "Nothing else arrived" is proved from the
  stand-in's request log after a later event (`fake.nothing_more`), not by sleeping;
* searches hints by positions, not seconds: `service.hint(..., node_budget=HINT_NODES)` (the
  Discord fixtures' service does this by itself), so a hint is the same on a busy machine.

A test that must take long (a subprocess, a wheel build) runs beside the others; keep its work
bounded by counts, not by time. Files of such tests are listed in LONG_FIRST: they start first,
so that no worker is left running one alone at the end.
"""
from __future__ import annotations

import functools
import os

import pytest

import rules

HINT_NODES = 2_000   # positions a hint searches in tests: about 0.2 s, the same answer on any machine

# Tests that take seconds each on a quiet machine (a wheel built and installed, fuzzing, 33 GIFs, real
# deadlines of a few seconds, the KingSwap! solver), by node id or its start, longest first: each worker
# starts its share of them first, so no long test is left to the end while the other workers wait.
LONG_FIRST = (
    "tests/test_packaging.py::test_the_wheel_installs_alone",
    "tests/bot/test_service_fuzz.py",
    "tests/render/test_state_and_parts.py::test_every_two_player_replay",
    "tests/rules/test_daily.py::test_most_kingswap_seeds",
    "tests/discord/test_deadlines.py",
    "tests/bot/test_stopping_and_backup.py::test_backup_refuses",
    "tests/bot/test_stored_games.py",
    "tests/bot/test_kill_recovery.py",
    "tests/rules/variants/test_concurrent.py::test_random_games",
    "tests/engine/test_engine.py::test_balanced_swap_is_searched",
    "tests/discord/test_computer.py::test_challenging_kibitz",
    "tests/discord/test_stopping.py",
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: two workers per core, as many tests spend seconds waiting (for a subprocess, the
    stand-in's stretch of errors, PostgreSQL) while another worker can use the core. None (xdist's own
    count) when PYTEST_XDIST_AUTO_NUM_WORKERS says how many."""
    return None if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") else 2 * len(os.sched_getaffinity(0))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long tests first, dealt out one by one to the heads of the shares pytest-xdist's worksteal first
    gives each worker (contiguous: the k-th of W workers gets what is left divided by W - k); the
    same order in every worker, as pytest-xdist requires."""
    def rank(item: pytest.Item) -> int:
        return next((n for n, name in enumerate(LONG_FIRST) if item.nodeid.startswith(name)), len(LONG_FIRST))

    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    ranked = sorted(items, key=rank)   # a stable sort
    long = [item for item in ranked if rank(item) < len(LONG_FIRST)]
    rest = iter(ranked[len(long):])
    ordered: list[pytest.Item] = []
    left = len(items)
    for share in range(workers):
        size = left // (workers - share)
        left -= size
        heads = long[share::workers]
        ordered += heads + [item for _, item in zip(range(size - len(heads)), rest)]
    items[:] = ordered + list(rest)


@pytest.fixture(scope="module")
def deals_worked_out_once():
    """`rules.daily_deal` remembered per slug, day and budget while a module runs: a pure function, and
    KingSwap!'s takes its solver seconds, so tests that start daily deals through the service or the bot
    need not work out the same deal afresh for each test (tests/rules test it as it is)."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(rules, "daily_deal", functools.cache(rules.daily_deal))
        yield
