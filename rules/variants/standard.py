"""Standard chess: FIDE rules as python-chess has them."""
from ..chess_variant import ChessVariant


class Standard(ChessVariant):
    slug = "standard"
    name = "Standard chess"
    summary = "Classic FIDE chess: checkmate the opposing king."


VARIANT = Standard()
