"""Reentrant Chess: two half-boards, ownership by colour and half, captured men dropped back.

Rules card: data/rules/reentrant.md. The board holds the men's real colours; who owns a man
follows from its colour and its half (files a-d / e-h): the first player ("white" in the API)
owns the black men on a-d and the white men on e-h. Men as data, confined to their half by a
`region` (they move, capture, attack and block only there): King and Queen `K` (both royal),
Rook `R`, Knight `N`, pawn `mWcF` (steps along rank or file, captures diagonally, any
direction). A captured man goes to the capturer's hand with its colour and comes back as a
whole turn, `P@e4`, on the other half, where the dropper's men have that colour.

The board cannot be played with python-chess's `push` (it gives the moved man the mover's
colour), so moves and drops are made here on a board copy. Hands in FEN: `[first,second]`
after the board, letters in the men's colours; left out when both are empty.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import chess

from ..core import BLACK, WHITE, BoardView, IllegalMove
from ..men import Man, MenTable, man_at
from ..notation import san, spelled
from ..refusals import ambiguous, refuse_spelling, refuse_step
from ..spelling import placed
from ..position import (
    Drop,
    PartsVariant,
    Position,
    Step,
    explain_by_prefix,
    sort_hand,
    split_hands,
)

ReentrantTurn = tuple[Step | Drop]   # one move or one drop

LEFT = chess.BB_FILE_A | chess.BB_FILE_B | chess.BB_FILE_C | chess.BB_FILE_D
RIGHT = chess.BB_ALL & ~LEFT
_put = chess.BaseBoard.set_piece_at
_take = chess.BaseBoard.remove_piece_at


def half(square: int) -> int:
    return LEFT if chess.BB_SQUARES[square] & LEFT else RIGHT


def owned(board: chess.Board, player: bool) -> int:
    """The men of `player` (chess.WHITE = first player): colour and half decide (rules card)."""
    black, white = board.occupied_co[chess.BLACK], board.occupied_co[chess.WHITE]
    if player == chess.WHITE:
        return (black & LEFT) | (white & RIGHT)
    return (white & LEFT) | (black & RIGHT)


def colour_on(player: bool, area: int) -> bool:
    """The colour `player`'s men have on the half `area`."""
    return (chess.BLACK if area == LEFT else chess.WHITE) if player == chess.WHITE else \
        (chess.WHITE if area == LEFT else chess.BLACK)


def by_owner(board: chess.Board) -> chess.Board:
    """A copy of `board` whose men have their owners' colours: SAN read and written on it sees
    captures and the men of each side as the players do."""
    out = board.copy(stack=False)
    out.occupied_co[chess.WHITE], out.occupied_co[chess.BLACK] = owned(board, chess.WHITE), owned(board, chess.BLACK)
    return out


def owner(board: chess.Board, square: int) -> bool | None:
    colour = board.color_at(square)
    if colour is None:
        return None
    return chess.WHITE if colour == colour_on(chess.WHITE, half(square)) else chess.BLACK


