"""Balanced Swap Chess: every turn is a regular FIDE move followed by a swap of two men.

Rules card: data/rules/balanced-swap.md. A turn is two parts, `b8c6 f8/g7` (White's very
first turn is the regular move alone). The swap exchanges one of the mover's men (A) with any
man (B) on a square of A's swap pattern, seen from A's square after the regular move: knight
and king squares, the first man along each line of a rook, bishop or queen, and a pawn's
forward step, initial double step (from its own first two ranks, over an empty square) and
forward diagonals. Two men of the same colour and kind never swap. A swap that puts a pawn on
its last rank promotes it (`a1/a4n`), the swapper choosing. After the whole turn the mover's
king must not be attacked. A player with no complete turn loses.

Regular moves are python-chess's own legal moves (which already let a pawn on its first rank
step two squares); the swap is worked out on a copy after the regular move, and its king-safety
test looks only at the two swapped squares (a swap keeps the occupancy) unless the king is swapped.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import chess

from ..chess_variant import san
from ..core import Ending
from ..endings import NoMove
from ..lookahead import after as board_after, pushed, scratch
from ..men import man_at
from ..refusals import cannot_reach, whose
from ..position import PartsVariant, Position, Step, Swap, label_text, whole_turns

SwapTurn = tuple[Step] | tuple[Step, Swap]   # a regular move, then a swap (the first turn: the move alone)

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
_LAST_RANK = {chess.WHITE: chess.BB_RANK_8, chess.BLACK: chess.BB_RANK_1}
_CASTLING_SQUARES = {chess.E1: chess.BB_RANK_1, chess.A1: chess.BB_A1, chess.H1: chess.BB_H1,
                     chess.E8: chess.BB_RANK_8, chess.A8: chess.BB_A8, chess.H8: chess.BB_H8}
_SWAP_TEXT = re.compile(r"[KQRBNP]?([a-h][1-8])/[KQRBNP]?([a-h][1-8])([qrbn]?)")
_put = chess.BaseBoard.set_piece_at   # places a man without clearing the board's move stack


def swap_pattern(board: chess.Board, square: int) -> int:
    """The squares (occupied or not) a man on `square` could swap with, by the rules card."""
    piece = man_at(board, square)
    if piece.piece_type != chess.PAWN:
        return board.attacks_mask(square)
    colour = piece.color
    step = 8 if colour == chess.WHITE else -8
    mask = chess.BB_PAWN_ATTACKS[colour][square]
    ahead = square + step
    if 0 <= ahead < 64:
        mask |= chess.BB_SQUARES[ahead]
        rank = chess.square_rank(square) if colour == chess.WHITE else 7 - chess.square_rank(square)
        if rank <= 1 and not board.occupied & chess.BB_SQUARES[ahead]:
            mask |= chess.BB_SQUARES[ahead + step]
    return mask


def promotes(piece: chess.Piece, square: int) -> bool:
    return piece.piece_type == chess.PAWN and bool(_LAST_RANK[piece.color] & chess.BB_SQUARES[square])


def swap_pairs(board: chess.Board, mover: bool) -> dict[tuple[int, int], tuple[int, int]]:
    """Unordered pair -> (x, y) in canonical order, for every swap the pattern allows (before the
    king-safety test): x is the mover's man whose pattern holds y; lower square first if both."""
    pairs: dict[tuple[int, int], tuple[int, int]] = {}
    occupied = board.occupied
    for x in chess.scan_forward(board.occupied_co[mover]):
        a = board.piece_type_at(x)
        for y in chess.scan_forward(swap_pattern(board, x) & occupied):
            if board.piece_type_at(y) == a and board.color_at(y) == mover:
                continue   # like for like changes nothing (rules card)
            key = (x, y) if x < y else (y, x)
            pairs[key] = key if key in pairs else (x, y)
    return pairs


def attack_masks(board: chess.Board, mover: bool, king: int) -> list[int]:
    """Per piece type: the squares from which an enemy man of that type attacks `king`, with the
    board's occupancy (a swap never changes occupancy: both squares are full before and after)."""
    return occupancy_masks(board.occupied, mover, king)


