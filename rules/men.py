"""Men and royalty as data: Betza-like movement, attacks and check that follow the same data.

A man is one line of data:

    Man("knight", "N")             leaps (1,2) in all eight directions, moves and captures
    Man("queen", "Q")              rides orthogonally and diagonally
    Man("separation queen", "N")   a queen that moves as a knight: only the data changes
    Man("pawn", "fmWfcFifmnD")     FIDE pawn: forward step, forward diagonal captures,
                                   initial non-jumping double step (en passant: `en_passant=True`)
    Man("tyrant rook", "mR")       a rook that never captures
    Man("reentrant pawn", "mWcF")  steps along rank or file, captures diagonally, any direction

Atoms: W (1,0) F (1,1) D (2,0) N (1,2) A (2,2) K (=WF) and the riders R (=WW) B (=FF) Q (=RB).
Modifiers, written before the atom they change: m (move only), c (capture only), f/b/s
(forward, backward, sideways; "forward" is towards the far side for White, towards rank 1 for
Black), i (only from the man's own first two ranks), n (non-jumping: the square passed over must
be empty). Several atoms follow each other: "fmWfcF". `Man(..., colour_bound=True)` keeps a man
on the colour of square it stands on: its moves and attacks reach only squares of that colour.

Geometry comes from python-chess's tables where it fits (`BB_KNIGHT_ATTACKS`, `BB_KING_ATTACKS`,
the sliding attack masks); other leaps are tabled once at import. `MenTable` turns the data into
pseudo-legal `chess.Move`s on a python-chess board (which then stores the men and plays moves
with `push`) and answers "which men attack this square" from the same data, so check follows
the men (a Separation queen checks as a knight). A `region` function confines a man to part of
the board (Reentrant's half-boards): it moves, captures, attacks and blocks only inside it.

Royalty is data too (`Royalty`): which letters are royal ("" none, "k", "q", "kq" both, each
must be safe) and which may never be captured. When a variant's men are exactly FIDE's, keep
python-chess's own generator instead: it is the fast path.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import chess

_ATOMS = {
    "W": ((1, 0),), "F": ((1, 1),), "D": ((2, 0),), "N": ((1, 2), (2, 1)), "A": ((2, 2),),
}
_COMPOUND = {"K": "WF", "Q": "RB"}
_RIDERS = {"R": "W", "B": "F"}


def _symmetries(base: tuple[tuple[int, int], ...]) -> set[tuple[int, int]]:
    out = set()
    for df, dr in base:
        for sf in (1, -1):
            for sr in (1, -1):
                out.add((df * sf, dr * sr))
                out.add((dr * sf, df * sr))
    return out


@dataclass(frozen=True)
class Atom:
    vectors: frozenset[tuple[int, int]]   # (file step, rank step) for White; Black's are mirrored in rank
    ride: bool = False
    move: bool = True
    capture: bool = True
    initial: bool = False
    lame: bool = False


def parse_betza(text: str) -> tuple[Atom, ...]:
    """The atoms of a Betza-like string (subset described in the module docstring)."""
    atoms: list[Atom] = []
    for mods, letter in re.findall(r"([mcfbsin]*)([WFDNAKRBQ])", text):
        if not mods and letter in _COMPOUND:
            atoms.extend(parse_betza(_COMPOUND[letter]))
            continue
        letters = _COMPOUND.get(letter, letter)
        for one in letters:
            ride = one in _RIDERS
            base = _ATOMS[_RIDERS.get(one, one)]
            vectors = _symmetries(base)
            dirs = set(mods) & set("fbs")
            if dirs:
                vectors = {v for v in vectors if ("f" in dirs and v[1] > 0) or ("b" in dirs and v[1] < 0)
                           or ("s" in dirs and v[1] == 0)}
            move = "c" not in mods or "m" in mods
            capture = "m" not in mods or "c" in mods
            atoms.append(Atom(frozenset(vectors), ride, move, capture, "i" in mods, "n" in mods))
    if "".join(mods + atom for mods, atom in re.findall(r"([mcfbsin]*)([WFDNAKRBQ])", text)) != text:
        raise ValueError(f"Cannot read movement {text!r}")
    return tuple(atoms)


def _leap_table(vectors: frozenset[tuple[int, int]], colour: bool) -> list[int]:
    table = []
    for sq in chess.SQUARES:
        f, r = chess.square_file(sq), chess.square_rank(sq)
        mask = 0
        for df, dr in vectors:
            if colour == chess.BLACK:
                dr = -dr
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                mask |= chess.BB_SQUARES[chess.square(f + df, r + dr)]
        table.append(mask)
    return table


def _ray_table(vectors: frozenset[tuple[int, int]], colour: bool) -> list[int]:
    """Per square: every square along the atom's directions (for masking python-chess slides)."""
    table = []
    for sq in chess.SQUARES:
        f, r = chess.square_file(sq), chess.square_rank(sq)
        mask = 0
        for df, dr in vectors:
            if colour == chess.BLACK:
                dr = -dr
            nf, nr = f + df, r + dr
            while 0 <= nf < 8 and 0 <= nr < 8:
                mask |= chess.BB_SQUARES[chess.square(nf, nr)]
                nf, nr = nf + df, nr + dr
        table.append(mask)
    return table


