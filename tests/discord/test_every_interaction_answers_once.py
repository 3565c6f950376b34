"""End to end: across a session that uses every kind of answer (a listing, long rules cards in two
embeds, a puzzle and its hint, a private flipped board, a daily deal, a challenge with its buttons,
moves, mistakes, a draw offer, a resignation), each interaction is acknowledged once, is
answered, never leaves a "thinking" message behind, and shows all its messages with one
visibility; and the same holds when every command is slow (defers first)."""
from __future__ import annotations

import pytest

from bot.discord import interactions
from tests.discord.fake_discord import CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, LOADING, FakeDiscord, InteractionLog

pytestmark = pytest.mark.asyncio


async def session(fake: FakeDiscord) -> None:
    await fake.slash("variants", user=fake.alice)
    await fake.slash("rules", {"variant": "safe-passage"}, user=fake.alice)
    await fake.slash("rules", {"variant": "nonsense"}, user=fake.alice)
    await fake.slash("puzzle", {"variant": "kingswap", "seed": 7}, user=fake.alice)
    await fake.slash("hint", user=fake.alice, timeout=10)
    await fake.slash("board", {"flip": True}, user=fake.alice)
    await fake.slash("resign", user=fake.alice)
    await fake.slash("puzzle", {"variant": "solitary-patience", "daily": True}, user=fake.bob)
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"},
                                 user=fake.alice)
    accept = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    await fake.click(accept, user=fake.carol)    # not for her: a private refusal
    await fake.click(accept, user=fake.bob)
    await fake.slash("move", {"move": "e4"}, user=fake.alice)
    await fake.slash("move", {"move": "e4"}, user=fake.alice)   # not her turn
    await fake.slash("move", {"move": "e9"}, user=fake.bob)     # not a move
    await fake.slash("board", user=fake.carol)
    await fake.slash("draw", user=fake.bob)
    await fake.slash("resign", user=fake.alice)


def faults(log: InteractionLog) -> list[str]:
    found = []
    if len(log.callbacks) != 1:
        found.append(f"{len(log.callbacks)} callbacks")
    if not log.is_answered():
        found.append("never answered")
    if log.original is not None and not log.original_deleted and log.original.get("flags", 0) & LOADING:
        found.append('"thinking" left')
    if len({s.ephemeral for s in log.messages}) > 1:
        found.append("public and private messages mixed")
    return found


async def test_every_interaction_of_a_session_is_answered_once_with_nothing_left_thinking(bot, fake):
    fake.deny_threads()
    await session(fake)
    assert {log.id: f for log in fake.interactions.values() if (f := faults(log))} == {}
    commands = [log for log in fake.interactions.values() if log.type == 2]
    deferred = [log for log in commands if log.callbacks[0].type != CHANNEL_MESSAGE]
    private = [log for log in deferred if log.callbacks[0].ephemeral]   # flip and daily: private "thinking"
    assert len(private) == 2
    # the rest answered in one callback, except /hint should its search (of HINT_NODES positions) run past 1.5 s
    assert {log.payload["data"]["name"] for log in deferred if log not in private} <= {"hint"}
    assert fake.unhandled == []


async def test_every_interaction_of_a_slow_session_is_answered_once_with_nothing_left_thinking(bot, fake,
                                                                                              monkeypatch):
    monkeypatch.setattr(interactions, "DEFER_AFTER", 0)   # a call that awaits anything defers first
    fake.deny_threads()
    await session(fake)
    assert {log.id: f for log in fake.interactions.values() if (f := faults(log))} == {}
    deferred = {log.payload["data"]["name"] for log in fake.interactions.values()
                if log.type == 2 and log.callbacks[0].type == DEFERRED_CHANNEL_MESSAGE}
    assert deferred >= {"rules", "puzzle", "hint", "board", "move", "resign"}   # all that await a thread
    assert fake.unhandled == []