def occupancy_masks(occupied: int, mover: bool, king: int) -> list[int]:
    """`attack_masks` for the squares `occupied`."""
    straight = (chess.BB_RANK_ATTACKS[king][chess.BB_RANK_MASKS[king] & occupied]
                | chess.BB_FILE_ATTACKS[king][chess.BB_FILE_MASKS[king] & occupied])
    diagonal = chess.BB_DIAG_ATTACKS[king][chess.BB_DIAG_MASKS[king] & occupied]
    return [0, chess.BB_PAWN_ATTACKS[mover][king], chess.BB_KNIGHT_ATTACKS[king], diagonal, straight,
            straight | diagonal, chess.BB_KING_ATTACKS[king]]


def swap_versions(board: chess.Board, mover: bool, x: int, y: int,
                  masks: list[int] | None = None) -> list[int | None]:
    """The promotion choices of swap x/y ([None] if no pawn reaches its last rank), keeping only
    those after which the mover's king is safe. `board` is left as it was; `masks` are the
    `attack_masks` of the mover's king after the regular move, when known.

    The mover's king was safe after the regular move, and a swap keeps the occupancy, so unless
    the king itself is swapped only the two swapped squares can bring an attack."""
    px, py = man_at(board, x), man_at(board, y)
    promoting = promotes(px, y) or promotes(py, x)
    choices: list[int | None] = list(PROMOTIONS) if promoting else [None]
    king_swapped = (px.piece_type == chess.KING and px.color == mover) or (py.piece_type == chess.KING and py.color == mover)
    if not king_swapped:
        king = board.king(mover)
        if king is None:
            return choices
        if masks is None:
            masks = attack_masks(board, mover, king)
        safe = []
        for choice in choices:
            at_x, at_y = _promoted(py, x, choice), _promoted(px, y, choice)
            if ((at_x.color != mover and masks[at_x.piece_type] & chess.BB_SQUARES[x])
                    or (at_y.color != mover and masks[at_y.piece_type] & chess.BB_SQUARES[y])):
                continue
            safe.append(choice)
        return safe
    safe = []
    king = y if px.piece_type == chess.KING and px.color == mover else x
    for choice in choices:
        _put(board, x, _promoted(py, x, choice))
        _put(board, y, _promoted(px, y, choice))
        if not board.attackers_mask(not mover, king):
            safe.append(choice)
        _put(board, x, px)
        _put(board, y, py)
    return safe


def _promoted(piece: chess.Piece, square: int, choice: int | None) -> chess.Piece:
    return chess.Piece(choice, piece.color) if choice and promotes(piece, square) else piece


# Swap x/y (with its promotion) -> its text and part, made once per process: a middlegame lists
# about a thousand swaps, almost all seen before. Swaps without a promotion by x * 64 + y.
_SWAP_PARTS: dict[tuple[int, int, int | None], tuple[str, Swap]] = {}
_PLAIN_SWAPS: list[tuple[str, Swap] | None] = [None] * 4096


def _swap_part(x: int, y: int, choice: int | None) -> tuple[str, Swap]:
    found = _SWAP_PARTS.get((x, y, choice))
    if found is None:
        found = _SWAP_PARTS[(x, y, choice)] = (
            f"{chess.SQUARE_NAMES[x]}/{chess.SQUARE_NAMES[y]}{chess.piece_symbol(choice) if choice else ''}",
            Swap(x, y, choice))
        if choice is None:
            _PLAIN_SWAPS[x * 64 + y] = found
    return found


def _pawn_patterns() -> tuple[list[list[int]], list[list[int]]]:
    """A pawn's swap pattern by colour and square, as `swap_pattern` finds it: `near` (its forward
    diagonals and step) always, and `far` (its double step's square; 0 where it has none) when
    the step's square is empty."""
    near, far = [[0] * 64, [0] * 64], [[0] * 64, [0] * 64]
    for colour in chess.COLORS:
        step = 8 if colour == chess.WHITE else -8
        for square in chess.SQUARES:
            near[colour][square] = chess.BB_PAWN_ATTACKS[colour][square]
            ahead = square + step
            if 0 <= ahead < 64:
                near[colour][square] |= chess.BB_SQUARES[ahead]
                rank = chess.square_rank(square) if colour == chess.WHITE else 7 - chess.square_rank(square)
                if rank <= 1:
                    far[colour][square] = chess.BB_SQUARES[ahead + step]
    return near, far


