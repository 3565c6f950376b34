"""Daily deals (rules.daily): the same deal everywhere for a day, derived from the date and slug."""
import datetime
import functools
import hashlib
from pathlib import Path

import pytest

import rules
from rules.daily import daily_seed
from rules.variants.kingswap import DAILY_NODE_BUDGET
from rules.variants.kingswap.solver import solve

DAY = datetime.date(2026, 1, 1)
SKIPPING_DAY = datetime.date(2026, 1, 18)     # its first seed is not proved within the budget


def documented_seed(slug, day, k):
    """The formula as the rules cards state it."""
    text = f"kibitz-daily:{slug}:{day:%Y-%m-%d}:{k}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


# The solver's work is shared between tests: a deal, and a proof of a position within the daily
# budget, are each computed once (both are fixed by their arguments). Tests of the deal's
# determinism still compute it afresh.
deal = functools.cache(rules.daily_deal)


@functools.cache
def proved(fen):
    return solve(fen, DAILY_NODE_BUDGET)


def test_daily_slugs_are_the_three_solo_puzzles():
    assert set(rules.DAILY_SLUGS) == {"kingswap", "safe-passage", "solitary-patience"}
    assert all(rules.VARIANTS[slug].players == 1 for slug in rules.DAILY_SLUGS)


@pytest.mark.parametrize("slug", ["standard", "nonsense"])
def test_other_slugs_have_no_daily_deal(slug):
    with pytest.raises(ValueError, match="no daily deal"):
        rules.daily_deal(slug, DAY)


def test_seeds_follow_the_documented_hash_of_slug_date_and_index():
    for k in range(3):
        assert daily_seed("kingswap", DAY, k) == documented_seed("kingswap", DAY, k)
    assert daily_seed("kingswap", DAY, 0) != daily_seed("solitary-patience", DAY, 0)
    assert daily_seed("kingswap", DAY, 0) != daily_seed("kingswap", DAY + datetime.timedelta(days=1), 0)


def test_safe_passage_daily_is_the_fixed_array_with_the_level_three_target():
    deal = rules.daily_deal("safe-passage", DAY)
    assert (deal.slug, deal.day, deal.seed, deal.level, deal.par) == ("safe-passage", DAY, None, 3, None)
    game = rules.new_game(deal.slug, seed=deal.seed, fen=deal.fen)
    assert game.view().caption.endswith("target level 3")
    assert game.fen().split()[:6] == rules.new_game("safe-passage").fen().split()[:6]
    assert rules.daily_deal("safe-passage", DAY + datetime.timedelta(days=5)).fen == deal.fen


def test_solitary_patience_daily_is_the_deal_of_the_first_seed_of_the_day():
    deal = rules.daily_deal("solitary-patience", DAY)
    assert deal.seed == documented_seed("solitary-patience", DAY, 0)
    assert deal.fen == rules.new_game("solitary-patience", seed=deal.seed).fen()
    assert (deal.level, deal.par, deal.tried) == (None, None, 1)
    other = rules.daily_deal("solitary-patience", DAY + datetime.timedelta(days=1))
    assert other.fen != deal.fen


@pytest.mark.parametrize("day", [DAY, SKIPPING_DAY])
def test_kingswap_daily_is_the_first_seed_the_solver_proves_and_par_is_its_best_score(day):
    dealt = deal("kingswap", day)
    assert dealt.seed == documented_seed("kingswap", day, dealt.tried - 1)
    assert day != SKIPPING_DAY or dealt.tried > 1
    for k in range(dealt.tried - 1):
        skipped = rules.new_game("kingswap", seed=documented_seed("kingswap", day, k))
        assert proved(skipped.fen()).solvable is not True
    result = proved(dealt.fen)
    assert result.solvable is True and result.best_score == dealt.par
    game = rules.new_game(dealt.slug, seed=dealt.seed, fen=dealt.fen)
    assert game.fen() == rules.new_game("kingswap", seed=dealt.seed).fen() == dealt.fen
    for move in result.line:
        game.play(move)
    assert game.outcome is not None and game.outcome.result == "solved" and game.outcome.score == dealt.par


def test_kingswap_daily_is_the_same_on_every_call():
    assert rules.daily_deal("kingswap", DAY) == deal("kingswap", DAY)


def test_kingswap_daily_deal_is_the_same_under_two_budgets_that_both_prove_it():
    small = rules.daily_deal("kingswap", DAY, node_budget=DAILY_NODE_BUDGET)
    large = rules.daily_deal("kingswap", DAY, node_budget=2 * DAILY_NODE_BUDGET)
    assert (small.seed, small.fen, small.tried) == (large.seed, large.fen, large.tried)
    assert large.par is not None and small.par is not None


def test_kingswap_daily_fails_clearly_when_no_seed_can_be_proved():
    with pytest.raises(RuntimeError, match="proved none of the first 64 seeds"):
        rules.daily_deal("kingswap", DAY, node_budget=1)


def test_most_kingswap_seeds_are_proved_within_the_daily_budget():
    """64 unproved seeds in a row must never happen: the share proved is high."""
    proofs = sum(bool(proved(rules.new_game("kingswap", seed=documented_seed("kingswap", DAY, k)).fen()).solvable)
                 for k in range(6))
    assert proofs >= 4


def test_kingswap_rules_card_states_the_seed_text_and_the_node_budget():
    card = (Path(__file__).resolve().parents[2] / "data" / "rules" / "kingswap.md").read_text(encoding="utf-8")
    assert "kibitz-daily:kingswap:YYYY-MM-DD:k" in card
    assert f"{DAILY_NODE_BUDGET:,} positions" in card


@pytest.mark.parametrize("slug, day, tried, par, fen", [
    ("kingswap", DAY, 1, 6, "PNQNB/QRRQQ/PBRRB/BQNRP/RRBPK 1 0"),
    ("kingswap", SKIPPING_DAY, 2, 5, "QNPQR/RQNNN/NRBNP/NPQNP/PNBBK 1 0"),
    ("solitary-patience", DAY, 1, None, "8/NpppBppp/pP1PpPPb/4PNK1/P1P1r2R/q1nB1k1b/1R1Qnr1P/8 w - - 0 1"),
])
def test_the_deal_of_a_fixed_day_is_the_same_on_every_machine(slug, day, tried, par, fen):
    """Pinned: a change to the seed text, the set-up draw or the solver's order would deal another puzzle."""
    dealt = deal(slug, day)
    assert (dealt.tried, dealt.par, dealt.fen) == (tried, par, fen)
