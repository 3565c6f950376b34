"""A game taken out of the chat: as PGN text, or replayed as an animated GIF."""
from __future__ import annotations

import asyncio
import logging

import rules
from rules import Game

from ..names import plain
from ..store import GameRecord, GameStatus
from ..timing import plural
from .tables import Tables
from .types import Mark, Reply, UserError

log = logging.getLogger(__name__)


class Exports(Tables):
    """A game as a file."""

    async def _shown_game(self, channel: str) -> GameRecord:
        """The channel's game: the one in play, else the last finished one."""
        async with self._lock(channel):
            live = await self._load(channel)
            if live is not None and live.game is not None:
                return live.record.copy()
            record = await self.store.latest(channel, (GameStatus.ACTIVE, GameStatus.FINISHED))
        if record is None:
            raise UserError("No game to show in this channel yet. Start one with /puzzle or /challenge.")
        return record

    async def export(self, channel: str) -> Reply:
        record = await self._shown_game(channel)
        try:
            text, fen = await asyncio.to_thread(_pgn_of, record)
        except Exception:
            log.exception("could not replay game %s for export", record.id)
            raise UserError("That game cannot be replayed after an update to Kibitz.") from None
        info = rules.VARIANTS[record.variant]
        return Reply([(Mark(info.name), f" · game #{record.id} as PGN ({plural(len(record.moves), 'turn')})."),
                      ("Current position: ", Mark(fen, code=True))], text.encode("utf-8"), f"PGN of game {record.id}",
                     f"kibitz-{record.id}.pgn", game_id=record.id)

    async def replay(self, channel: str) -> Reply:
        record = await self._shown_game(channel)
        try:
            gif = await asyncio.to_thread(_gif_of, record)
        except Exception:
            log.exception("could not replay game %s as a GIF", record.id)
            raise UserError("That game cannot be replayed after an update to Kibitz.") from None
        info = rules.VARIANTS[record.variant]
        return Reply([(Mark(info.name), f" · game #{record.id}: {plural(len(record.moves), 'turn')}, replayed.")],
                     gif, f"Animated replay of game {record.id}", f"kibitz-{record.id}.gif", game_id=record.id)


def replayed(record: GameRecord) -> tuple[Game, list[rules.BoardView], list[str]]:
    game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
    views, labels = [game.view()], []
    for move in record.moves:
        game.play(move)
        views.append(game.view())
        labels.append(game.last_move_label() or move)
    return game, views, labels


def _pgn_of(record: GameRecord) -> tuple[str, str]:
    from ..pgn import game_pgn

    game, _, labels = replayed(record)
    shown = record.copy()
    shown.players = [(pid, plain(name)) for pid, name in record.players]   # names as typed, not as escaped for chat
    return game_pgn(shown, labels, game.fen()), game.fen()


def _gif_of(record: GameRecord) -> bytes:
    import render

    game, views, labels = replayed(record)
    names = [plain(name) for _, name in record.players]
    title = names[0] if record.solo else f"{names[0]} (White) v {names[1]} (Black)"
    moves = [f"{ply + 1}. {label}" if record.solo else f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'} {label}"
             for ply, label in enumerate(labels)]
    return render.game_gif(views, orientation=rules.WHITE, title=title, labels=["Start", *moves],
                           result=_result_words(record, game))


def _result_words(record: GameRecord, game: Game) -> str:
    """The end of a replay in one line ("alice wins (1-0): checkmate"), or "" while it goes on."""
    if record.status == GameStatus.ABORTED:
        return "Aborted: no result"
    outcome = game.outcome
    result, reason = record.result or (outcome.result if outcome else None), record.reason or (outcome.reason if outcome else "")
    if result is None:
        return ""
    if result in ("solved", "failed"):
        return f"{result.capitalize()}: {reason}"
    winner = {"1-0": 0, "0-1": 1}.get(result)
    return f"Draw ({result}): {reason}" if winner is None else f"{plain(record.players[winner][1])} wins ({result}): {reason}"