_PAWN_NEAR, _PAWN_FAR = _pawn_patterns()


@dataclass(frozen=True, slots=True)
class Men:
    """The men of a position as swap_turns reads them: the kind on each square (0: empty), the
    bitboard of each kind (indexed by kind, [0] unused), and each colour's squares."""
    kinds: list[int]
    boards: list[int]
    white: int
    black: int


def men_of(board: chess.Board) -> Men:
    boards = [0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings]
    kinds = [0] * 64
    for kind in range(1, 7):
        men = boards[kind]
        while men:
            low = men & -men
            kinds[low.bit_length() - 1] = kind
            men ^= low
    return Men(kinds, boards, board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK])


def men_after(board: chess.Board, men: Men, regular: chess.Move) -> Men:
    """The men after the legal FIDE move `regular` (as `board.push` places them: a capture, en
    passant, castling as the king's two-file step with its rook, a promotion)."""
    kinds, boards = men.kinds.copy(), men.boards.copy()
    white, black = men.white, men.black
    f, t = regular.from_square, regular.to_square
    bf, bt = chess.BB_SQUARES[f], chess.BB_SQUARES[t]
    kind = kinds[f]
    moved = bf | bt
    taken = kinds[t]
    if taken:
        boards[taken] ^= bt
    elif kind == chess.PAWN and (t - f) % 8:   # a pawn's diagonal step to an empty square: en passant
        square = t - 8 if board.turn == chess.WHITE else t + 8
        boards[chess.PAWN] ^= chess.BB_SQUARES[square]
        kinds[square] = 0
        taken = chess.PAWN
        if board.turn == chess.WHITE:
            black ^= chess.BB_SQUARES[square]
        else:
            white ^= chess.BB_SQUARES[square]
    new = regular.promotion or kind
    boards[kind] ^= bf
    boards[new] |= bt
    kinds[f], kinds[t] = 0, new
    if kind == chess.KING and abs(t - f) == 2:   # castling: the rook crosses to the king's other side
        rook, to = (t + 1, t - 1) if t > f else (t - 2, t + 1)
        boards[chess.ROOK] ^= chess.BB_SQUARES[rook] | chess.BB_SQUARES[to]
        kinds[rook], kinds[to] = 0, chess.ROOK
        moved |= chess.BB_SQUARES[rook] | chess.BB_SQUARES[to]
    if board.turn == chess.WHITE:
        white ^= moved
        black &= ~bt
    else:
        black ^= moved
        white &= ~bt
    return Men(kinds, boards, white, black)