_ORTHO = frozenset(_symmetries(((1, 0),)))
_DIAG = frozenset(_symmetries(((1, 1),)))
_KNIGHT = frozenset(_symmetries(((1, 2),)))
_KING = _ORTHO | _DIAG


class _CompiledAtom:
    def __init__(self, atom: Atom):
        self.atom = atom
        self.ride = atom.ride
        self.move, self.capture, self.initial, self.lame = atom.move, atom.capture, atom.initial, atom.lame
        v = atom.vectors
        self.ortho = bool(v & _ORTHO) if atom.ride else False
        self.diag = bool(v & _DIAG) if atom.ride else False
        if atom.ride:
            full = (not self.ortho or _ORTHO <= v) and (not self.diag or _DIAG <= v)
            self.rays = None if full else [_ray_table(v, chess.WHITE), _ray_table(v, chess.BLACK)]
        else:
            if v == _KNIGHT:
                table = list(chess.BB_KNIGHT_ATTACKS)
                self.leaps = [table, table]
            elif v == _KING:
                table = list(chess.BB_KING_ATTACKS)
                self.leaps = [table, table]
            else:
                self.leaps = [_leap_table(v, chess.BLACK), _leap_table(v, chess.WHITE)]  # index by colour
        self.between = None
        if atom.lame and not atom.ride:
            # the square passed over for two-square orthogonal/diagonal leaps (D, A)
            self.between = {}
            for colour in (chess.WHITE, chess.BLACK):
                for sq in chess.SQUARES:
                    for df, dr in v:
                        dr2 = -dr if colour == chess.BLACK else dr
                        f, r = chess.square_file(sq) + df, chess.square_rank(sq) + dr2
                        if 0 <= f < 8 and 0 <= r < 8:
                            mid = chess.square(chess.square_file(sq) + df // 2, chess.square_rank(sq) + dr2 // 2)
                            self.between[(colour, sq, chess.square(f, r))] = mid

    def targets(self, square: int, colour: bool, occupied: int) -> int:
        if self.ride:
            mask = 0
            if self.ortho:
                mask |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                         | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied])
            if self.diag:
                mask |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
            if self.rays is not None:
                mask &= self.rays[0 if colour == chess.WHITE else 1][square]
            return mask
        mask = self.leaps[colour][square]
        if self.initial:
            rank = chess.square_rank(square)
            if (rank if colour == chess.WHITE else 7 - rank) > 1:
                return 0
        if self.between is not None and mask:
            for to in chess.scan_forward(mask):
                mid = self.between.get((colour, square, to))
                if mid is not None and occupied & chess.BB_SQUARES[mid]:
                    mask &= ~chess.BB_SQUARES[to]
        return mask


@dataclass(frozen=True)
class Man:
    """One kind of man: a name and its movement in Betza-like notation."""
    name: str
    betza: str
    en_passant: bool = False     # captures en passant like a FIDE pawn
    colour_bound: bool = False   # never leaves the colour of square it stands on

    def atoms(self) -> tuple[Atom, ...]:
        return parse_betza(self.betza)


