"""KingSwap!: the game (game.py), its solver (solver.py) and its hint (hint.py), registered here
with the daily deal.

The daily deal tries seeds k = 0, 1, 2, ... in turn (rules.daily.daily_seed); the deal is the
first whose tour the solver proves within DAILY_NODE_BUDGET positions, and `par` is the fewest
casualties it found in that budget.
"""
from __future__ import annotations

import datetime

from ...core import DailyDeal, VariantInfo
from ...daily import daily_seed
from .game import KingSwapGame
from .hint import kingswap_hint
from .solver import solve

DAILY_NODE_BUDGET = 4_000     # solver positions per seed tried
MAX_SEEDS = 64                # seeds tried before giving up (never reached in practice)


def _create(seed: int | None, fen: str | None) -> KingSwapGame:
    return KingSwapGame(VARIANT, seed=seed, fen=fen)


def daily_deal(day: datetime.date, node_budget: int | None = None) -> DailyDeal:
    budget = DAILY_NODE_BUDGET if node_budget is None else node_budget
    for k in range(MAX_SEEDS):
        seed = daily_seed(VARIANT.slug, day, k)
        game = _create(seed, None)
        result = solve(game, budget)
        if result.solvable:
            return DailyDeal(VARIANT.slug, day, seed, game.fen(), None, result.best_score, k + 1)
    raise RuntimeError(f"No KingSwap! deal for {day.isoformat()}: the solver proved none of the first "
                       f"{MAX_SEEDS} seeds within {budget} positions each.")


VARIANT = VariantInfo(
    slug="kingswap",
    name="KingSwap!",
    players=1,
    summary="Solo 5x5 puzzle: swap the lazy king from e1 to a5 and back, losing as few men as you can.",
    files=5,
    ranks=5,
    create=_create,
    score_name="casualties",
    score_better="lower",
    hint=kingswap_hint,
    daily=daily_deal,
)
