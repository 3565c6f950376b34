"""The bot under load from the computer: `python benchmarks/computer_load.py [GAMES] [--level L] [--rounds R]`
(default 50 games at level 3, 3 moves each).

Runs the real bot process (`python -m bot`'s entry, SQLite in a temporary folder, its engine
workers as configured: KIBITZ_ENGINE_WORKERS, default one fewer than the CPUs) against the local
Discord stand-in, with the machinery of benchmarks/load.py (one text channel per game, the bot's
process tree's CPU from /proc). GAMES members each challenge Kibitz in their own channel, all at
once, then every game plays ROUNDS turns in a closed loop: the member's `/move` (a seeded random
legal move that does not end the game), then a wait for the computer's board in that channel.

It prints:
- the member's `/move`: time to its first response (the "ack" Discord wants within 3 s) p50/p99/max,
  and how many missed 3 s;
- the event loop's longest stall, measured inside the bot: a probe task (started only by this
  script, which runs the bot's own `main` with it) sleeps 10 ms at a time and records how late it
  wakes; also how many wake-ups were over 100 ms late;
- each computer reply: from the member's move answered to the computer's board posted, split into
  the queue (until the runner shows the typing indicator, just before its search) and the turn
  (search, save, picture and post), against the level's time (engine/levels.py);
- how often it said it was busy (it thought less than half its level's time);
- the CPU of the bot's process tree (the workers included) per turn.

One run, 50 games at level 3 (0.5 s a move), 3 turns each, on the shared 2-CPU development
machine (so one engine worker, the bot kept to the other CPU; other work running too):

    member's /move ack            p50    18  p99   510  max   532 ms   missed 3 s: 0 of 150
    computer reply (move->board)  p50  5108  p99  7392  max  7465 ms
      queue (->typing)            p50  5004  p99  7289  max  7398 ms
      turn (typing->board)        p50    88  p99   265  max  1818 ms
    event loop: longest stall 65 ms, no wake-up over 100 ms late
    said busy: 148 of 150 turns; 150 turns in 19 s

With 50 games waiting for one worker, each search got the least time (MIN_SECONDS, 0.05 s, not
the level's 0.5 s) and the computer said it was busy: a reply's wait is the queue (about 50
turns of about 0.1 s ahead of it), not its own search. The longest turn (1.8 s) is the first
one, which starts the worker process. No member's /move came near Discord's 3 s.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

import engine  # noqa: E402
from load import DEADLINE, ManyChannels, in_channel, percentile, stop, tree_cpu  # noqa: E402

PROBE = 0.01       # the loop-lag probe's sleep, seconds
STALL = 0.1        # a wake-up this late counts as a stall
PLAYS = re.compile(r"Kibitz \(level \d+, [^)]*\) plays \*\*(.+?)\*\*")


# -- inside the bot: its main, with a loop-lag probe ----------------------------------------------
def run_bot_with_probe(stats: str) -> None:
    """The bot's own `python -m bot`, its event loop watched by a probe task writing to `stats`."""
    import bot.discord.app as app
    from bot.__main__ import main

    serve = app._serve

    async def probe() -> None:
        loop = asyncio.get_running_loop()
        worst, stalls, last = 0.0, 0, 0.0
        while True:
            before = loop.time()
            await asyncio.sleep(PROBE)
            late = loop.time() - before - PROBE
            stalls += late > STALL
            if late > worst or loop.time() - last > 1.0:
                worst, last = max(worst, late), loop.time()
                Path(stats).write_text(json.dumps({"worst": worst, "stalls": stalls}))

    async def watched(*args, **kwargs):
        task = asyncio.create_task(probe())
        try:
            await serve(*args, **kwargs)
        finally:
            task.cancel()

    app._serve = watched
    sys.exit(main([]))


# -- the players ----------------------------------------------------------------------------------
def next_move(board: chess.Board, rng: random.Random) -> str | None:
    """A random legal move (SAN) that does not end the game, or None."""
    moves = []
    for move in sorted(board.legal_moves, key=lambda m: m.uci()):
        board.push(move)
        if not board.is_game_over():
            moves.append(move)
        board.pop()
    return board.san(rng.choice(moves)) if moves else None


def computer_posts(fake: ManyChannels, channel: str) -> list:
    return [m for m in fake.messages_in(channel) if PLAYS.search(m.content)]


def first_request(fake: ManyChannels, method: str, path: str, after: float) -> float | None:
    return next((r.at for r in fake.requests if r.at >= after and r.method == method and r.path == path), None)