FIDE_MEN: dict[str, Man] = {
    "k": Man("king", "K"), "q": Man("queen", "Q"), "r": Man("rook", "R"), "b": Man("bishop", "B"),
    "n": Man("knight", "N"), "p": Man("pawn", "fmWfcFifmnD", en_passant=True),
}

def man_at(board: chess.Board, square: int) -> chess.Piece:
    """The man on an occupied square (a square known to hold one)."""
    piece = board.piece_at(square)
    if piece is None:
        raise ValueError(f"no man on {chess.square_name(square)}")
    return piece


Region = Callable[[int], int]   # square -> mask of the squares its man lives in


def whole_board(square: int) -> int:
    return chess.BB_ALL


class MenTable:
    """Move generation and attacks for a set of men (letter -> Man) on a python-chess board."""

    def __init__(self, men: Mapping[str, Man], *, region: Region = whole_board):
        self.men = dict(men)
        self.region = region
        self._atoms = {letter: [_CompiledAtom(a) for a in man.atoms()] for letter, man in men.items()}
        self._types = {letter: chess.PIECE_SYMBOLS.index(letter) for letter in men}
        self._bound = {letter for letter, man in men.items() if man.colour_bound}
        # for `attackers`, per man: its kind, whether it is colour-bound, and its capturing atoms,
        # each with whether it is lame or initial-only (those hits are confirmed from the man)
        self._capturers = [(self._types[letter], letter in self._bound,
                            [(atom, atom.lame or atom.initial) for atom in atoms if atom.capture])
                           for letter, atoms in self._atoms.items()]
        # The same, grouped for speed: kinds confirmed from the man (colour-bound), kinds capturing
        # along whole ranks and files or diagonals, kinds leaping alike (a kind's plain capturing
        # leaps as one table per colour), and the other atoms one by one.
        self._bound_kinds = tuple(self._types[letter] for letter in self._bound)
        straight: set[int] = set()
        diagonal: set[int] = set()
        leaps: dict[tuple[tuple[int, ...], ...], list[int]] = {}
        self._others: list[tuple[int, _CompiledAtom, bool]] = []
        for kind, bound, capturing in self._capturers:
            table = [[0] * 64, [0] * 64]
            for atom, uncertain in [] if bound else capturing:
                if not uncertain and atom.ride and atom.rays is None:
                    if atom.ortho:
                        straight.add(kind)
                    if atom.diag:
                        diagonal.add(kind)
                elif not uncertain and not atom.ride:
                    table = [[a | b for a, b in zip(table[c], atom.leaps[c])] for c in (0, 1)]
                else:
                    self._others.append((kind, atom, uncertain))
            if any(table[0]) or any(table[1]):
                leaps.setdefault((tuple(table[0]), tuple(table[1])), []).append(kind)
        self._straight, self._diagonal = tuple(straight), tuple(diagonal)
        self._leaps = [(list(table), tuple(kinds)) for table, kinds in leaps.items()]

    def letter_of(self, piece_type: int) -> str:
        return chess.piece_symbol(piece_type)

    def reach(self, board: chess.Board, square: int, piece: chess.Piece) -> tuple[int, int]:
        """(squares it may move to, squares it attacks) for `piece` on `square`: moves need an
        empty square, attacks say where it would capture (whatever stands there)."""
        letter = piece.symbol().lower()
        area = self.region(square)
        if letter in self._bound:
            area &= chess.BB_LIGHT_SQUARES if chess.BB_SQUARES[square] & chess.BB_LIGHT_SQUARES else chess.BB_DARK_SQUARES
        occupied = board.occupied & self.region(square)
        moves = attacks = 0
        for atom in self._atoms[letter]:
            targets = atom.targets(square, piece.color, occupied) & area
            if atom.move:
                moves |= targets & ~occupied
            if atom.capture:
                attacks |= targets
        return moves, attacks

    def attackers(self, board: chess.Board, colour: bool, square: int) -> int:
        """Men of `colour` that attack `square` (inside its region)."""
        area = self.region(square)
        occupied = board.occupied & area
        ours = board.occupied_co[colour] & area
        kinds = (0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
        found = unsure = 0
        for bound_kind in self._bound_kinds:
            unsure |= kinds[bound_kind] & ours   # confirmed from the man below, like lame patterns
        mine = 0
        for kind in self._straight:
            mine |= kinds[kind]
        if mine & ours:
            found |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
                      | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]) & mine & ours
        mine = 0
        for kind in self._diagonal:
            mine |= kinds[kind]
        if mine & ours:
            found |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied] & mine & ours
        for table, leapers in self._leaps:
            mine = 0
            for kind in leapers:
                mine |= kinds[kind]
            mine &= ours
            if mine:
                # the pattern seen from the target, as a man of the other colour (point reflection)
                found |= table[not colour][square] & mine
        for kind, atom, uncertain in self._others:
            mine = kinds[kind] & ours
            if mine:
                hits = atom.targets(square, not colour, occupied) & mine
                if uncertain:
                    unsure |= hits
                else:
                    found |= hits
        for sq in chess.scan_forward(unsure & ~found):
            # lame or initial-only patterns are not symmetric under reflection: confirm from the man
            if self.reach(board, sq, man_at(board, sq))[1] & chess.BB_SQUARES[square]:
                found |= chess.BB_SQUARES[sq]
        return found

    def is_attacked(self, board: chess.Board, colour: bool, square: int) -> bool:
        return bool(self.attackers(board, colour, square))

    def pseudo_moves(self, board: chess.Board, *, uncapturable: int = 0, promotions: str = "qrbn",
                     promote_letter: str = "p") -> Iterator[chess.Move]:
        """Moves of the side to move's men by the data (no castling; no royalty test).
        `uncapturable`: squares no capture may land on. A man with letter `promote_letter`
        arriving on its last rank promotes to each letter of `promotions` ("" = it does not)."""
        us = board.turn
        theirs = board.occupied_co[not us] & ~uncapturable
        for square in chess.scan_forward(board.occupied_co[us]):
            piece = man_at(board, square)
            letter = piece.symbol().lower()
            if letter not in self._atoms:
                continue
            moves, attacks = self.reach(board, square, piece)
            targets = moves | (attacks & theirs)
            ep = board.ep_square
            if self.men[letter].en_passant and ep is not None and attacks & chess.BB_SQUARES[ep] \
                    and not board.occupied & chess.BB_SQUARES[ep]:
                targets |= chess.BB_SQUARES[ep]
            last = chess.BB_RANK_8 if us == chess.WHITE else chess.BB_RANK_1
            for to in chess.scan_forward(targets):
                if letter == promote_letter and promotions and chess.BB_SQUARES[to] & last:
                    for p in promotions:
                        yield chess.Move(square, to, chess.PIECE_SYMBOLS.index(p))
                else:
                    yield chess.Move(square, to)


