"""Writes tests/bot/data/kibitz-0.2.0.db: games stored by Kibitz 0.2.0 through its real service
and SQLite store, and kibitz-0.2.0.json beside it: what each game must replay to.

The database holds, for each of the 36 variants, a game in play and a game played on to its end
(where seeded random play ends within `PLIES`; KingSwap! follows its solver's tour), with turns of
several parts, men in hand and dropped (Reentrant, Tyrant, Donnybrook), solo puzzles solved, given
up and in play (one with a turn taken back), a challenge still waiting, a declined one, a resigned
game and a drawn one. tests/bot/test_stored_games.py opens a copy with today's store and checks
that every game replays to the same position and ending.

Run by hand from the repository root, only to add games of a new kind (the file stands for what
older versions stored, so it is not re-recorded when the rules change):

    PYTHONPATH=$PWD python -m tests.bot.stored_games_record
"""
from __future__ import annotations

import asyncio
import json
import random
import tempfile
import tomllib
from pathlib import Path

import rules
from bot.service import GameService, Player, games, puzzles
from bot.store import GameRecord, SqliteStore
from tests.rules.corpus_record import line_of

DATA = Path(__file__).parent / "data"
DATABASE = DATA / "kibitz-0.2.0.db"
EXPECTED = DATA / "kibitz-0.2.0.json"
WHITE, BLACK = Player("201", "wanda"), Player("202", "boris")
GUILD = "901"
PLIES = 300           # a finished game is played on for at most this many turns
IN_PLAY = 14          # turns of a game left in play (more where men in hand must be dropped first)
HANDS = ("reentrant", "tyrant", "donnybrook")
WRITTEN_AT = 1_748_779_200.0   # the service's clock while writing (2025-06-01 12:00 UTC)
# The variants 0.2.0 had, all of whose games the database holds (variants added since have none).
VARIANTS_OF_0_2_0 = (
    "balanced-swap", "blunder-mate", "clerical", "concurrent", "contravention", "counselor", "deadline",
    "decastellation", "donnybrook", "dowager", "dynastic", "entourage", "glory", "junta", "kingmaker", "kingswap",
    "linkage", "moderation", "prop", "reentrant", "regent", "safe-passage", "separation", "series-helpmate",
    "shrapnel", "society", "solitary-patience", "spartan", "standard", "submission", "triple-check", "twilight",
    "tyrant", "ultimate", "xenophobic", "zoo")


def no_picture(view, orientation) -> bytes:
    return b""


class Recorder:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.games: list[dict] = []   # id, channel and how each game was settled

    async def play(self, channel: str, game_id: int, moves: list[str]) -> None:
        record = await self.service.store.get(game_id)
        assert record is not None
        game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
        seats = {rules.WHITE: WHITE, rules.BLACK: BLACK}
        for move in moves:
            user = WHITE if record.solo else seats[game.turn]
            text = game.label(move) if len(game.history) % 3 == 0 else move   # some typed as players write
            played = game.play(move)
            await self.service.move(channel, user, text)
            assert (await self.service.store.get(game_id)).moves[-1] == played

    async def duel(self, slug: str, channel: str, moves: int | None, closing: float = 0.0) -> int:
        """A challenge, accepted and played: `moves` turns, or on to the end (None)."""
        game_id = (await self.service.challenge(channel, WHITE, BLACK, slug, guild=GUILD)).game_id
        assert game_id is not None
        await self.service.accept(channel, BLACK)
        await self.play(channel, game_id, await self.line(game_id, moves, closing))
        self.games.append({"id": game_id, "channel": channel})
        return game_id

    async def puzzle(self, slug: str, channel: str, seed: int, moves: int | None, closing: float = 0.0) -> int:
        game_id = (await self.service.start_puzzle(channel, WHITE, slug, seed=seed, guild=GUILD)).game_id
        assert game_id is not None
        await self.play(channel, game_id, await self.line(game_id, moves, closing))
        self.games.append({"id": game_id, "channel": channel})
        return game_id

    async def line(self, game_id: int, moves: int | None, closing: float) -> list[str]:
        record = await self.service.store.get(game_id)
        assert record is not None
        line = line_of(record.variant, record.seed or 0, PLIES, closing)
        if moves is None:
            return line
        if record.variant in HANDS:   # on until a man in hand has been dropped
            dropped = next((i for i, move in enumerate(line) if "@" in move), len(line))
            moves = max(moves, dropped + 3)
        return line[:min(moves, len(line) - 1)]