def swap_turns(board: chess.Board, regular: chess.Move, work: chess.Board,
               men: Men | None = None) -> dict[str, SwapTurn]:
    """Every complete turn beginning with `regular` (work: a copy of `board`, left unchanged; men:
    `men_of(board)`, when known).

    The same as `swap_pairs` + `swap_versions`, written flat over bitboards: this is the hot loop
    of the variant (about a thousand turns in a middlegame). The men after the regular move are
    the position's, a few squares changed (`men_after`: no board is pushed). Each swap is met from
    the mover's man x whose pattern holds y, x in square order; a swap of two of the mover's men
    is met again from y when x is in y's pattern too, and only its first meeting counts. Bits are
    read with `bb & -bb` rather than `chess.scan_forward` (a generator per man costs more)."""
    mover = board.turn
    step_part = Step(regular)
    head = regular.uci() + " "
    out: dict[str, SwapTurn] = {}
    placed = men_after(board, men or men_of(board), regular)
    kinds, boards, white, black = placed.kinds, placed.boards, placed.white, placed.black
    mine, theirs = (white, black) if mover == chess.WHITE else (black, white)
    PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING
    kings = boards[KING] & mine
    if not kings:   # no king of the mover's (a set-up may lack one): the plain reading
        with pushed(work, regular) as now:
            for x, y in swap_pairs(now, mover).values():
                for choice in swap_versions(now, mover, x, y):
                    text, part = _swap_part(x, y, choice)
                    out[head + text] = (step_part, part)
            return out
    occupied = white | black
    masks = occupancy_masks(occupied, mover, kings.bit_length() - 1)
    rank_attacks, rank_masks = chess.BB_RANK_ATTACKS, chess.BB_RANK_MASKS
    file_attacks, file_masks = chess.BB_FILE_ATTACKS, chess.BB_FILE_MASKS
    diag_attacks, diag_masks = chess.BB_DIAG_ATTACKS, chess.BB_DIAG_MASKS
    knight_attacks, king_attacks = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS
    pawn_near, pawn_far = _PAWN_NEAR[mover], _PAWN_FAR[mover]
    step = 8 if mover == chess.WHITE else -8
    plain = _PLAIN_SWAPS
    last_white, last_black = chess.BB_RANK_8, chess.BB_RANK_1
    patterns = [0] * 64
    choices: list[int | None]
    rest = mine
    while rest:
        bx = rest & -rest
        rest ^= bx
        x = bx.bit_length() - 1
        tx = kinds[x]
        if tx == PAWN:
            pattern = pawn_near[x]
            if pawn_far[x] and not occupied & chess.BB_SQUARES[x + step]:
                pattern |= pawn_far[x]
        elif tx == KNIGHT:
            pattern = knight_attacks[x]
        elif tx == KING:
            pattern = king_attacks[x]
        else:
            pattern = 0
            if tx != BISHOP:
                pattern |= rank_attacks[x][rank_masks[x] & occupied] | file_attacks[x][file_masks[x] & occupied]
            if tx != ROOK:
                pattern |= diag_attacks[x][diag_masks[x] & occupied]
        patterns[x] = pattern
        others = pattern & occupied
        while others:
            by = others & -others
            others ^= by
            y = by.bit_length() - 1
            ty = kinds[y]
            if mine & by and (ty == tx or (y < x and patterns[y] & bx)):
                continue   # like for like changes nothing (rules card); or met already from y
            # a pawn promotes when it lands on its last rank
            promoting = ((tx == PAWN and by & (last_white if white & bx else last_black))
                         or (ty == PAWN and bx & (last_white if white & by else last_black)))
            if tx == KING or (ty == KING and mine & by):
                # The king changes square; occupancy does not. Enemy men elsewhere attack its new
                # square as they do now; the other man, now on the king's old square, may too.
                new, old, other, other_bb = (y, x, ty, by) if tx == KING else (x, y, tx, bx)
                reach = occupancy_masks(occupied, mover, new)
                if theirs & ~chess.BB_SQUARES[new] & (
                        reach[PAWN] & boards[PAWN] | reach[KNIGHT] & boards[KNIGHT] | reach[KING] & boards[KING]
                        | reach[BISHOP] & (boards[BISHOP] | boards[QUEEN]) | reach[ROOK] & (boards[ROOK] | boards[QUEEN])):
                    continue
                if mine & other_bb:
                    choices = list(PROMOTIONS) if promoting else [None]
                else:
                    old_bb = chess.BB_SQUARES[old]
                    if other == PAWN and old_bb & (last_white if white & other_bb else last_black):
                        choices = [c for c in PROMOTIONS if not reach[c] & old_bb]
                    else:
                        choices = [] if reach[other] & old_bb else [None]
            elif not promoting:
                # no promotion: the plain swap, unless it uncovers an attack on the king
                if not mine & by and masks[ty] & bx:
                    continue
                found = plain[x * 64 + y] or _swap_part(x, y, None)
                out[head + found[0]] = (step_part, found[1])
                continue
            else:
                choices = []
                for piece in PROMOTIONS:
                    at_x = piece if ty == PAWN and bx & (last_white if white & by else last_black) else ty
                    at_y = piece if tx == PAWN and by & (last_white if white & bx else last_black) else tx
                    if (not mine & by and masks[at_x] & bx) or (not mine & bx and masks[at_y] & by):
                        continue
                    choices.append(piece)
            for choice in choices:
                found = (plain[x * 64 + y] if choice is None else None) or _swap_part(x, y, choice)
                out[head + found[0]] = (step_part, found[1])
    return out


