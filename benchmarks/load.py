"""The bot under load: `python benchmarks/load.py [GAMES ...]` (default 30 100).

Runs the real bot process (`python -m bot`, SQLite in a temporary folder) against the local
Discord stand-in (tests/discord/fake_discord.py, here with one text channel per game), and for
each N:

- `/move`: N standard games in N channels, each playing its next ply as soon as the previous
  reply arrived (closed loop, no think time), 10 plies; the first ply of every game is a warm-up
  and is left out;
- `/variants`: the same concurrency, N channels each asking again as soon as it was answered,
  10 rounds, the first left out: the floor, a reply that only sends text.

It prints, per command: reply p50/p99 (from dispatch on the gateway to the answer, ms), commands
per second, the CPU the bot's whole process tree spent per command (ms, utime+stime from /proc,
worker processes included), REST requests per command, and how many interactions missed
Discord's 3-second deadline for the first response. `--profile FILE` runs the bot under cProfile
(event loop thread only) and writes FILE when it stops.

Figures on the 2-core development machine, shared with other work (load average about 6 during
these runs, so wall-clock figures move by 30% between runs of the same code; the stand-in shares
the cores with the bot). ms; commands/s; CPU ms of the bot per command; REST requests per reply:

    N    code    /move p50  p99  moves/s  CPU  req   /variants p50  p99  per s  CPU   missed 3 s
    30   before       339   589       83  5.15  2         106   299    210  0.93   0
    100  before      1280  2502       69  5.27  2         482   830    194  0.84   0
    200  before      3495  6638       56  5.03  2         867  1938    198  0.81   0
    30   after        360   479       87  4.67  2          84   218    260  0.74   0
    100  after        961  1875       90  5.42  2         355   677    247  0.86   0
    200  after       2685  4813       68  4.87  2         871  1647    200  1.01   0

The service's own CPU per move (GameService.move with the real renderer, memory store, 400 moves,
time.process_time) is steadier: 2.3-2.6 ms before, 1.8-2.2 ms after. The rest of a move's CPU is
discord.py and aiohttp sending the multipart reply, and the SQLite commit.
"""
from __future__ import annotations

import argparse
import asyncio
import contextvars
import os
import random
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from tests.discord.fake_discord import FakeDiscord, InteractionLog  # noqa: E402

PLIES = 10
DEADLINE = 3.0
TICK = os.sysconf("SC_CLK_TCK")


