"""Standard chess: FIDE rules as python-chess has them."""
from ..chess_variant import ChessVariant


class Standard(ChessVariant[None]):
    slug = "standard"
    name = "Standard chess"
    summary = "Classic FIDE chess: checkmate the opposing king."
    initial_state = None     # no extra state beyond the board


VARIANT = Standard()
