"""How fast and how big board pictures are. Run on demand: `python benchmarks/render_speed.py`.

Plays random legal games of standard chess (8x8) and KingSwap (5x5), renders every position
as PNG (in both orientations), and prints per-board time and size. Target for 8x8: a median
under 20 ms and under 40 KB. The first render of each size builds caches; it is timed apart.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render  # noqa: E402
import rules  # noqa: E402


def positions(slug: str, count: int, rng: random.Random, seed_games: bool = False) -> list:
    views: list = []
    while len(views) < count:
        game = rules.new_game(slug, seed=rng.randrange(10**6)) if seed_games else rules.new_game(slug)
        views.append(game.view())
        for _ in range(rng.randrange(20, 120)):
            moves = game.legal_moves()
            if not moves or len(views) >= count:
                break
            game.play(rng.choice(moves))
            views.append(game.view())
    return views


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def measure(label: str, views: list) -> None:
    start = time.perf_counter()
    first = render.board_png(views[0])
    cold_ms = (time.perf_counter() - start) * 1000
    times, sizes = [], [len(first)]
    for i, view in enumerate(views):
        orientation = "white" if i % 2 else "black"
        start = time.perf_counter()
        png = render.board_png(view, orientation=orientation)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png))
    w, h = render.layout(views[0].files, views[0].ranks).size
    print(f"{label:6} {w}x{h}px  n={len(views):4}  first {cold_ms:6.1f} ms   "
          f"ms/board median {statistics.median(times):5.2f} p95 {percentile(times, 95):5.2f}   "
          f"KB/board median {statistics.median(sizes) / 1024:5.1f} max {max(sizes) / 1024:5.1f}")


def main() -> None:
    rng = random.Random(2024)
    start = time.perf_counter()
    render.default_renderer()
    print(f"load art: {(time.perf_counter() - start) * 1000:.1f} ms")
    measure("8x8", positions("standard", 400, rng))
    measure("5x5", positions("kingswap", 200, rng, seed_games=True))
    views = positions("standard", 60, random.Random(7))[:60]
    start = time.perf_counter()
    gif = render.game_gif(views)
    print(f"gif    60 frames: {(time.perf_counter() - start) * 1000:.0f} ms, {len(gif) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