class ManyChannels(FakeDiscord):
    """The stand-in with `count` text channels in its guild; interactions name the channel."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.channel_ids = [self.channel_id] + [str(self._next_id()) for _ in range(count - 1)]

    def _channel_for(self, channel_id: str) -> dict[str, Any]:
        channel = self._channel()
        channel.update(id=channel_id, name=f"chess-{self.channel_ids.index(channel_id)}")
        return channel

    def _guild(self) -> dict[str, Any]:
        guild = super()._guild()
        guild["channels"] = [self._channel_for(c) for c in self.channel_ids]
        return guild

    def _interaction(self, kind: int, user: dict[str, Any], data: dict[str, Any],
                     message: dict[str, Any] | None = None) -> InteractionLog:
        log = super()._interaction(kind, user, data, message)
        channel = self.current.get()
        log.payload.update(channel_id=channel, channel=self._channel_for(channel))
        return log

    current: contextvars.ContextVar[str] = contextvars.ContextVar("channel")


# -- the bot's CPU, from /proc ------------------------------------------------------------------
def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, utime+stime+cutime+cstime in ticks) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[1]), sum(int(f) for f in fields[11:15])


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and every live descendant (reaped ones are in their parent's cutime)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None:
                stats[int(entry)] = stat
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            total += stats[pid][1]
            todo.extend(child for child, (parent, _) in stats.items() if parent == pid)
    return total / TICK


# -- driving -------------------------------------------------------------------------------------
def random_line(seed: int, plies: int = PLIES) -> list[str]:
    """`plies` legal moves of standard chess, picked at random (seeded) among those that do not end
    the game. Each game plays its own line, so no picture or rules cache sees every game alike."""
    rng = random.Random(seed)
    while True:
        game, line = rules.new_game("standard"), []
        for _ in range(plies):
            moves = [m for m in sorted(game.legal_moves()) if _goes_on(game, m)]
            if not moves:
                break
            line.append(game.play(rng.choice(moves)))
        else:
            return line


def _goes_on(game, move: str) -> bool:
    game.play(move)
    try:
        return game.outcome is None
    finally:
        game.undo()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def in_channel(fake: ManyChannels, channel: str, call) -> tuple[InteractionLog, float, float]:
    """Run one interaction in `channel`; (log, seconds to its answer, seconds to its first callback)."""
    fake.current.set(channel)
    start = time.monotonic()
    log = await call()
    answered = time.monotonic() - start
    first = log.callbacks[0].at - start if log.callbacks else answered
    return log, answered, first


async def start_games(fake: ManyChannels) -> None:
    async def one(channel: str) -> None:
        log, _, _ = await in_channel(fake, channel, lambda: fake.slash(
            "challenge", {"opponent": fake.bob, "variant": "standard"}, user=fake.alice, timeout=60))
        accept = next(c["custom_id"] for c in log.components() if c.get("label") == "Accept")
        message = log.reply.message
        accepted, _, _ = await in_channel(fake, channel, lambda: fake.click(
            accept, user=fake.bob, message=message, timeout=60))
        assert "accepts" in accepted.reply.content, accepted.sent
    await asyncio.gather(*(one(c) for c in fake.channel_ids))


async def phase(fake: ManyChannels, bot_pid: int, label: str, rounds: int, command) -> dict[str, Any]:
    """Every channel runs `command(channel, round)` `rounds` times in a closed loop; round 0 of each
    is a warm-up, then all channels start the measured rounds together."""
    warm = await asyncio.gather(*(in_channel(fake, c, lambda c=c: command(c, 0)) for c in fake.channel_ids))
    assert all(log.is_answered() for log, _, _ in warm)
    replies: list[float] = []
    firsts: list[float] = []
    failures: list[str] = []
    requests_before = len(fake.requests)

    async def loop(channel: str) -> None:
        for ply in range(1, rounds):
            log, answered, first = await in_channel(fake, channel, lambda: command(channel, ply))
            replies.append(answered)
            firsts.append(first)
            if label == "/move" and "plays" not in log.reply.content:
                failures.append(log.reply.content)

    cpu_before, wall_before = tree_cpu(bot_pid), time.monotonic()
    await asyncio.gather(*(loop(c) for c in fake.channel_ids))
    wall, cpu = time.monotonic() - wall_before, tree_cpu(bot_pid) - cpu_before
    count = len(replies)
    if failures:
        print(f"  {len(failures)} {label} did not play, e.g. {failures[0]!r}", file=sys.stderr)
    return {"label": label, "count": count, "p50": percentile(replies, 50) * 1000,
            "p99": percentile(replies, 99) * 1000, "mean": statistics.fmean(replies) * 1000,
            "rate": count / wall, "cpu_ms": cpu / count * 1000,
            "requests": (len(fake.requests) - requests_before) / count,
            "missed": sum(f > DEADLINE for f in firsts), "late_replies": sum(r > DEADLINE for r in replies)}


async def run(games: int, profile: str | None, attach: str | None = None,
              only: str | None = None) -> list[dict[str, Any]]:
    folder = tempfile.mkdtemp(prefix="kibitz-load-")
    async with ManyChannels(games) as fake:
        env = dict(os.environ, DISCORD_TOKEN="load-token", DISCORD_API_BASE=fake.api_base,
                   DISCORD_GATEWAY_URL=fake.gateway_url, KIBITZ_DB=str(Path(folder) / "kibitz.sqlite3"),
                   PYTHONPATH=str(ROOT))
        command = [sys.executable] + (["-m", "cProfile", "-o", profile] if profile else []) + ["-m", "bot"]
        with open(Path(folder) / "bot.log", "wb") as out:
            bot = subprocess.Popen(command, env=env, cwd=folder, stdout=out, stderr=subprocess.STDOUT)
        try:
            await fake.wait_ready(30)
            await start_games(fake)
            # a profiler that attaches to the running bot (not its child: its CPU is not the bot's)
            watcher = subprocess.Popen(shlex.split(attach.format(pid=bot.pid))) if attach else None

            lines = {channel: random_line(index) for index, channel in enumerate(fake.channel_ids)}

            async def move(channel: str, ply: int) -> InteractionLog:
                user = fake.alice if ply % 2 == 0 else fake.bob
                return await fake.slash("move", {"move": lines[channel][ply]}, user=user, timeout=60)

            async def variants(channel: str, ply: int) -> InteractionLog:
                return await fake.slash("variants", user=fake.alice, timeout=60)

            results = []
            if only in (None, "move"):
                results.append(await phase(fake, bot.pid, "/move", PLIES, move))
            if only in (None, "variants"):
                results.append(await phase(fake, bot.pid, "/variants", PLIES, variants))
            if watcher is not None:
                watcher.send_signal(signal.SIGINT)
                watcher.wait(60)
        finally:
            bot.send_signal(signal.SIGINT)
            try:
                bot.wait(30)
            except subprocess.TimeoutExpired:
                bot.kill()
                bot.wait()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", type=int, default=[30, 100])
    parser.add_argument("--profile", help="write a cProfile of the bot's event loop to this file")
    parser.add_argument("--attach", metavar="COMMAND",
                        help="a shell command started once the games are set up, {pid} = the bot's pid, "
                             "stopped with SIGINT after the last phase (e.g. a sampling profiler)")
    parser.add_argument("--only", choices=["move", "variants"], help="run one phase only")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each N this many times and print the median of each figure (the most "
                             "missed deadlines of any run): a shared machine moves single runs by 30%%")
    args = parser.parse_args()
    print(f"{'games':>5} {'command':<10} {'p50 ms':>7} {'p99 ms':>7} {'per s':>6} {'CPU ms':>7} "
          f"{'req':>4} {'missed 3 s':>10} {'p99/floor':>9}")
    for games in args.games:
        runs = [asyncio.run(run(games, args.profile, args.attach, args.only)) for _ in range(args.repeat)]
        ratios = [r[0]["p99"] / r[1]["p99"] for r in runs if len(r) == 2]
        for index, label in enumerate(result["label"] for result in runs[0]):
            same = [r[index] for r in runs]
            result = {key: statistics.median(r[key] for r in same) for key in ("p50", "p99", "rate", "cpu_ms", "requests")}
            result["missed"] = max(r["missed"] for r in same)
            ratio = f"{statistics.median(ratios):.2f}" if ratios and index == 0 else ""
            print(f"{games:>5} {label:<10} {result['p50']:>7.0f} {result['p99']:>7.0f} "
                  f"{result['rate']:>6.0f} {result['cpu_ms']:>7.2f} {result['requests']:>4.1f} "
                  f"{result['missed']:>10} {ratio:>9}", flush=True)


if __name__ == "__main__":
    main()
