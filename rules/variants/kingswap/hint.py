"""KingSwap!'s hint: the first move of the best tour the solver finds in the time asked.

The search works on the game's position (the game never changes) and also stops at a
`time.monotonic()` deadline. A search that proved no tour can be completed any more gives a hint
with no move that says so.
"""
from __future__ import annotations


from ...core import Game, Hint, stop_time
from .game import KingSwapGame
from .solver import solve

HINT_NODES_PER_SECOND = 4_000  # the solver's budget per second asked (the clock also stops it)


def kingswap_hint(game: Game, seconds: float, node_budget: int | None = None) -> Hint | None:
    assert isinstance(game, KingSwapGame)
    if game.outcome is not None:
        return None
    budget = max(200, int(seconds * HINT_NODES_PER_SECOND)) if node_budget is None else node_budget
    result = solve(game.position, budget, deadline=stop_time(seconds, node_budget))
    if result.solvable is False:   # the search was complete: a proof, not a budget spent
        return Hint(None, "The tour can no longer be completed from this position.", result.nodes)
    if not result.solvable or not result.line:
        return None
    n = result.best_score
    return Hint(result.line[0], f"Keeps a solution open: the tour can still be completed with {n} "
                                f"{'casualty' if n == 1 else 'casualties'}.", result.nodes)
