"""A stand-in bot process for the kill -9 tests: plays a stream of random legal moves (now and then
a takeback in a puzzle, or a resignation) in several channels through the service over a SQLite
file, and reports each call once it has returned.

    python -m tests.bot.move_stream_driver DB SEED [MAX_CALLS]

Every line on stdout is flushed as soon as the call it reports has returned:

    GAME <channel> <game id> <plies>   the channel's open game, as found or started (plies so far)
    ACK <channel> <ply> <move>         the service accepted <move> as turn number <ply> of that game
    UNDO <channel> <ply>               a puzzle's last move was taken back, <ply> turns remain
    RESIGN <channel> <game id>         the player to move resigned that game
    END                                MAX_CALLS calls made, the process exits normally

Games that end are replaced by a new one in the same channel. A restarted driver picks up the
open game of each channel from the database, accepting a challenge left waiting.
"""
from __future__ import annotations

import asyncio
import random
import sys

from bot.service import GameService, Player, UserError
from bot.store import SqliteStore

WHITE_PLAYER, BLACK_PLAYER = Player("101", "white-player"), Player("102", "black-player")
# channel -> (variant, puzzle seed); two-player games start by challenge and accept.
CHANNELS = {
    "duel-standard": ("standard", None),
    "duel-prop": ("prop", None),
    "duel-spartan": ("spartan", None),
    "puzzle-kingswap-1": ("kingswap", 5),
    "puzzle-kingswap-2": ("kingswap", 12),
}


def no_png(view, orientation) -> bytes:
    return b""


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Table:
    """One channel's game as the driver knows it: id, plies played, whose turn."""

    def __init__(self, channel: str, variant: str, seed: int | None) -> None:
        self.channel, self.variant, self.seed = channel, variant, seed
        self.game_id: int | None = None
        self.plies = 0

    @property
    def solo(self) -> bool:
        return self.seed is not None


async def open_table(service: GameService, store: SqliteStore, table: Table) -> None:
    """Find the channel's open game (accepting a waiting challenge), or start a new one."""
    reply = None
    if not table.solo:
        try:
            reply = await service.accept(table.channel, BLACK_PLAYER)
        except UserError:
            reply = None
    if reply is None:
        try:
            reply = await service.board(table.channel)
        except UserError:
            reply = None
        if reply is not None and reply.finished:   # the last game's final board: none in play
            reply = None
    if reply is None:
        if table.solo:
            reply = await service.start_puzzle(table.channel, WHITE_PLAYER, table.variant, seed=table.seed)
        else:
            await service.challenge(table.channel, WHITE_PLAYER, BLACK_PLAYER, table.variant)
            reply = await service.accept(table.channel, BLACK_PLAYER)
    assert reply.game_id is not None
    record = await store.get(reply.game_id)
    assert record is not None
    table.game_id, table.plies = reply.game_id, len(record.moves)
    say(f"GAME {table.channel} {table.game_id} {table.plies}")


async def play(path: str, seed: int, max_calls: int) -> None:
    rng = random.Random(seed)
    store = await SqliteStore.open(path)
    service = GameService(store, renderer=no_png)
    tables = [Table(channel, variant, puzzle_seed) for channel, (variant, puzzle_seed) in CHANNELS.items()]
    for table in tables:
        await open_table(service, store, table)
    for _ in range(max_calls):
        table = rng.choice(tables)
        view = (await service.board(table.channel)).view
        assert view is not None
        mover = WHITE_PLAYER if table.solo or view.turn == "white" else BLACK_PLAYER
        if table.solo and table.plies and rng.random() < 0.15:
            await service.undo(table.channel, mover)
            table.plies -= 1
            say(f"UNDO {table.channel} {table.plies}")
            continue
        if rng.random() < 0.01:
            await service.resign(table.channel, mover)
            say(f"RESIGN {table.channel} {table.game_id}")
            await open_table(service, store, table)
            continue
        move = rng.choice(await service.move_suggestions(table.channel, mover, limit=None))
        reply = await service.move(table.channel, mover, move)
        table.plies += 1
        say(f"ACK {table.channel} {table.plies} {move}")
        if reply.finished:
            await open_table(service, store, table)
    say("END")
    await store.close()


if __name__ == "__main__":
    asyncio.run(play(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 100_000))
