"""Safe Passage: the game (game.py) and its hint (hint.py), registered here with the daily deal.

The daily deal has no seed (the array never changes); its target is the highest level.
"""
from __future__ import annotations

import datetime

from ...core import DailyDeal
from .game import LEVELS, SafePassage, start_fen
from .hint import passage_hint


def daily_deal(day: datetime.date, node_budget: int | None = None) -> DailyDeal:
    return DailyDeal(SafePassage.slug, day, None, start_fen(LEVELS), LEVELS, None, 0)


VARIANT = SafePassage(hint=passage_hint, daily=daily_deal)
