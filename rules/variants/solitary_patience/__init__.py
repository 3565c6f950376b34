"""Solitary Patience Chess: the game (game.py) and its hint (hint.py), registered here with the
daily deal (seed k = 0 of the day, rules.daily.daily_seed; no par)."""
from __future__ import annotations

import datetime

from ...core import DailyDeal, VariantInfo
from ...daily import daily_seed
from .game import SolitaryPatienceGame
from .hint import patience_hint


def _create(seed: int | None, fen: str | None) -> SolitaryPatienceGame:
    return SolitaryPatienceGame(VARIANT, seed=seed, fen=fen)


def daily_deal(day: datetime.date, node_budget: int | None = None) -> DailyDeal:
    seed = daily_seed(VARIANT.slug, day)
    return DailyDeal(VARIANT.slug, day, seed, _create(seed, None).fen(), None, None, 1)


VARIANT = VariantInfo(
    slug="solitary-patience",
    name="Solitary Patience Chess",
    players=1,
    summary="Solo puzzle: bring both scattered armies home, moving the called piece type in a fixed cycle.",
    create=_create,
    score_name="men not home",
    score_better="lower",
    hint=patience_hint,
    daily=daily_deal,
)
