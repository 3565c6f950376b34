"""How the bot's process runs: on one CPU (``KIBITZ_CPU``), and with a garbage collector that
leaves the start-up objects alone and runs less often.

CPython runs one thread's Python at a time (the global interpreter lock). The bot's threads (the
event loop, the worker threads that play turns and draw boards, SQLite's thread) only take turns,
so a second CPU adds no speed; it costs some: when the threads are spread over two CPUs, every
hand-over of the lock crosses between them. Under load (``benchmarks/load.py``, 100 games on a
2-CPU machine, five runs each way in turn) a move cost the bot 3.0 ms of CPU that way against 2.0
ms with the process kept on one CPU (medians), and replies took longer (p99 391 ms against 266).
So by default the process keeps to one CPU:

    KIBITZ_CPU unset or "auto"  one CPU: with KIBITZ_SHARD_IDS, the process's place among
                                processes running equal runs of shards (first shard id divided
                                by how many it runs: 0,1 -> 0 and 2,3 -> 1) picks among the
                                allowed CPUs in turn, so shard processes spread over them; else
                                the CPU the process is on when it starts
    KIBITZ_CPU=all              let the operating system place the threads on any allowed CPU
    KIBITZ_CPU=3                CPU 3 (it must be one the process may use)

It is applied once, in ``python -m bot`` before any thread starts, so every thread inherits it.
Where the platform cannot set it (not Linux) or refuses to (a sandbox: logged), or only one CPU
is allowed, nothing changes.

The garbage collector. Every answer through discord.py allocates thousands of short-lived
objects; CPython's collector looks at its youngest generation after each 700 allocations that
outlive their statement, and now and then at every object the process holds, start-up's included
(modules, rule tables, about 50,000 objects that are never garbage). :func:`collect_garbage_less`
freezes what start-up made out of the collector's sight and lets the youngest generation grow to
``GC_THRESHOLD`` before it is looked at. In one run of the load benchmark at 100 games the
collector's time fell from 0.39 s (345 young, 31 middle and 3 full collections of 60-70 ms each,
each a pause of every game) to 0.22 s (18 young, 1 middle, no full one). Memory is not at stake:
cycles are still collected, only later, and reference counting frees everything else at once.
"""
from __future__ import annotations

import gc
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

GC_THRESHOLD = 10_000   # allocations before the youngest generation is collected (CPython's default: 700)


class CpuSettingError(ValueError):
    """KIBITZ_CPU cannot be used: one sentence naming it."""


def parse(text: str) -> str | int:
    """KIBITZ_CPU as "auto", "all" or a CPU number; raises CpuSettingError."""
    text = text.strip().lower()
    if text in ("", "auto"):
        return "auto"
    if text == "all":
        return "all"
    if text.isdecimal():   # not isdigit: int() refuses a superscript two
        return int(text)
    raise CpuSettingError(f"KIBITZ_CPU must be auto, all or a CPU number (not {text!r}).")


def choose(setting: str | int, allowed: set[int], current: int | None,
           shard_ids: tuple[int, ...] | None = None) -> int | None:
    """The one CPU to keep to, or None to leave the placement as it is."""
    if isinstance(setting, int) and setting not in allowed:
        raise CpuSettingError(f"KIBITZ_CPU={setting} is not among the CPUs this process may use "
                              f"({_span(allowed)}).")
    if setting == "all" or len(allowed) < 2:
        return None
    if isinstance(setting, int):
        return setting
    ordered = sorted(allowed)
    if shard_ids:
        return ordered[(min(shard_ids) // len(shard_ids)) % len(ordered)]
    return current if current in allowed else ordered[0]


def current_cpu() -> int | None:
    """The CPU this process is running on now (Linux: /proc/self/stat), or None."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[36])   # field 39 of stat(5), "processor"; fields[0] here is field 3
    except (OSError, IndexError, ValueError):
        return None


def shard_cpus(allowed: set[int], shard_ids: tuple[int, ...] | None, shard_count: int | None) -> set[int]:
    """The CPUs `choose` (KIBITZ_CPU=auto) keeps every shard process to, where `shard_count`
    shards run in processes of len(`shard_ids`) each, as this one does; empty without shards.
    The engine's workers leave them all out, not only this process's own."""
    if not shard_ids or not shard_count:
        return set()
    run = len(shard_ids)
    return {cpu for first in range(0, shard_count, run)
            if (cpu := choose("auto", allowed, None, tuple(range(first, first + run)))) is not None}


def keep_to_one_cpu(setting: str | int, shard_ids: tuple[int, ...] | None = None,
                    shard_count: int | None = None) -> int | None:
    """Apply KIBITZ_CPU to this process (call before any thread starts). Returns the CPU kept to."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = os.sched_getaffinity(0)
    _ALLOWED.update(allowed)   # kept for the engine's workers
    if setting == "auto":
        _SHARDS.update(shard_cpus(allowed, shard_ids, shard_count))
    cpu = choose(setting, allowed, current_cpu(), shard_ids)
    if cpu is None:
        return None
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as error:   # a sandbox that forbids it: run where the system puts the process
        log.warning("could not keep to CPU %d (%s); running on any of %s", cpu, error, _span(allowed))
        return None
    log.info("running on CPU %d of %s (KIBITZ_CPU=all lets the threads use every CPU; see bot/process.py)",
             cpu, _span(allowed))
    return cpu


_ALLOWED: set[int] = set()   # the CPUs the process was allowed before it kept to one (bot/opponent/workers.py)
_SHARDS: set[int] = set()    # the CPUs every shard process on this host keeps to (`shard_cpus`)


def allowed_cpus() -> set[int]:
    """The CPUs this process may use, as they were before `keep_to_one_cpu` (the engine's workers
    go to those the bot does not keep to)."""
    if not _ALLOWED and hasattr(os, "sched_getaffinity"):
        _ALLOWED.update(os.sched_getaffinity(0))
    return set(_ALLOWED) or {0}


def bot_cpus() -> set[int]:
    """The CPUs the bot's processes keep to besides this one's own: the other shard processes'."""
    return set(_SHARDS)


def _span(cpus: set[int]) -> str:
    return ",".join(str(c) for c in sorted(cpus))


def collect_garbage_less(threshold: int = GC_THRESHOLD) -> None:
    """Freeze the objects made so far out of the collector's sight, and collect the youngest
    generation after `threshold` allocations (see module docstring). Call once, after start-up."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(threshold, *gc.get_threshold()[1:])
