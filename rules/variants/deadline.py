"""Deadline Chess: a player in check answers with one King move to a safe square, or with two
moves in a row by one man other than the King.

Rules card: data/rules/deadline.md. FIDE men and moves (python-chess does the geometry). Not in
check, a turn is one FIDE-legal move. In check, a turn is either a FIDE-legal King move (no
castling) or two parts `m1 m2` by one non-King man X: after `m1` the mover's King is still
attacked and the enemy King is not; `m2` moves X on from where `m1` left it (a promoted pawn as
its new man), and afterwards the mover's King is safe. A two-part turn is one turn: one history
entry, one full move, one step of the 50-move count (reset if either part is a pawn move or a
capture), and it leaves no en passant right. Checkmate: in check with no turn.

En passant is kept in the position (and shown in the FEN) only where a capture there begins a
legal Deadline turn, so repetition and the FEN agree with what can be played.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

import chess

from ..chess_variant import normalise_san, san
from ..notation import spelling_key, spellings
from ..core import IllegalMove
from ..lookahead import after, each_after, passed, scratch
from ..refusals import FROM_TO_OR_SAN, ambiguous, cannot_reach, whose
from ..position import PartsVariant, Position, Step, colour_of, label_text, turn_text

DeadlineTurn = tuple[Step, ...]   # one move, or two moves of one man

SAN_PART = re.compile(r"[KQRBNkqrbn]?[a-h]?[1-8]?[x:]?[a-h][1-8](=?[QRBNqrbn])?[+#!?]*|[O0](-?[O0]){1,2}[+#!?]*")


def is_attacked(board: chess.Board, colour: chess.Color, square: int | None) -> bool:
    """Is `square` (a King's, possibly None) attacked by the side other than `colour`?"""
    return square is not None and board.is_attacked_by(not colour, square)


def again(board: chess.Board, first: chess.Move) -> chess.Board:
    """The board after the first of two moves, its mover to move again with no en passant right
    (rules card)."""
    return passed(after(board, first))


def first_move_fault(board: chess.Board, move: chess.Move) -> str | None:
    """Why the pseudo-legal non-King `move` cannot open a two-move answer to check, or None."""
    us = board.turn
    work = after(board, move)
    if is_attacked(work, not us, work.king(not us)):
        return "the first of two moves may not give check"
    if not is_attacked(work, us, work.king(us)):
        return "the first of two moves must leave your King in check"
    return None


def answers(board: chess.Board) -> Iterator[tuple[chess.Move, chess.Move]]:
    """Every two-move answer to check (rules card): (first, second) by one non-King man.

    Only second moves that could end the check are tried: with one checker, a move onto it or
    onto the line between it and the King (each still pushed, for pins and exposed lines)."""
    us = board.turn
    own_king = board.king(us)
    enemy_king = board.king(not us)
    if own_king is None:
        return
    work = scratch(board)
    firsts = board.generate_pseudo_legal_moves(chess.BB_ALL & ~board.kings)
    # The same man moves again, never en passant as a second move (rules card).
    for first, between in each_after(work, firsts, again=True):
        if is_attacked(between, not us, enemy_king):
            continue
        checkers = between.attackers_mask(not us, own_king)
        if not checkers:
            continue
        targets = chess.BB_ALL
        if chess.popcount(checkers) == 1:
            targets = checkers | chess.between(own_king, chess.lsb(checkers))
        seconds = between.generate_pseudo_legal_moves(chess.BB_SQUARES[first.to_square], targets)
        for second, now in each_after(between, seconds):
            if not now.is_attacked_by(not us, own_king):
                yield first, second


def deadline_moves(board: chess.Board) -> Iterator[tuple[chess.Move, ...]]:
    """Every legal turn as chess moves: single FIDE moves out of check; in check, King moves and
    two-move answers."""
    if not board.is_check():
        for move in board.legal_moves:
            yield (move,)
        return
    for move in board.generate_legal_moves(board.kings & board.occupied_co[board.turn]):
        if not board.is_castling(move):
            yield (move,)
    yield from answers(board)


def en_passant_playable(board: chess.Board) -> bool:
    """Does some legal Deadline turn here begin with an en passant capture?"""
    if not board.has_pseudo_legal_en_passant():
        return False
    if not board.is_check():
        return board.has_legal_en_passant()
    return any(board.is_en_passant(first) for first, _ in answers(board))


def played(board: chess.Board, moves: tuple[chess.Move, ...]) -> chess.Board:
    """A new board with the turn `moves` played (rules card, for a two-move turn)."""
    result = board.copy(stack=False)
    mover = board.turn
    if len(moves) == 1:
        result.push(moves[0])
    else:
        first, second = moves
        resets = result.is_zeroing(first)
        result.push(first)
        result.turn = mover          # the same man moves again (rules card)
        result.ep_square = None      # no en passant as a second move (rules card)
        resets = resets or result.is_zeroing(second)
        result.push(second)
        result.ep_square = None
        result.halfmove_clock = 0 if resets else board.halfmove_clock + 1
        result.fullmove_number = board.fullmove_number + (1 if mover == chess.BLACK else 0)
    if result.ep_square is not None and not en_passant_playable(result):
        result.ep_square = None
    result.clear_stack()
    return result


class Deadline(PartsVariant[DeadlineTurn]):
    slug = "deadline"
    name = "Deadline Chess"
    family = "GOAL"
    own_turns = True          # lists its turns itself (`turns`)
    summary = "In check? Move the King to safety, or move one other man twice: first keeping the check, then ending it."
    insufficient_material = True

    # -- set-up and FEN -----------------------------------------------------------------------------
    def load(self, fen: str) -> Position:
        position = super().load(fen)
        board = position.board
        if board.ep_square is not None and not en_passant_playable(board):
            board.ep_square = None
        return position

    def validate(self, position: Position) -> None:
        bad = position.board.status()   # chess's set-up rules: a two-move answer ends like one FIDE move
        if bad:
            raise ValueError(f"Invalid position for {self.name}: {chess.Status(bad)!r}")

    def fen(self, position: Position) -> str:
        return position.board.fen(en_passant="fen")   # kept only where a Deadline turn can take

    # -- turns ----------------------------------------------------------------------------------------
    def turns(self, position: Position) -> dict[str, DeadlineTurn]:
        out: dict[str, DeadlineTurn] = {}
        for moves in deadline_moves(position.board):
            turn = tuple(Step(m) for m in moves)
            out[turn_text(turn)] = turn
        return out

    def after(self, position: Position, turn: DeadlineTurn) -> Position:
        return Position(played(position.board, tuple(part.move for part in turn)))

    # -- what players see ----------------------------------------------------------------------------
    def label(self, before: Position, turn: DeadlineTurn, turns: Mapping[str, DeadlineTurn]) -> str:
        """SAN per part (`a6, axb5`), without check marks."""
        board = before.board
        first = turn[0].move
        head = san(board, first, [t[0].move for t in turns.values()])
        if len(turn) == 1:
            return head
        return label_text([head, san(again(board, first), turn[1].move, [turn[1].move])])

    def caption(self, position: Position) -> str:
        if not position.board.is_check():
            return ""
        return (f"{colour_of(position.board.turn).capitalize()} is in check: move the King to a safe square, "
                "or move one other man twice (the first move keeps the check, the second ends it).")

    # -- typed turns ----------------------------------------------------------------------------------
    def spell(self, position: Position, text: str, turns: Mapping[str, DeadlineTurn]) -> str | None:
        parts = text.split()
        if len(parts) > 2:
            return None
        board = position.board
        firsts = self.options(board, [t[0].move for t in turns.values()])
        heads = firsts.get(spelling_key(parts[0]), set())
        hits = set()
        for head in heads:
            if len(parts) == 1:
                if head in turns:
                    hits.add(head)
                continue
            first = chess.Move.from_uci(head)
            seconds = [t[1].move for t in turns.values() if len(t) == 2 and t[0].move == first]
            mid = again(board, first)
            for tail in self.options(mid, seconds).get(spelling_key(parts[1]), set()):
                hits.add(f"{head} {tail}")
        hits &= set(turns)
        if len(hits) > 1:
            raise IllegalMove(ambiguous(text, min(hits)))
        return hits.pop() if hits else None

    @staticmethod
    def options(board: chess.Board, moves: list[chess.Move]) -> dict[str, set[str]]:
        """Normalised spellings (uci, SAN, piece letter with from-square, from-file or from-rank, as
        in chess) -> canonical uci."""
        return spellings(board, list(dict.fromkeys(moves)))

    def explain(self, position: Position, text: str, turns: Mapping[str, DeadlineTurn]) -> str:
        board = position.board
        parts = text.split()
        for part in parts:
            if not SAN_PART.fullmatch(part) and not re.fullmatch(r"[a-hA-H][1-8][a-hA-H][1-8][qrbnQRBN]?", part):
                return f"I can't read {part!r} as a move. {FROM_TO_OR_SAN}"
        if not board.is_check():
            if len(parts) > 1:
                return "You are not in check, so a turn is a single move: only a player in check may move twice."
            return why_not_single(board, parts[0])
        if len(parts) > 2:
            return "A turn is at most two moves: one King move, or two moves by one other man."
        if is_castling_text(board, parts[0]):
            return "You may not castle out of check."
        first = resolve_part(board, parts[0], list(board.pseudo_legal_moves))
        if isinstance(first, str):
            return first
        if board.kings & chess.BB_SQUARES[first.from_square]:
            if len(parts) == 2:
                return "Your King answers check with one move only; two moves in a row must be made by another man."
            if board.is_castling(first):
                return "You may not castle out of check."
            return f"Your King would be attacked on {chess.square_name(first.to_square)}."
        fault = first_move_fault(board, first)
        if len(parts) == 1:
            if fault == "the first of two moves must leave your King in check":
                return ("You are in check: a single move may not block the check or capture the checking man. "
                        "Move your King to a safe square, or make two moves with one man: the first keeping "
                        "the check, the second ending it.")
            if fault:
                return (f"You are in check and {parts[0]} does not end it; it cannot start a two-move answer "
                        f"either: {fault}.")
            example = next((t for t in turns if t.startswith(first.uci() + " ")), None)
            if example:
                return (f"{parts[0]} keeps the check, so it needs a second move by the same man that ends it, "
                        f"e.g. {example}.")
            return (f"{parts[0]} keeps the check, and that man has no second move that ends it. "
                    "Move your King to a safe square, or choose another man.")
        if fault:
            return f"{parts[0]} cannot start your answer: {fault}."
        mid = again(board, first)
        second = resolve_part(mid, parts[1], list(mid.pseudo_legal_moves))
        if isinstance(second, str):
            where = chess.square_name(first.to_square)
            ends = [t.split()[1] for t in turns if t.startswith(first.uci() + " ")]
            hint = f" It can end the check with {', '.join(sorted(ends))}." if ends else " It has no move that ends the check."
            return (f"{parts[0]} is fine, but {parts[1]} cannot follow it: the second move is made by the same man, "
                    f"now on {where}.{hint}")
        if second.from_square != first.to_square:
            return (f"{parts[0]} is fine, but {parts[1]} cannot follow it: both moves must be made by the same man, "
                    f"the one now on {chess.square_name(first.to_square)}.")
        return f"{parts[0]} is fine, but after {parts[1]} your King would still be in check."


def is_castling_text(board: chess.Board, text: str) -> bool:
    """O-O, O-O-O, or the King's two-square step along its home rank (e1g1)."""
    if normalise_san(text) in ("OO", "OOO"):
        return True
    king = board.king(board.turn)
    return (king is not None and text.lower()[:2] == chess.square_name(king) and len(text) == 4
            and text.lower()[3] == text.lower()[1] and text.lower()[1] in "18"
            and abs(ord(text.lower()[2]) - ord(text.lower()[0])) == 2)


def resolve_part(board: chess.Board, text: str, candidates: list[chess.Move]) -> chess.Move | str:
    """The pseudo-legal move `text` names on `board`, or a sentence saying why there is none."""
    key = spelling_key(text)
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?", key):
        frm, to = chess.parse_square(key[:2]), chess.parse_square(key[2:4])
        promotion = chess.PIECE_SYMBOLS.index(key[4]) if len(key) == 5 else None
        move = chess.Move(frm, to, promotion)
        refusal = whose(board, frm)
        if refusal:
            return refusal
        if frm == to:
            return "A move must go from one square to another."
        if move in candidates:
            return move
        if move.promotion is None and chess.Move(move.from_square, move.to_square, chess.QUEEN) in candidates:
            return "Say what the pawn becomes, e.g. " + move.uci() + "q."
        return cannot_reach(move)
    hits = Deadline.options(board, candidates).get(key, set())
    if len(hits) == 1:
        return chess.Move.from_uci(hits.pop())
    if hits:
        return ambiguous(text, min(hits))
    return f"{text} is not a legal move here."


def why_not_single(board: chess.Board, text: str) -> str:
    move = resolve_part(board, text, list(board.pseudo_legal_moves))
    if isinstance(move, str):
        return move
    return "That leaves your King in check."


VARIANT = Deadline()
