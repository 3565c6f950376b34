"""The daily deal: the same puzzle for everyone, everywhere, on one UTC day.

    deal = rules.daily_deal("kingswap", datetime.date(2026, 1, 1))
    game = rules.new_game(deal.slug, seed=deal.seed, fen=deal.fen)

Seeds follow from the slug and the date alone: seed k is the first 8 bytes (big-endian) of
SHA-256 over the text "kibitz-daily:<slug>:<YYYY-MM-DD>:<k>". No clock, no Python `hash()`, no
global random state: every machine and Python version gets the same deal.

* KingSwap!: seeds k = 0, 1, 2, ... in turn; the deal is the first whose tour the solver proves
  within DAILY_NODE_BUDGET positions; `par` is the fewest casualties it found in that budget.
* Solitary Patience: seed k = 0; no par.
* Safe Passage: no seed (the array never changes); the target is level 3.
"""
from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass

from . import new_game
from .solver import solve
from .variants import safe_passage

DAILY_SLUGS = ("kingswap", "safe-passage", "solitary-patience")
DAILY_NODE_BUDGET = 4_000     # KingSwap! solver positions per seed tried
MAX_SEEDS = 64                # KingSwap! seeds tried before giving up (never reached in practice)


@dataclass(frozen=True)
class DailyDeal:
    slug: str
    day: datetime.date
    seed: int | None         # pass to rules.new_game (None: the variant has one fixed start)
    fen: str                 # the start position, also to pass to rules.new_game
    level: int | None        # the target level (Safe Passage), else None
    par: int | None          # the best score the solver found (KingSwap!), else None
    tried: int               # seeds tried to find the deal


def daily_seed(slug: str, day: datetime.date, k: int = 0) -> int:
    """Seed number k of `slug` on `day`: SHA-256 of "kibitz-daily:<slug>:<YYYY-MM-DD>:<k>", first 8 bytes."""
    text = f"kibitz-daily:{slug}:{day.isoformat()}:{k}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def daily_deal(slug: str, day: datetime.date, *, node_budget: int | None = None) -> DailyDeal:
    """The deal of `slug` for the UTC day `day`. Raises ValueError for a puzzle without a daily deal."""
    if slug not in DAILY_SLUGS:
        raise ValueError(f"There is no daily deal for {slug!r}: only for {', '.join(DAILY_SLUGS)}.")
    if slug == "safe-passage":
        return DailyDeal(slug, day, None, safe_passage.start_fen(safe_passage.LEVELS), safe_passage.LEVELS, None, 0)
    if slug == "solitary-patience":
        seed = daily_seed(slug, day)
        return DailyDeal(slug, day, seed, new_game(slug, seed=seed).fen(), None, None, 1)
    budget = DAILY_NODE_BUDGET if node_budget is None else node_budget
    for k in range(MAX_SEEDS):
        seed = daily_seed(slug, day, k)
        game = new_game(slug, seed=seed)
        result = solve(game, budget)
        if result.solvable:
            return DailyDeal(slug, day, seed, game.fen(), None, result.best_score, k + 1)
    raise RuntimeError(f"No KingSwap! deal for {day.isoformat()}: the solver proved none of the first "
                       f"{MAX_SEEDS} seeds within {budget} positions each.")
