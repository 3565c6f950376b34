"""How people type moves, read into the text a variant's `_resolve` knows: one step every variant gets.

`normalise("12... Nf6!?")` -> "Nf6"; `normalise("e2-e4")` -> "e2e4"; `normalise("0-0+")` -> "O-O".
A space still separates the parts of a turn, so "e2 e4" stays two parts; a comma does too, as labels
join parts ("Nxg7, a2/b2" and "Nxg7,a2/b2" -> "Nxg7 a2/b2"). `capitalised("nf3")`
gives the reading with the piece letter in upper case ("Nf3"), or None where there is none;
`lowered("E4")` the reading with a capital file letter in lower case ("e4"); `placed("q@A1")` a drop or
placement as the rules write it ("Q@a1").
"""
from __future__ import annotations

import re

_MOVE_NUMBER = re.compile(r"^\d+\s*(?:\.+|…)\s*")          # "1. ", "1.", "1...", "12… "
_ANNOTATION = re.compile(r"(?<=\S)[+#!?]+$")                 # "Nf3+", "e4!?", "Qh7#"
_DASHED = re.compile(r"^([KQRBNP]?)([a-z]\d{1,2})[-–]([a-z]\d{1,2})(.*)$")   # "e2-e4", "Ng1-f3"
_CASTLING = {"0-0": "O-O", "0-0-0": "O-O-O", "o-o": "O-O", "o-o-o": "O-O-O"}
_FROM_TO = re.compile(r"^[a-z]\d{1,2}[-x:]?[a-z]\d{1,2}")    # a from-to part: never a piece letter
PIECE_LETTERS = "kqrbn"
_BETWEEN_PARTS = re.compile(r"\s*,\s*|\s+")                # "d7d5, f8/e7", "d7d5,f8/e7", "d7d5 f8/e7"
_CAPITAL_FILE = re.compile(r"^[ACDEFGH](?=x|\d)")   # "E4", "Exd5", "E2e4"; never B: "Bxc3", "B1c2" are bishop SAN


def normalise(text: str) -> str:
    """`text` (one space between parts) without move number, annotations or from-to dashes."""
    text = _MOVE_NUMBER.sub("", text, count=1)
    return " ".join(_part(part) for part in _BETWEEN_PARTS.split(text.strip()) if part)


def _part(part: str) -> str:
    part = _ANNOTATION.sub("", part)
    castled = _CASTLING.get(part.lower())
    if castled:
        return castled
    dashed = _DASHED.match(part)
    if dashed:
        letter, frm, to, rest = dashed.groups()
        return letter + frm + to + rest
    return part


def lowered(text: str) -> str | None:
    """`text` with a capital file letter starting a part made lower case ("E4" -> "e4", "Exd5" ->
    "exd5", "E2-e4" -> "e2e4", as a phone's keyboard capitalises them), or None when no part starts
    so. "B" stays: "Bxc3" and "B1c2" are a bishop's moves. A reading to try last: in a variant with
    other men, "Cxd3" may be a piece's move."""
    parts = text.split()
    changed = [normalise(_CAPITAL_FILE.sub(lambda m: m.group(0).lower(), p)) for p in parts]
    return " ".join(changed) if changed != parts else None


def capitalised(text: str, bishops: bool = True) -> str | None:
    """`text` with a lower-case piece letter starting each part made upper case ("nf3" -> "Nf3",
    "ngf6 nfd7" -> "Ngf6 Nfd7"), or None when no part starts so (from-to parts like b1c2 never do).
    `bishops=False` leaves a part starting with "b" alone: in SAN it is the b-file, a pawn's move."""
    letters = PIECE_LETTERS if bishops else PIECE_LETTERS.replace("b", "")
    parts = text.split()
    changed = [p[0].upper() + p[1:] if p[:1] in letters and len(p) > 2 and not _FROM_TO.match(p) else p
               for p in parts]
    return " ".join(changed) if changed != parts else None


def placed(part: str) -> str:
    """A drop or placement typed in any case, as the rules write it: the man's letter in upper case,
    the square in lower ("q@A1" -> "Q@a1"), as a from-to part is read in any case ("E2E4")."""
    return part[:1].upper() + part[1:].lower()
