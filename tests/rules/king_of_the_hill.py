"""King of the Hill, declared as a newcomer would add a variant (a test fixture, not a registered game).

Everything below this docstring is the example in the README's "Adding a variant", word for word
(tests/rules/test_adding_a_variant.py checks it), and mypy checks it as strictly as rules/."""
import chess

from rules.chess_variant import ChessVariant, colour_name
from rules.core import Ending, Outcome

HILL = chess.BB_D4 | chess.BB_D5 | chess.BB_E4 | chess.BB_E5


class KingOfTheHill(ChessVariant[None]):
    slug = "king-of-the-hill"
    name = "King of the Hill"
    summary = "Checkmate, or bring your King to d4, d5, e4 or e5."
    initial_state = None   # no state beyond the board

    def judge_goal(self, board: chess.Board, state: None, legal: list[chess.Move]) -> Outcome | None:
        for colour in (not board.turn, board.turn):   # the side that just moved first, as python-chess
            if board.kings & board.occupied_co[colour] & HILL:
                return Outcome.win(colour_name(colour), "king reached the hill", Ending.GOAL)
        return None


VARIANT = KingOfTheHill()
