"""Saved moves never shown under minutes of 5xx: `python benchmarks/outbox_faults.py [--minutes M] [--games G]`.

Runs the bot in this process against the local Discord stand-in (tests/discord/fake_discord/),
with the bot's real retry times (bot/discord/transport.py, bot/discord/outbox.py) and Discord's
3-second callback window. G standard games in G channels start; then every REST route the answers
use (callbacks, edits, followups, channel posts, deletions) answers 503 for M minutes, while each
game plays 4 moves (each move sent once the previous one is stored; its answer cannot get through).
Then Discord answers again. It prints how many saved moves were never shown (their "X plays Y"
line in no message of their channel, 90 s after the stretch), how many were shown twice, and
the longest time from the end of the stretch to a kept answer's post.

Measured on the 2-core development machine (shared, under load), --minutes 2 --games 8: 32 moves
saved during the 503s, 454 requests answered 503; saved moves never shown 0, shown twice 0; all 32
shown after the stretch, the last 0.9 s after Discord answered again; nothing left in the outbox.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service import GameService  # noqa: E402
from bot.store import InMemoryStore  # noqa: E402
from tests.discord.conftest import running_bot, tiny_png  # noqa: E402
from tests.discord.fake_discord import FakeDiscord  # noqa: E402

LINE = [("alice", "e2e4", "e4"), ("bob", "e7e5", "e5"), ("alice", "g1f3", "Nf3"), ("bob", "b8c6", "Nc6")]
ROUTES = ("answer", "delete_original", "channel_message", "delete_channel_message")
SETTLE = 90.0   # seconds after the stretch to wait for every kept answer


async def main(minutes: float, games: int) -> None:
    async with FakeDiscord() as fake:
        fake.deny_threads()
        channels = [fake.add_channel(f"board-{i}") for i in range(games)]
        service = GameService(InMemoryStore(), renderer=tiny_png)
        async with running_bot(fake, service) as bot:
            await fake.wait_until(lambda: all(bot.get_channel(int(c)) for c in channels))
            for channel in channels:
                challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard",
                                                           "colour": "white"}, user=fake.alice, channel=channel)
                accept = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
                await fake.click(accept, user=fake.bob)
            fake.callback_window = 3.0
            stretch = minutes * 60
            for route in ROUTES:
                fake.server_error(route, status=503, seconds=stretch)
            start = time.monotonic()
            for ply, (who, move, _) in enumerate(LINE, start=1):
                for channel in channels:
                    await fake.slash("move", {"move": move}, user=getattr(fake, who), channel=channel, wait=False)
                for channel in channels:
                    while len(getattr(await service.store.latest(channel), "moves", ())) < ply:
                        await asyncio.sleep(0.05)
                await asyncio.sleep(min(10.0, stretch / (2 * len(LINE))))   # moves spread over the stretch
            end = start + stretch
            saved = [(c, f"{who} plays **{san}**") for c in channels for who, _, san in LINE]
            print(f"{len(saved)} moves saved during {minutes:g} min of 503s; waiting for Discord to answer again")

            def seen(channel: str, text: str) -> list:
                return [s for s in fake.messages_in(channel) if text in s.content]

            deadline = end + SETTLE
            while time.monotonic() < deadline and not all(seen(c, t) for c, t in saved):
                await asyncio.sleep(0.2)
            never = [(c, t) for c, t in saved if not seen(c, t)]
            twice = [(c, t) for c, t in saved if len(seen(c, t)) > 1]
            after = [s.at - end for c, t in saved for s in seen(c, t)[:1] if s.at > end]
            print(f"saved moves never shown: {len(never)} of {len(saved)}; shown twice: {len(twice)}")
            print(f"shown after the stretch: {len(after)}; longest delay after Discord answered again: "
                  f"{max(after, default=0.0):.1f} s; requests answered 503: "
                  f"{sum(r.status == 503 for r in fake.requests)}")
            print(f"left in the outbox: {len(await service.store.deliveries())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--games", type=int, default=8)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main(args.minutes, args.games))