async def play(fake: ManyChannels, channel: str, member: dict, level: int, rounds: int, out: dict) -> None:
    made, _, _ = await in_channel(fake, channel, lambda: fake.slash(
        "challenge", {"variant": "standard", "opponent": fake.bot_user, "colour": "white", "level": level},
        user=member, timeout=60))
    assert "plays Kibitz" in made.reply.content and not fake.threads, (made.reply.content, fake.threads)
    board, rng = chess.Board(), random.Random(int(channel))
    for _ in range(rounds):
        san = next_move(board, rng)
        if san is None:
            return
        log, answered, first = await in_channel(fake, channel, lambda: fake.slash(
            "move", {"move": san}, user=member, timeout=60))
        assert "plays" in log.reply.content, log.reply.content
        board.push_san(san)
        out["ack"].append(first)
        done = time.monotonic()
        seen = len(out["replies"].get(channel, []))
        deadline = done + 300
        while len(computer_posts(fake, channel)) <= seen:
            if time.monotonic() > deadline:
                raise AssertionError(f"no computer reply in {channel}")
            await asyncio.sleep(0.02)
        post = computer_posts(fake, channel)[seen]
        posted = post.at
        typing = first_request(fake, "POST", f"/channels/{channel}/typing", done) or posted
        out["replies"].setdefault(channel, []).append(post)
        out["reply"].append(posted - done)
        out["queue"].append(max(0.0, typing - done))
        out["turn"].append(posted - typing)
        out["busy"] += "Busy:" in post.content
        played = PLAYS.search(post.content)
        assert played is not None, post.content
        board.push_san(played.group(1))
        if board.is_game_over():
            return


def row(name: str, values: list[float]) -> str:
    return (f"  {name:<34} p50 {percentile(values, 50) * 1000:7.0f}  p99 {percentile(values, 99) * 1000:7.0f}  "
            f"max {max(values) * 1000:7.0f} ms  (n={len(values)})")


async def run(games: int, level: int, rounds: int) -> None:
    folder = tempfile.mkdtemp(prefix="kibitz-computer-load-")
    stats = Path(folder) / "loop.json"
    async with ManyChannels(games) as fake:
        # each game in place, in its own channel, known to the stand-in's REST side (the computer posts there)
        fake.channels.update((c, fake._text_channel(c, f"chess-{i}")) for i, c in enumerate(fake.channel_ids))
        fake.deny_threads()
        members = [fake.add_member(f"player{i}") for i in range(games)]   # at most 3 computer games a member
        env = dict(os.environ, DISCORD_TOKEN="load-token", DISCORD_API_BASE=fake.api_base,
                   DISCORD_GATEWAY_URL=fake.gateway_url, KIBITZ_DB=str(Path(folder) / "kibitz.sqlite3"),
                   PYTHONPATH=str(ROOT))
        with open(Path(folder) / "bot.log", "wb") as log:
            bot = subprocess.Popen([sys.executable, __file__, "--bot", str(stats)], env=env, cwd=folder,
                                   stdout=log, stderr=subprocess.STDOUT)
        out: dict = {"ack": [], "reply": [], "queue": [], "turn": [], "replies": {}, "busy": 0}
        try:
            await fake.wait_ready(60)
            cpu, wall = tree_cpu(bot.pid), time.monotonic()

            async def one(index: int) -> None:
                fake.current.set(fake.channel_ids[index])
                await play(fake, fake.channel_ids[index], members[index], level, rounds, out)

            await asyncio.gather(*(one(i) for i in range(games)))
            cpu, wall = tree_cpu(bot.pid) - cpu, time.monotonic() - wall
        finally:
            stop(bot)
    loop = json.loads(stats.read_text()) if stats.exists() else {"worst": float("nan"), "stalls": -1}
    turns = len(out["reply"])
    print(f"{games} games against Kibitz level {level} ({engine.LEVELS[level - 1].seconds} s a move), "
          f"{rounds} turns each, {turns} turns in {wall:.0f} s; bot log in {folder}")
    print(row("member's /move ack", out["ack"]) + f"  missed {DEADLINE:g} s: {sum(a > DEADLINE for a in out['ack'])}")
    print(row("computer reply (move answered->board)", out["reply"]))
    print(row("  queue (->typing)", out["queue"]))
    print(row("  turn (typing->board posted)", out["turn"]))
    print(f"  event loop: longest stall {loop['worst'] * 1000:.0f} ms, wake-ups over {STALL * 1000:.0f} ms late: "
          f"{loop['stalls']}")
    print(f"  said busy: {out['busy']} of {turns}; bot CPU (workers included) {cpu / max(turns, 1) * 1000:.0f} ms "
          f"per turn, {cpu / wall:.2f} CPUs")


def main() -> None:
    if sys.argv[1:2] == ["--bot"]:
        return run_bot_with_probe(sys.argv[2])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=50)
    parser.add_argument("--level", type=int, default=engine.DEFAULT_LEVEL)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run(args.games, args.level, args.rounds))


if __name__ == "__main__":
    main()
