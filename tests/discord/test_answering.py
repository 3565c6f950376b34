"""End to end: how commands answer. Mistakes are private with no public "thinking" before them;
a quick public answer is one request (the callback carries the board), and a slow one defers within
Discord's 3 seconds; an
overlong option is refused in one short sentence; commands are synced only when they changed."""
from __future__ import annotations

import time

import pytest

from bot.service import GameService
from bot.store import InMemoryStore
from tests.discord.conftest import running_bot, tiny_png
from tests.discord.fake_discord import CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, FakeDiscord

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    fake.deny_threads()


async def start_game(fake: FakeDiscord) -> None:
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                           user=fake.alice)
    accept = next(c["custom_id"] for c in log.components() if c["label"] == "Accept")
    await fake.click(accept, user=fake.bob, message=log.reply.message)


@pytest.mark.parametrize("user, move, sentence", [
    ("carol", "e4", "You are not playing in this game."),
    ("bob", "e5", "It is not your turn."),
    ("alice", "e5", None),   # the rules' own reason
])
async def test_mistakes_are_one_private_sentence_with_no_thinking_first(bot, fake, user, move, sentence):
    await start_game(fake)
    log = await fake.slash("move", {"move": move}, user=getattr(fake, user))
    assert [s.type for s in log.callbacks] == [CHANNEL_MESSAGE]
    [answer] = log.messages
    assert answer.ephemeral and (sentence is None or answer.content == sentence)


async def test_a_quick_public_answer_is_one_request_carrying_the_board(bot, fake):
    await start_game(fake)
    log = await fake.slash("move", {"move": "e4"}, user=fake.alice)
    [callback] = log.sent   # no "thinking" first, no edit after: the callback is the answer
    assert callback.kind == "callback" and callback.type == CHANNEL_MESSAGE and not callback.ephemeral
    assert "alice plays **e4**" in callback.content and callback.files[0].filename.endswith(".png")
    assert [r.status for r in fake.requests if log.token in r.path] == [200]


async def test_a_6000_character_move_gets_one_short_private_sentence(bot, fake, service):
    await start_game(fake)
    log = await fake.slash("move", {"move": "e4" * 3000}, user=fake.alice)
    [answer] = log.messages
    assert answer.ephemeral and answer.content == "That is too long: an option takes at most 100 characters."
    assert not any(s.type == DEFERRED_CHANNEL_MESSAGE for s in log.callbacks)
    assert (await service.store.open_game(fake.channel_id)).moves == []


async def test_every_string_option_declares_its_length_limit(bot, fake):
    for command in fake.commands:
        for option in command.get("options", []):
            if option["type"] == 3 and not option.get("choices"):   # free text (choices are fixed words)
                assert option.get("max_length") == 100, (command["name"], option["name"])


def drawn_once_deferred(fake: FakeDiscord):
    """A renderer that, asked during an interaction, finishes only once the bot has deferred
    ("thinking" reached the stand-in), or after 10 s: it runs in a worker thread, and a bot that
    waited for it before deferring would answer late without a defer. Slow by the order of events,
    not by a sleep of so many seconds. (Drawings at start-up, before any interaction, are quick.)"""
    def png(view, orientation):
        for _ in range(1000 if fake.interactions else 0):
            if any(r.body.get("type") == DEFERRED_CHANNEL_MESSAGE for r in fake.requests_to("callback")):
                break
            time.sleep(0.01)
        return tiny_png(view, orientation)
    return png


async def test_a_slow_answer_defers_within_discords_three_seconds(fake):
    service = GameService(InMemoryStore(), renderer=drawn_once_deferred(fake))
    async with running_bot(fake, service):
        log = await fake.slash("puzzle", {"variant": "kingswap", "seed": 1}, user=fake.alice, timeout=10)
    defer = log.callbacks[0]
    assert defer.type == DEFERRED_CHANNEL_MESSAGE and not defer.ephemeral
    assert "seed 1" in log.reply.content
    # the order, not a duration: the defer reached Discord before the picture was drawn
    assert defer.at < log.reply.at


async def test_an_interaction_that_reached_the_bot_late_defers_sooner(fake):
    """Discord's 3 seconds run from when it made the interaction. One delivered 2 s late, whose
    answer takes 1.2 s more: waiting the usual 1.5 s before deferring would answer at 3.2 s, which
    Discord refuses; the bot defers at once and edits the board in after."""
    fake.callback_window = 3.0   # as Discord
    service = GameService(InMemoryStore(), renderer=drawn_once_deferred(fake))
    async with running_bot(fake, service):
        log = await fake.slash("puzzle", {"variant": "solitary-patience", "seed": 1}, user=fake.alice, timeout=10,
                               late=2.0)
    [defer] = log.callbacks
    assert defer.type == DEFERRED_CHANNEL_MESSAGE and not defer.ephemeral
    assert "seed 1" in log.reply.content and log.reply.kind == "edit"
    assert fake.channel_messages == []   # answered through the interaction, not by the fallback


async def test_an_unchanged_restart_does_not_sync_again(fake):
    service = GameService(InMemoryStore(), renderer=tiny_png)
    async with running_bot(fake, service):
        pass
    assert fake.command_syncs == 1
    async with running_bot(fake, service):
        pass
    assert fake.command_syncs == 1


async def test_changed_commands_are_synced():
    async with FakeDiscord(commands=[{"name": "move", "description": "An old description", "options": []}]) as fake:
        fake.deny_threads()
        async with running_bot(fake, GameService(InMemoryStore(), renderer=tiny_png)):
            pass
        assert fake.command_syncs == 1 and "settings" in {c["name"] for c in fake.commands}


async def test_a_dev_guild_gets_the_commands_too_and_only_when_changed(fake, monkeypatch):
    monkeypatch.setenv("KIBITZ_DEV_GUILD", fake.guild_id)
    service = GameService(InMemoryStore(), renderer=tiny_png)
    async with running_bot(fake, service):
        pass
    assert fake.guild_command_syncs[fake.guild_id] == 1
    assert {c["name"] for c in fake.guild_commands[fake.guild_id]} == {c["name"] for c in fake.commands}
    async with running_bot(fake, service):
        pass
    assert fake.guild_command_syncs[fake.guild_id] == 1 and fake.command_syncs == 1


async def test_a_dev_guild_the_bot_cannot_reach_is_logged_and_the_bot_still_serves(fake, monkeypatch, caplog):
    monkeypatch.setenv("KIBITZ_DEV_GUILD", "123456789012345678")   # a server the bot is not in
    fake.inject("GET /applications/[^/]+/guilds/[^/]+/commands", status=403, times=None,
                body={"message": "Missing Access", "code": 50001})
    async with running_bot(fake, GameService(InMemoryStore(), renderer=tiny_png)):
        log = await fake.slash("help", user=fake.alice)
    assert "/variants" in log.reply.content and fake.command_syncs == 1
    assert any("KIBITZ_DEV_GUILD 123456789012345678" in r.getMessage() for r in caplog.records)