async def write(path: Path) -> list[dict]:
    random.seed(2002)   # the seeds the service draws for challenges
    # the version an installed Kibitz stamps on its games (run from a checkout, it knows none)
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    for module in (games, puzzles):   # the parts of the service that start games stamp it
        module.RULES_VERSION = project["version"]
    store = await SqliteStore.open(path)
    service = GameService(store, renderer=no_picture, clock=lambda: "2025-06-01T12:00:00+00:00",
                          timer=lambda: WRITTEN_AT)
    recorder = Recorder(service)
    for slug, info in rules.VARIANTS.items():
        if info.players == 2:
            await recorder.duel(slug, f"{slug}-playing", IN_PLAY)
            await recorder.duel(slug, f"{slug}-ended", None, closing=0.35)
        else:
            await recorder.puzzle(slug, f"{slug}-playing", 5, IN_PLAY)
            await recorder.puzzle(slug, f"{slug}-ended", 6, None, closing=0.35)
    await service.undo("kingswap-playing", WHITE)                  # a puzzle's turn taken back
    for slug in ("safe-passage", "solitary-patience"):             # puzzles given up
        await recorder.puzzle(slug, f"{slug}-given-up", 7, 9)
        await service.resign(f"{slug}-given-up", WHITE)
    await recorder.duel("zoo", "resigned", 9)
    await service.resign("resigned", BLACK)
    await recorder.duel("standard", "drawn", 12)
    await service.draw("drawn", WHITE)
    await service.draw("drawn", BLACK)
    for channel in ("waiting", "declined"):
        game_id = (await service.challenge(channel, WHITE, BLACK, "balanced-swap", guild=GUILD)).game_id
        recorder.games.append({"id": game_id, "channel": channel})
    await service.decline("declined", BLACK)
    expected = [await expectation(store, game) for game in recorder.games]
    await store.close()
    return expected


def replayed(record: GameRecord) -> rules.Game:
    """The stored game replayed from its set-up, each stored turn played as it is stored."""
    game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
    for move in record.moves:
        assert game.play(move) == move, (record.id, record.variant, move)
    return game


async def expectation(store: SqliteStore, game: dict) -> dict:
    """What the stored game must replay to; `ended` says who ended it: the rules or a player."""
    record = await store.get(game["id"])
    assert record is not None
    game_now = replayed(record)
    outcome = game_now.outcome
    ended = "rules" if outcome is not None else ("player" if record.result else None)
    if ended == "player":
        outcome = rules.Outcome(record.result or "", record.reason or "", record.score)
    return {**game, "variant": record.variant, "status": record.status, "seed": record.seed,
            "start_fen": record.start_fen, "plies": len(record.moves), "fen": game_now.fen(),
            "result": record.result, "reason": record.reason, "score": record.score, "ended": ended,
            "kind": outcome.kind if outcome else None, "parts": sum(" " in move for move in record.moves),
            "drops": sum("@" in move for move in record.moves)}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "kibitz.sqlite3"
        expected = asyncio.run(write(path))
        DATABASE.write_bytes(path.read_bytes())
    EXPECTED.write_text(json.dumps(expected, indent=1) + "\n")
    ended = sum(game["ended"] is not None for game in expected)
    print(f"{len(expected)} games ({ended} ended) in {DATABASE} ({DATABASE.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
