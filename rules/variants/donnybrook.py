"""Donnybrook Chess: no check; take both enemy monarchs; captured pieces come back to their owner.

Rules card: data/rules/donnybrook.md. Men as data: the Queen steps like the King (`K`); every
other man is FIDE's, so python-chess's pseudo-legal generator is the fast path for them. No
royalty (nobody is ever in check), no castling, pawns promote to R, B or N only.

A captured Rook always goes back to its owner; a Bishop only while its owner still has a Queen, a
Knight only while its owner still has a King (decided from the board at the capture). The owner
puts it back on any vacant square as the first part of their next turn and then moves a
different man: `R@d4 g1f3`. The waiting man is the owner's hand (at most one man, always the
side to move's), written after the board like a crazyhouse pocket: `...[r] b - - 0 1`.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import chess

from ..core import BLACK, WHITE, BoardView, Outcome
from ..men import FIDE_MEN, NO_ROYALTY, Man
from ..notation import san
from ..position import Drop, FairyTurn, Judged, PartsVariant, Position, Step, colour_of, label_text
from ..spelling import placed

RETURNING = "RBN"
NAMES = {"R": "Rook", "B": "Bishop", "N": "Knight", "Q": "Queen", "K": "King", "P": "pawn"}


class Donnybrook(PartsVariant[FairyTurn]):
    slug = "donnybrook"
    name = "Donnybrook Chess"
    family = "GOAL"
    own_turns = True          # lists its turns itself (`turns`)
    summary = ("No check: capture both the enemy King and Queen (the Queen steps like a King). "
               "Captured Rooks, Bishops and Knights go back to their owner.")
    men = {**FIDE_MEN, "q": Man("queen (steps as a king)", "K")}
    royalty = NO_ROYALTY
    promotions = "rbn"
    has_hands = True
    back_rank_pawns = False
    drop_words = "puts the {man} back on {square}"

    # -- set-up and FEN --------------------------------------------------------------------------
    def validate(self, position: Position) -> None:
        super().validate(position)
        board = position.board
        white, black = position.hands
        waiting = white + black
        if len(waiting) > 1:
            raise ValueError("At most one captured man waits to be put back.")
        if waiting and waiting.upper() not in RETURNING:
            raise ValueError("Only a Rook, Bishop or Knight comes back after capture.")
        if position.hand(not board.turn):
            raise ValueError("A man waiting to be put back belongs to the player to move.")
        if waiting and not ~board.occupied & chess.BB_ALL:
            raise ValueError("There is no vacant square to put the waiting man on.")

    def fen(self, position: Position) -> str:
        text = position.board.fen(en_passant="fen")   # kept only where a pawn may take (no check)
        if any(position.hands):
            board_field, rest = text.split(" ", 1)
            text = f"{board_field}[{self.format_hands(position.hands)}] {rest}"
        return text

    # -- turns -------------------------------------------------------------------------------------
    def steps(self, position: Position) -> list[chess.Move]:
        return moves_on(position.board)

    def waiting(self, position: Position) -> str:
        """The letter (upper case) of the man the side to move must put back, or ""."""
        return position.hand(position.board.turn)

    def turns(self, position: Position) -> dict[str, FairyTurn]:
        letter = self.waiting(position)
        if not letter:
            return {move.uci(): (Step(move),) for move in moves_on(position.board)}
        out: dict[str, FairyTurn] = {}
        board = position.board
        # A man placed on a square only takes that square from its own side: it blocks the moves
        # that pass over or land on it. So every placement's moves are the base moves, filtered.
        base = [(m, Step(m), m.uci(), chess.BB_SQUARES[m.to_square] | chess.between(m.from_square, m.to_square))
                for m in moves_on(board)]
        for square in chess.scan_forward(~board.occupied & chess.BB_ALL):
            bit = chess.BB_SQUARES[square]
            drop = Drop(letter, square)
            head = drop.text + " "
            for _move, step, text, path in base:
                if not path & bit:
                    out[head + text] = (drop, step)
        return out

    def after(self, position: Position, turn: FairyTurn) -> Position:
        board = position.edit()
        us = board.turn
        hands = position.hands
        for part in turn:
            if isinstance(part, Drop):
                chess.BaseBoard.set_piece_at(board, part.square,
                                             chess.Piece(chess.PIECE_SYMBOLS.index(part.letter.lower()), us))
                hands = ("", "")
                continue
            move = part.move
            captured = self.captured(board, move)
            board.push(move)
            if captured is not None and returns(board, captured):
                hands = (captured.symbol().upper(), "") if captured.color == chess.WHITE else ("", captured.symbol().upper())
        if board.ep_square is not None and not board.has_pseudo_legal_en_passant():
            board.ep_square = None
        board.clear_stack()
        return Position(board, hands)

    # -- typed turns ---------------------------------------------------------------------------------
    def explain(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str:
        parts = text.split()
        letter = self.waiting(position)
        board = position.board
        if not letter:
            if "@" in parts[0]:
                return "You have no captured man waiting to be put back."
            if len(parts) > 1:
                return "A turn is one move here (no man of yours is waiting to be put back)."
            return super().explain(position, text, turns)
        name = NAMES[letter]
        example = min(turns) if turns else f"{letter}@d4 g1f3"
        if "@" not in parts[0]:
            return (f"Your {name} comes back first: put it on a vacant square, then move another man, "
                    f"both in one turn, e.g. {example}.")
        drop_letter, _, square = parts[0].partition("@")
        if drop_letter.upper() != letter:
            return f"The man waiting to come back is your {name}: write {letter}@<square>."
        square = square.lower()
        if square not in chess.SQUARE_NAMES:
            return f"I can't read {square!r} as a square."
        if board.piece_at(chess.parse_square(square)) is not None:
            return f"{square} is not vacant: put your {name} on an empty square."
        if len(parts) == 1:
            return (f"{letter}@{square} is only the placement: the turn needs a move by another man after it, "
                    f"e.g. {example}.")
        if len(parts) > 2:
            return "A turn here is the placement and one move, e.g. " + example + "."
        move_text = parts[1].lower()
        if move_text[:2] == square:
            return f"The {name} you put back on {square} may not move this turn: move a different man."
        work = position.edit()
        chess.BaseBoard.set_piece_at(work, chess.parse_square(square),
                                     chess.Piece(chess.PIECE_SYMBOLS.index(letter.lower()), work.turn))
        placed = Position(work, ("", ""))
        rest = {t.split(" ", 1)[1]: (t_parts[1],) for t, t_parts in turns.items() if t.startswith(f"{letter}@{square} ")}
        spelled = self.spell_first(placed, parts[1], rest)
        if spelled is not None:
            return f"{letter}@{square} {spelled} is not a legal turn here."
        return f"{letter}@{square} is fine, but {parts[1]} cannot follow it: " + self.why_not_first(placed, parts[1], rest)

    def spell(self, position: Position, text: str, turns: Mapping[str, FairyTurn]) -> str | None:
        parts = text.split()
        if len(parts) == 2 and "@" in parts[0] and self.waiting(position):
            head = placed(parts[0])
            prefix = head + " "
            rest = {t[len(prefix):]: (turn[1],) for t, turn in turns.items() if t.startswith(prefix)}
            if not rest:
                return None
            letter, square = head.split("@")
            work = position.edit()
            chess.BaseBoard.set_piece_at(work, chess.parse_square(square),
                                         chess.Piece(chess.PIECE_SYMBOLS.index(letter.lower()), work.turn))
            step = super().spell(Position(work, ("", "")), parts[1], rest)
            return None if step is None else prefix + step
        return super().spell(position, text, turns)

    def label(self, before: Position, turn: FairyTurn, turns: Mapping[str, FairyTurn]) -> str:
        """`R@d4, Nf3`: the placement, then the move in SAN on the board with the man put back."""
        first, second = turn[0], turn[-1]
        if not isinstance(first, Drop) or not isinstance(second, Step):
            return super().label(before, turn, turns)
        board = before.edit()
        chess.BaseBoard.set_piece_at(board, first.square,
                                     chess.Piece(chess.PIECE_SYMBOLS.index(first.letter.lower()), board.turn))
        head = first.text + " "
        moves = [part.move for text, t in turns.items() if text.startswith(head)
                 for part in t[1:] if isinstance(part, Step)]
        return label_text([first.text, san(board, second.move, moves)])

    def own_reason(self, position: Position, move: chess.Move) -> str | None:
        board = position.board
        piece = board.piece_at(move.from_square)
        assert piece is not None   # the mover's own man (`refuse_step` checked)
        if piece.piece_type == chess.PAWN and move.promotion in (chess.QUEEN, chess.KING):
            return "A pawn promotes only to a Rook, Bishop or Knight."
        if piece.piece_type == chess.KING and chess.square_distance(move.from_square, move.to_square) == 2 \
                and chess.square_rank(move.from_square) == chess.square_rank(move.to_square):
            return "There is no castling in Donnybrook Chess."
        if piece.piece_type == chess.QUEEN and chess.square_distance(move.from_square, move.to_square) > 1:
            return "The Queen moves only one square in any direction, like the King."
        return super().own_reason(position, move)

    def why_refused(self, position: Position, move: chess.Move) -> str:
        return "That move is not possible here."

    # -- the end and the view -----------------------------------------------------------------------
    def judge_goal(self, seen: Judged) -> Outcome | None:
        board = seen.position.board
        to_move = board.turn
        if not monarchs(board, to_move):
            return Outcome.win(colour_of(not to_move), "captured king and queen", "goal")
        if not monarchs(board, not to_move):
            return Outcome.win(colour_of(to_move), "captured king and queen", "goal")
        return None

    def checked(self, position: Position) -> list[int]:
        return []

    def view(self, position: Position, last: FairyTurn | None) -> BoardView:
        """Hands hold kinds ("N"); the view gives each man its owner's colour, as it will be put back."""
        view = super().view(position, last)
        return replace(view, hands={WHITE: view.hands[WHITE].upper(), BLACK: view.hands[BLACK].lower()})

    def caption(self, position: Position) -> str:
        board = position.board
        words = []
        letter = self.waiting(position)
        if letter:
            words.append(f"{colour_of(board.turn).capitalize()}'s {NAMES[letter]} waits to be put back.")
        for colour in (chess.WHITE, chess.BLACK):
            held = [NAMES[c] for c in "KQ" if board.pieces_mask(chess.PIECE_SYMBOLS.index(c.lower()), colour)]
            words.append(f"{colour_of(colour).capitalize()}: {' and '.join(held) if held else 'no monarch'}.")
        return " ".join(words)