def is_first_turn(board: chess.Board) -> bool:
    return board.turn == chess.WHITE and board.fullmove_number == 1


class BalancedSwap(PartsVariant[SwapTurn]):
    slug = "balanced-swap"
    name = "Balanced Swap Chess"
    summary = "Each turn: a chess move, then swap two men. No turn, you lose."
    insufficient_material = False
    own_turns = True          # lists its turns itself (`turns`)

    def validate(self, position: Position) -> None:
        board = position.board
        allowed = (chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_TOO_MANY_CHECKERS
                   | chess.STATUS_IMPOSSIBLE_CHECK | chess.STATUS_BAD_CASTLING_RIGHTS)
        bad = board.status() & ~allowed
        if bad:
            raise ValueError(f"Invalid position for {self.name}: {chess.Status(bad)!r}")
        if (board.pawns & board.occupied_co[chess.WHITE] & chess.BB_RANK_8
                or board.pawns & board.occupied_co[chess.BLACK] & chess.BB_RANK_1):
            raise ValueError("A pawn on its last rank would have promoted.")

    # -- turns -------------------------------------------------------------------------------------
    def turns(self, position: Position) -> dict[str, SwapTurn]:
        split = self.split(position)
        if split is None:   # White's first turn: the regular move alone
            return {m.uci(): (Step(m),) for m in position.board.legal_moves}
        return whole_turns(*split)

    def split(self, position: Position) -> tuple[Iterator[Step], Callable[[Step], dict[str, SwapTurn]]] | None:
        board = position.board
        if is_first_turn(board):
            return None
        work, men = scratch(board), men_of(board)
        return (Step(m) for m in board.legal_moves), lambda step: swap_turns(board, step.move, work, men)

    def after(self, position: Position, turn: SwapTurn) -> Position:
        board = position.edit()
        regular = turn[0].move
        mover = board.turn
        board.push(regular)
        if len(turn) > 1:
            swap = turn[1]
            px, py = man_at(board, swap.first), man_at(board, swap.second)
            _put(board, swap.first, _promoted(py, swap.first, swap.promotion))
            _put(board, swap.second, _promoted(px, swap.second, swap.promotion))
            touched = chess.BB_SQUARES[swap.first] | chess.BB_SQUARES[swap.second]
            for square, rights in _CASTLING_SQUARES.items():
                if touched & chess.BB_SQUARES[square]:
                    board.castling_rights &= ~rights
            if board.ep_square is not None and board.piece_at(regular.to_square) != chess.Piece(chess.PAWN, mover):
                board.ep_square = None
            if chess.PAWN in (px.piece_type, py.piece_type):
                board.halfmove_clock = 0
        board.clear_stack()
        return Position(board)

    # -- typed turns ----------------------------------------------------------------------------
    def regular_move(self, board: chess.Board, text: str) -> chess.Move | None:
        """The legal FIDE move `text` spells: UCI in any case, or SAN (":" for a capture allowed)."""
        try:
            move = chess.Move.from_uci(text.lower())
            if move in board.legal_moves:
                return move
        except ValueError:
            pass
        try:
            return board.parse_san(text.replace(":", "x").rstrip("+#"))
        except ValueError:
            return None

    def spell(self, position: Position, text: str, turns: Mapping[str, SwapTurn]) -> str | None:
        parts = text.split()
        if not parts or len(parts) > 2:
            return None
        regular = self.regular_move(position.board, parts[0])
        if regular is None:
            return None
        if len(parts) == 1:
            return regular.uci() if regular.uci() in turns else None
        match = _SWAP_TEXT.fullmatch(parts[1].rstrip("+#").replace("-", "/"))
        if not match:
            match = _SWAP_TEXT.fullmatch(parts[1].rstrip("+#").lower())
        if not match:
            return None
        x, y, promo = match.group(1), match.group(2), match.group(3).lower()
        for first, second in ((x, y), (y, x)):
            candidate = f"{regular.uci()} {first}/{second}{promo}"
            if candidate in turns:
                return candidate
        return None

    def explain(self, position: Position, text: str, turns: Mapping[str, SwapTurn]) -> str:
        board = position.board
        parts = text.split()
        if len(parts) > 2:
            return "A turn is one regular move and one swap, for example b8c6 f8/g7."
        regular = self.regular_move(board, parts[0])
        if regular is None:
            return why_not_regular(board, parts[0])
        head = regular.uci()
        if is_first_turn(board):
            return "White's first turn is the regular move alone, with no swap: for example d2d4."
        options = sorted(t for t in turns if t.startswith(head + " "))
        if not options:
            return (f"{parts[0]} is a legal chess move, but no swap can follow it "
                    f"(your king would be exposed after any swap), so it is not a legal turn.")
        if len(parts) == 1:
            return f"After {parts[0]} you must also swap two men, for example {options[0]}."
        return f"{parts[0]} is fine, but {parts[1]} is not a swap you can make: {self.why_not_swap(board, regular, parts[1])}"

    def why_not_swap(self, board: chess.Board, regular: chess.Move, text: str) -> str:
        match = _SWAP_TEXT.fullmatch(text.rstrip("+#").lower().replace("-", "/"))
        if not match:
            return "write a swap as two squares with a slash, like f8/g7 (add q, r, b or n if a pawn promotes)."
        mover = board.turn
        work = board_after(board, regular)
        x, y = chess.parse_square(match.group(1)), chess.parse_square(match.group(2))
        promo = match.group(3)
        a, b = work.piece_at(x), work.piece_at(y)
        if a is None or b is None:
            empty = match.group(1) if a is None else match.group(2)
            return f"after the move there is no man on {empty}."
        if x == y:
            return "a swap needs two different men."
        if mover not in (a.color, b.color):
            return "one of the two men must be yours."
        if a.color == b.color and a.piece_type == b.piece_type:
            return f"two {chess.piece_name(a.piece_type)}s of the same colour cannot swap: it would change nothing."
        reach = [(s, t) for s, t in ((x, y), (y, x))
                 if work.color_at(s) == mover and swap_pattern(work, s) & chess.BB_SQUARES[t]]
        if not reach:
            mine = x if a.color == mover else y
            return (f"the other man must stand where your {chess.piece_name(man_at(work, mine).piece_type)} on "
                    f"{chess.square_name(mine)} could move or capture (a clear path).")
        needs = promotes(a, y) or promotes(b, x)
        if needs and not promo:
            return "a pawn reaches its last rank, so say what it becomes: add q, r, b or n (like a1/a8q)."
        if promo and not needs:
            return "no pawn reaches its last rank, so the swap takes no promotion letter."
        return "your king would be in check after it."

    # -- the end -------------------------------------------------------------------------------------
    stalemated = NoMove("loses", "no legal move or swap", Ending.NO_MOVE)

    # -- what players see -------------------------------------------------------------------------
    def label(self, before: Position, turn: SwapTurn, turns: Mapping[str, SwapTurn]) -> str:
        board = before.board
        regular = turn[0].move
        text = san(board, regular, list(board.legal_moves))
        return label_text([text, *(part.text for part in turn[1:])])


def why_not_regular(board: chess.Board, text: str) -> str:
    """Why `text` is not a legal regular (FIDE) move here, for the player."""
    try:
        move = chess.Move.from_uci(text.lower())
    except ValueError:
        if re.fullmatch(r"[KQRBN]?[a-h]?[1-8]?[x:]?[a-h][1-8](=?[QRBNqrbn])?[+#]?|[O0](-?[O0]){1,2}", text):
            return f"{text} is not a legal regular move here."
        return f"I can't read {text!r} as a move. Type a move and a swap, like b8c6 f8/g7 (or Nc6 f8/g7)."
    refusal = whose(board, move.from_square, say_turn=False)
    if refusal:
        return refusal
    if board.is_pseudo_legal(move):
        return ("You must get out of check with the regular move." if board.is_check()
                else "That leaves your king in check.")
    return cannot_reach(move)


VARIANT = BalancedSwap()