class Reentrant(PartsVariant[ReentrantTurn]):
    slug = "reentrant"
    name = "Reentrant Chess"
    family = "GOAL"
    own_turns = True          # lists its turns itself (`turns`)
    summary = "Two half-boards; your men are black on one, white on the other; captured men re-enter."
    start_fen = "RNQ2knr/PPPPpppp/8/8/8/8/ppppPPPP/rnq2KNR w - - 0 1"
    has_hands = True
    men = {"k": Man("king", "K"), "q": Man("queen (steps as a king)", "K"), "r": Man("rook", "R"),
           "n": Man("knight", "N"), "p": Man("pawn", "mWcF")}

    def __init__(self) -> None:
        self.table = MenTable(self.men, region=half)

    # -- FEN: hands as [first,second] in the men's colours --------------------------------------------
    def load(self, fen: str) -> Position:
        fields = fen.split()
        if not fields:
            raise ValueError("Empty FEN.")
        board_field, hand_text = split_hands(fields[0])
        position = super().load(" ".join([board_field, *fields[1:]]))
        board = position.board
        board.castling_rights = chess.BB_EMPTY
        board.ep_square = None
        hands = self.parse_hands(hand_text or "")
        position = Position(board, hands)
        self.validate(position)
        return position

    def parse_hands(self, text: str) -> tuple[str, str]:
        if not text:
            return "", ""
        if text.count(",") != 1:
            raise ValueError("Hands are written [first,second], like [Pn,r].")
        first, second = text.split(",")
        for letter in first + second:
            if letter.upper() not in "PNR":
                raise ValueError(f"{letter!r} cannot be in hand: only pawns, knights and rooks are captured.")
        return sort_hand(first), sort_hand(second)

    def format_hands(self, hands: tuple[str, str]) -> str:
        return f"{hands[0]},{hands[1]}"

    def fen(self, position: Position) -> str:
        board_field, rest = position.board.fen(en_passant="fen").split(" ", 1)
        if any(position.hands):
            board_field += f"[{self.format_hands(position.hands)}]"
        return f"{board_field} {rest}"

    def validate(self, position: Position) -> None:
        board = position.board
        if board.bishops:
            raise ValueError("There are no Bishops in Reentrant Chess.")
        waiting = not board.turn
        if any(self.attacked(board, sq) for sq in self.monarchs(board, waiting)):
            raise ValueError("The player not to move cannot have a monarch in check.")

    # -- check -------------------------------------------------------------------------------------
    def monarchs(self, board: chess.Board, player: bool) -> list[int]:
        return list(chess.scan_forward((board.kings | board.queens) & owned(board, player)))

    def attacked(self, board: chess.Board, square: int) -> bool:
        """Is the man on `square` attacked by an enemy on its half (the other colour there)?"""
        return self.table.is_attacked(board, not board.color_at(square), square)

    def checked(self, position: Position) -> list[int]:
        board = position.board
        return [sq for sq in self.monarchs(board, board.turn) if self.attacked(board, sq)]

    # -- turns -------------------------------------------------------------------------------------
    def candidates(self, position: Position) -> list[ReentrantTurn]:
        board = position.board
        us = board.turn
        mine = owned(board, us)
        theirs = owned(board, not us)
        out: list[ReentrantTurn] = []
        for square in chess.scan_forward(mine):
            moves, attacks = self.table.reach(board, square, man_at(board, square))
            for to in chess.scan_forward(moves | (attacks & theirs & ~(board.kings | board.queens))):
                out.append((Step(chess.Move(square, to)),))
        hand = position.hand(us)
        for letter in sorted(set(hand)):
            colour = chess.WHITE if letter.isupper() else chess.BLACK
            area = LEFT if colour_on(us, LEFT) == colour else RIGHT
            for to in chess.scan_forward(area & ~board.occupied):
                out.append((Drop(letter.upper(), to),))
        return out

    def turns(self, position: Position, candidates: list[ReentrantTurn] | None = None) -> dict[str, ReentrantTurn]:
        """The candidates (default: all) after which no monarch of the mover's stands attacked, each
        tried on one board copy and taken back (the men as `after` places them; hands and the turn
        do not matter)."""
        us = position.board.turn
        work = position.edit()
        out: dict[str, ReentrantTurn] = {}
        for turn in self.candidates(position) if candidates is None else candidates:
            part = turn[0]
            if isinstance(part, Step):
                move = part.move
                man, taken = man_at(work, move.from_square), work.piece_at(move.to_square)
                _take(work, move.from_square)
                _put(work, move.to_square, man)
            else:
                letter = part.letter.upper() if colour_on(us, half(part.square)) == chess.WHITE else part.letter.lower()
                _put(work, part.square, chess.Piece.from_symbol(letter))
            if not any(self.attacked(work, sq) for sq in self.monarchs(work, us)):
                out[part.text] = turn
            if isinstance(part, Step):
                _put(work, part.move.from_square, man)
                if taken is None:
                    _take(work, part.move.to_square)
                else:
                    _put(work, part.move.to_square, taken)
            else:
                _take(work, part.square)
        return out

    def split(self, position: Position) -> tuple[list[Step | Drop], Callable[[Step | Drop], dict[str, ReentrantTurn]]]:
        return [turn[0] for turn in self.candidates(position)], lambda part: self.turns(position, [(part,)])

    def after(self, position: Position, turn: ReentrantTurn) -> Position:
        board = position.edit()
        us = board.turn
        hands = position.hands
        part = turn[0]
        if isinstance(part, Step):
            move = part.move
            man = man_at(board, move.from_square)
            taken = board.piece_at(move.to_square)
            _take(board, move.from_square)
            _put(board, move.to_square, man)
            if taken is not None:
                hands = _add(hands, us, taken.symbol())
            board.halfmove_clock = 0 if taken is not None or man.piece_type == chess.PAWN else board.halfmove_clock + 1
        else:
            colour = colour_on(us, half(part.square))
            letter = part.letter.upper() if colour == chess.WHITE else part.letter.lower()
            _put(board, part.square, chess.Piece.from_symbol(letter))
            hands = _remove(hands, us, letter)
            board.halfmove_clock += 1
        if us == chess.BLACK:
            board.fullmove_number += 1
        board.turn = not us
        return Position(board, hands)

    # -- notation: moves in SAN (`Nc3`, `e3`, `dxc3`), drops as typed (`P@e4`) ---------------------------
    def label(self, before: Position, turn: ReentrantTurn, turns: Mapping[str, ReentrantTurn]) -> str:
        part = turn[0]
        if isinstance(part, Drop):
            return part.text
        return san(by_owner(before.board), part.move, steps(turns))

    def spell(self, position: Position, text: str, turns: Mapping[str, ReentrantTurn]) -> str | None:
        text = text.strip()
        if "@" in text:
            candidate = placed(text)
            return candidate if candidate in turns else None
        if " " in text:
            return None
        hits = spelled(by_owner(position.board), text, steps(turns))
        if len(hits) > 1:
            raise IllegalMove(ambiguous(text, min(hits)))
        return hits.pop() if hits else None

    def explain(self, position: Position, text: str, turns: Mapping[str, ReentrantTurn]) -> str:
        board = position.board
        parts = text.split()
        if len(parts) > 1:
            return "A turn in Reentrant Chess is one move (d2d3) or one drop (P@e4)."
        text = parts[0]
        if "@" in text:
            letter, _, square = text.partition("@")
            if letter.upper() not in "PNR" or len(letter) != 1 or square.lower() not in chess.SQUARE_NAMES:
                return f"I can't read {text!r} as a drop. Write the man and the square, like P@e4."
            sq = chess.parse_square(square.lower())
            held = position.hand(board.turn)
            if letter.upper() not in held.upper():
                return f"You have no {chess.piece_name(chess.PIECE_SYMBOLS.index(letter.lower()))} in hand."
            if board.piece_at(sq) is not None:
                return f"{square.lower()} is not empty."
            colours = {c for c in held if c.upper() == letter.upper()}
            allowed = {("e-h" if colour_on(board.turn, RIGHT) == (c.isupper()) else "a-d") for c in colours}
            if all((half(sq) == RIGHT) != (a == "e-h") for a in allowed):
                return f"That man re-enters only on files {' or '.join(sorted(allowed))}, the half where your men have its colour."
            return "That drop leaves one of your monarchs in check."
        try:
            move = chess.Move.from_uci(text.lower())
        except ValueError:
            candidates = [t[0].move for t in self.candidates(position) if isinstance(t[0], Step)]
            named = sorted(spelled(by_owner(board), text, candidates))
            return refuse_spelling(text, named, lambda uci: self.explain(position, uci, turns),
                                   "Use SAN like Nc3, from-to squares like d2d3, or a drop like P@e4.")
        return refuse_step(board, move, lambda step: self.step_reason(position, step),
                           owner=lambda square: owner(board, square))

    def step_reason(self, position: Position, move: chess.Move) -> str | None:
        board = position.board
        if half(move.from_square) != half(move.to_square):
            return "No man crosses the centre line between the d- and e-files."
        if move.promotion:
            return "Pawns never promote in Reentrant Chess: write the move without a letter."
        if any(t[0].text == move.uci() for t in self.candidates(position)):
            return "That leaves one of your monarchs in check."
        target = board.piece_at(move.to_square)
        if target is not None and target.piece_type in (chess.KING, chess.QUEEN) and owner(board, move.to_square) != board.turn:
            return "Kings and Queens are never captured: checkmate one of them instead."
        return None

    def owners(self, position: Position) -> dict[str, str]:
        board = position.board
        return {chess.square_name(sq): (WHITE if owner(board, sq) == chess.WHITE else BLACK)
                for sq in chess.scan_forward(board.occupied)}

    def caption(self, position: Position) -> str:
        if position.board.turn == chess.WHITE:
            return "First player to move (owns black men on a-d, white men on e-h)."
        return "Second player to move (owns white men on a-d, black men on e-h)."

    def view(self, position: Position, last: ReentrantTurn | None) -> BoardView:
        return replace(super().view(position, last), split_file=4)   # the line between the half-boards


def steps(turns: Mapping[str, ReentrantTurn]) -> list[chess.Move]:
    return [t[0].move for t in turns.values() if isinstance(t[0], Step)]


def _add(hands: tuple[str, str], player: bool, letter: str) -> tuple[str, str]:
    i = 0 if player == chess.WHITE else 1
    new = list(hands)
    new[i] = sort_hand(new[i] + letter)
    return new[0], new[1]


def _remove(hands: tuple[str, str], player: bool, letter: str) -> tuple[str, str]:
    i = 0 if player == chess.WHITE else 1
    new = list(hands)
    new[i] = new[i].replace(letter, "", 1)
    return new[0], new[1]


VARIANT = Reentrant()
__all__ = ["VARIANT", "Reentrant", "explain_by_prefix", "owned", "owner"]