def monarchs(board: chess.Board, colour: bool) -> int:
    return (board.kings | board.queens) & board.occupied_co[colour]


def returns(board: chess.Board, captured: chess.Piece) -> bool:
    """Does a man just captured (board: after the capture) go back to its owner? (rules card)"""
    owner = captured.color
    if captured.piece_type == chess.ROOK:
        return True
    if captured.piece_type == chess.BISHOP:
        return bool(board.queens & board.occupied_co[owner])
    if captured.piece_type == chess.KNIGHT:
        return bool(board.kings & board.occupied_co[owner])
    return False


def moves_on(board: chess.Board, skip: int | None = None) -> list[chess.Move]:
    """Every move of the side to move (no check, no castling): FIDE men by python-chess, the Queen
    one step in any direction, promotion to R, B or N. `skip`: a square whose man may not move."""
    us = board.turn
    queens = board.queens & board.occupied_co[us]
    source = chess.BB_ALL & ~queens
    if skip is not None:
        source &= ~chess.BB_SQUARES[skip]
    out = [m for m in board.generate_pseudo_legal_moves(source) if m.promotion not in (chess.QUEEN, chess.KING)]
    own = board.occupied_co[us]
    for square in chess.scan_forward(queens):
        if square == skip:
            continue
        for to in chess.scan_forward(chess.BB_KING_ATTACKS[square] & ~own):
            out.append(chess.Move(square, to))
    return out


VARIANT = Donnybrook()
__all__ = ["VARIANT", "Donnybrook", "monarchs", "moves_on", "returns"]
