"""Sizes and times of board PNGs per zlib level, and of 40-ply replay GIFs per variant.

Run on demand: `python benchmarks/picture_sizes.py [games]`. Targets (issue 12), at the sizes
used in chat: an 8x8 PNG under 20 KB, a 5x5 PNG under 30 KB; a 40-ply GIF at most 100 KB and
150 ms. render/board.py's PNG levels, GIF_SQUARE and GIF_COLOURS were chosen from this script's output.
"""
from __future__ import annotations

import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import render  # noqa: E402
import rules  # noqa: E402
from render import board as board_module  # noqa: E402


def game_views(slug: str, plies: int, seed: int) -> list:
    """The start and `plies` positions of random legal games (a new game when one ends)."""
    rng = random.Random(seed)
    game = rules.new_game(slug, seed=seed)
    views = [game.view()]
    while len(views) < plies + 1:
        moves = game.legal_moves()
        if not moves:
            game = rules.new_game(slug, seed=rng.randrange(10**6))
            continue
        game.play(rng.choice(moves))
        views.append(game.view())
    return views


def png_levels(slug: str, views: list) -> None:
    renderer = render.default_renderer()
    images = [renderer.board_image(v, orientation="white") for v in views]
    print(f"{slug} PNG ({images[0].width}x{images[0].height} px, {len(images)} positions)")
    for level in range(1, 10):
        sizes, times = [], []
        for image in images:
            start = time.perf_counter()
            buf = io.BytesIO()
            image.save(buf, "PNG", compress_level=level)
            times.append((time.perf_counter() - start) * 1000)
            sizes.append(len(buf.getvalue()) / 1024)
        print(f"  level {level}: median {statistics.median(sizes):5.1f} KB, worst {max(sizes):5.1f} KB; "
              f"encode median {statistics.median(times):5.2f} ms, worst {max(times):5.2f} ms")


def gifs(slug: str, games: int) -> tuple[float, float, float, float]:
    sizes, times = [], []
    render.game_gif(game_views(slug, 2, 0))   # caches
    for seed in range(games):
        views = game_views(slug, 40, seed)
        start = time.perf_counter()
        data = render.game_gif(views)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(data) / 1024)
    return statistics.median(sizes), max(sizes), statistics.median(times), max(times)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"PNG levels {board_module.PNG_LEVEL} (8x8 and up) / {board_module.PNG_LEVEL_SMALL_BOARD}; "
          f"GIF_SQUARE = {board_module.GIF_SQUARE}, GIF_COLOURS = {board_module.GIF_COLOURS}")
    png_levels("standard", game_views("standard", 120, 1))
    png_levels("kingswap", game_views("kingswap", 120, 1))
    print(f"40-ply GIFs, {games} random games each: size median/worst KB, time median/worst ms")
    for slug, info in sorted(rules.VARIANTS.items()):
        size, worst_size, ms, worst_ms = gifs(slug, games)
        flag = "" if worst_size <= 100 and worst_ms <= 150 else "  (over target)"
        print(f"  {slug:16} {info.files}x{info.ranks}  {size:6.1f} / {worst_size:6.1f} KB   "
              f"{ms:6.1f} / {worst_ms:6.1f} ms{flag}")


if __name__ == "__main__":
    main()
