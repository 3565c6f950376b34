"""A stored game as PGN text, for /export.

Standard chess is written by python-chess's own writer, so python-chess, lichess and other
tools import it (no Variant tag, FEN/SetUp only when it did not start from the usual array).
Other variants name themselves in the Variant tag. Where every turn is one move, the moves
are in SAN where the variant has it; where turns have several parts (a swap after the move,
an answer, a drop), each turn is written in Kibitz's canonical notation, its parts joined by
commas, and a comment at the top says so: such a file is for people and for Kibitz, not for standard PGN readers.
"""
from __future__ import annotations

import chess
import chess.pgn

import rules

from .names import one_line
from .store import GameRecord

RESULTS = {"1-0", "0-1", "1/2-1/2"}
SEVERAL_PARTS = ("Kibitz canonical notation: a turn of this variant may have several parts, written joined "
                 "by commas (Kibitz takes them with a comma or a space). This file is for people and for Kibitz, "
                 "not for standard PGN readers.")


def _date(stamp: str) -> str:
    return stamp[:10].replace("-", ".") if len(stamp) >= 10 else "????.??.??"


def _headers(record: GameRecord, info: rules.VariantInfo) -> dict[str, str]:
    white = record.players[0][1]
    black = record.players[1][1] if len(record.players) > 1 else "-"
    result = record.result if record.result in RESULTS else "*"
    headers = {"Event": f"Kibitz {info.name} game #{record.id}", "Site": "Discord (Kibitz)",
               "Date": _date(record.created_at), "Round": "-", "White": white, "Black": black, "Result": result}
    if record.reason:
        headers["Termination"] = record.reason
    return headers


def game_pgn(record: GameRecord, labels: list[str], final_fen: str) -> str:
    """PGN of `record`; `labels` are its turns as players write them (SAN where the variant
    has it), in order; `final_fen` is the current position, noted after the moves."""
    info = rules.VARIANTS[record.variant]
    start = record.start_fen or rules.new_game(record.variant, seed=record.seed).fen()
    if record.variant == "standard":
        return _standard(record, info, start)
    headers = _headers(record, info)
    headers["Variant"] = info.name
    if start != rules.new_game(record.variant).fen() or start.split()[0] != chess.STARTING_BOARD_FEN:
        headers["SetUp"], headers["FEN"] = "1", start   # any start but the usual array (Reentrant's own too)
    several = any(" " in move for move in record.moves)
    tokens = record.moves if several else labels
    lines = [f'[{key} "{_escape(value)}"]' for key, value in headers.items()]
    lines.append("")
    if several:
        lines.append("{" + SEVERAL_PARTS + "}")
    number, black_first = _first_move_number(start)
    words: list[str] = []
    for ply, token in enumerate(tokens):
        white_to_move = (ply % 2 == 0) != black_first
        if record.solo:   # one player: each turn numbered, not paired as White and Black
            words.append(f"{ply + 1}.")
        elif white_to_move:
            words.append(f"{number + (ply + black_first) // 2}.")
        elif ply == 0:
            words.append(f"{number}...")
        words.append(token.replace(" ", ","))
    if record.result is not None:   # an unfinished game has no final position yet
        words.append("{Final position: " + final_fen + "}")
    words.append(headers["Result"])
    lines.extend(_wrap(words))
    return "\n".join(lines) + "\n"


def _standard(record: GameRecord, info: rules.VariantInfo, start: str) -> str:
    game = chess.pgn.Game()
    for key, value in _headers(record, info).items():
        game.headers[key] = _escape(value)   # python-chess writes tag values as they are
    board = chess.Board(start)
    if start != chess.STARTING_FEN:
        game.setup(board)
    node: chess.pgn.GameNode = game
    for move in record.moves:
        node = node.add_variation(board.parse_uci(move))
        board.push(node.move)   # type: ignore[arg-type]
    return str(game) + "\n"


def _first_move_number(fen: str) -> tuple[int, bool]:
    fields = fen.split()
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() else 1
    return number, len(fields) > 1 and fields[1] == "b"


def _escape(value: str) -> str:
    """A tag value as PGN wants it: backslash and quote escaped, on one line."""
    return one_line(value).replace("\\", "\\\\").replace('"', '\\"')


def _wrap(words: list[str], width: int = 79) -> list[str]:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines
