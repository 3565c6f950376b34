"""One bot process in the cross-process race (test_scale.py): plays moves in one game on a shared
PostgreSQL database until it holds `plies` moves, and prints what happened to each try as JSON.

    python -m tests.bot.race_player URL CHANNEL SEED PLIES

It prints "ready" once its store is open and starts when a line arrives on stdin, so the test starts
every process together however long each took to start (a busy machine changes nothing).
"""
from __future__ import annotations

import asyncio
import json
import random
import sys

import rules
from bot.service import GameService, Player, UserError
from bot.store.postgres import PostgresStore

PLAYERS = {rules.WHITE: Player("1", "alice"), rules.BLACK: Player("2", "bob")}


async def play(url: str, channel: str, seed: int, plies: int) -> list[dict]:
    store = await PostgresStore.open(url)
    service = GameService(store, renderer=lambda view, orientation: b"png")
    pick = random.Random(seed)
    tries: list[dict] = []
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)   # every process starts together, when the test says go
    try:
        while True:
            record = await store.open_game(channel)
            if record is None or len(record.moves) >= plies:
                return tries
            game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
            for move in record.moves:
                game.play(move)
            move = pick.choice(game.legal_moves())
            try:
                await service.move(channel, PLAYERS[game.turn], move)
            except UserError as exc:
                tries.append({"move": move, "told": str(exc)})
                continue
            live = service._live.get(channel)
            ply = len(live.record.moves) if live else len((await store.latest(channel)).moves)
            tries.append({"move": move, "ply": ply})
    finally:
        await store.close()


if __name__ == "__main__":
    url, channel, seed, plies = sys.argv[1:]
    print(json.dumps(asyncio.run(play(url, channel, int(seed), int(plies)))))