@dataclass(frozen=True)
class Royalty:
    """Which men are royal (must never stand attacked after their side's turn) and which may
    never be captured. royal: "" (none), "k", "q", "kq" (each must be safe)."""
    royal: str = "k"
    uncapturable: str = ""

    def squares(self, board: chess.Board, colour: bool, letters: str | None = None) -> list[int]:
        out: list[int] = []
        for letter in self.royal if letters is None else letters:
            out.extend(chess.scan_forward(board.pieces_mask(chess.PIECE_SYMBOLS.index(letter), colour)))
        return out

    def uncapturable_mask(self, board: chess.Board, colour: bool) -> int:
        mask = 0
        for letter in self.uncapturable:
            mask |= board.pieces_mask(chess.PIECE_SYMBOLS.index(letter), colour)
        return mask

    def checked(self, board: chess.Board, colour: bool, men: MenTable) -> list[int]:
        """Royal squares of `colour` attacked by the other side."""
        return [sq for sq in self.squares(board, colour) if men.is_attacked(board, not colour, sq)]

    def is_safe(self, board: chess.Board, colour: bool, men: MenTable) -> bool:
        return not self.checked(board, colour, men)


KING = Royalty("k")          # FIDE: the King is royal
NO_ROYALTY = Royalty("")     # no royal man: no check, a King is an ordinary man


__all__ = ["KING", "NO_ROYALTY", "FIDE_MEN", "Atom", "Man", "MenTable", "Royalty", "parse_betza", "whole_board"]
