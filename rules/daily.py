"""The daily deal: the same puzzle for everyone, everywhere, on one UTC day.

    deal = rules.daily_deal("kingswap", datetime.date(2026, 1, 1))
    game = rules.new_game(deal.slug, seed=deal.seed, fen=deal.fen)

Seeds follow from the slug and the date alone: seed k is the first 8 bytes (big-endian) of
SHA-256 over the text "kibitz-daily:<slug>:<YYYY-MM-DD>:<k>". No clock, no Python `hash()`, no
global random state: every machine and Python version gets the same deal.

Each puzzle registers its deal as `VariantInfo.daily` (in its package under rules/variants/):

* KingSwap!: seeds k = 0, 1, 2, ... in turn; the first whose tour the solver proves within a
  budget of positions; `par` is the fewest casualties it found in that budget.
* Solitary Patience: seed k = 0; no par.
* Safe Passage: no seed (the array never changes); the target is level 3.
"""
from __future__ import annotations

import datetime
import hashlib
from collections.abc import Mapping

from .core import DailyDeal, VariantInfo


def daily_seed(slug: str, day: datetime.date, k: int = 0) -> int:
    """Seed number k of `slug` on `day`: SHA-256 of "kibitz-daily:<slug>:<YYYY-MM-DD>:<k>", first 8 bytes."""
    text = f"kibitz-daily:{slug}:{day.isoformat()}:{k}"
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def daily_slugs(registry: Mapping[str, VariantInfo]) -> tuple[str, ...]:
    """The puzzles with a daily deal, in the registry's order."""
    return tuple(slug for slug, info in registry.items() if info.daily is not None)


def daily_deal(registry: Mapping[str, VariantInfo], slug: str, day: datetime.date, *,
               node_budget: int | None = None) -> DailyDeal:
    """The deal of `slug` for the UTC day `day`. Raises ValueError for a puzzle without a daily deal."""
    info = registry.get(slug)
    if info is None or info.daily is None:
        raise ValueError(f"There is no daily deal for {slug!r}: only for {', '.join(daily_slugs(registry))}.")
    return info.daily(day, node_budget)
