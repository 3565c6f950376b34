"""End to end: the Kibitz bot against a fake Discord (REST + gateway on 127.0.0.1)."""
from __future__ import annotations

import logging

import pytest

import rules
from tests.discord.conftest import running_bot
from tests.discord.fake_discord import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    FakeDiscord,
    InteractionLog,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """These tests play where the command runs; games in threads: tests/discord/test_threads.py."""
    fake.deny_threads()

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
COMMANDS = {"variants", "rules", "puzzle", "challenge", "move", "board", "resign", "draw", "undo",
            "leaderboard", "profile", "export", "replay", "games", "help", "pings", "settings", "hint", "takeback",
            "abort"}
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)   # members, presences, message content


def assert_answered_publicly(log: InteractionLog) -> None:
    """A slash command answered quickly: its one callback is the public answer, with nothing
    ("thinking" or an edit) before it; a longer text goes on in followups."""
    assert log.callbacks, f"no callback: {log.sent!r}"
    assert log.sent[0].kind == "callback" and log.sent[0].type == CHANNEL_MESSAGE, log.sent
    assert not log.sent[0].ephemeral and len(log.callbacks) == 1, log.sent
    assert all(s.kind == "followup" for s in log.sent[1:]), log.sent


def assert_private_error(log: InteractionLog, text: str | None = None) -> str:
    """An error the user alone sees, with no public message, not even a "thinking" one, before it."""
    assert log.messages, f"no answer: {log.sent!r}"
    assert all(s.ephemeral for s in log.messages), log.sent
    if log.type == 2:   # a slash command: the private sentence is the first answer, no public defer
        assert not any(s.type == DEFERRED_CHANNEL_MESSAGE for s in log.callbacks), log.sent
    if text is not None:
        assert log.reply.content == text
    return log.reply.content


async def start_game(fake: FakeDiscord) -> None:
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
    accept_id = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    accepted = await fake.click(accept_id, user=fake.bob)
    assert "accepts" in accepted.reply.content


# -- start-up ---------------------------------------------------------------------------------------

async def test_start_up_syncs_commands_and_identifies(bot, fake):
    assert {c["name"] for c in fake.commands} == COMMANDS
    assert fake.command_syncs == 1
    options = {c["name"]: {o["name"]: o for o in c.get("options", [])} for c in fake.commands}
    assert options["move"]["move"]["autocomplete"] is True
    assert options["challenge"]["opponent"]["type"] == 6          # a user
    assert options["puzzle"]["variant"]["autocomplete"] is True
    assert options["puzzle"]["seed"]["required"] is False and options["puzzle"]["seed"]["min_value"] == 0
    assert fake.identify["token"] == "test-token"
    assert fake.identify["intents"] & PRIVILEGED_INTENTS == 0
    assert fake.gateway_query["v"] == "10" and fake.gateway_query["encoding"] == "json"
    assert [r.path for r in fake.requests[:2]] == ["/users/@me", "/oauth2/applications/@me"]
    assert fake.unhandled == []
    assert bot.get_guild(int(fake.guild_id)) is not None


# -- catalogue --------------------------------------------------------------------------------------

async def test_variants_lists_standard_and_kingswap(bot, fake):
    log = await fake.slash("variants", user=fake.alice)
    assert_answered_publicly(log)
    assert "`standard`" in log.text and "`kingswap`" in log.text
    assert not any(s.ephemeral for s in log.messages)
    assert all(len(s.content) <= 2000 for s in log.messages)


async def test_rules_of_unknown_variant_is_a_private_sentence(bot, fake):
    log = await fake.slash("rules", {"variant": "nonesuch"}, user=fake.alice)
    assert "nonesuch" in assert_private_error(log)


async def test_variant_autocomplete(bot, fake):
    choices = await fake.autocomplete("puzzle", {"variant": "king"}, "variant", user=fake.alice)
    assert "kingswap" in [c["value"] for c in choices]
    assert len(choices) <= 25 and all(len(c["name"]) <= 100 for c in choices)


# -- puzzles ----------------------------------------------------------------------------------------

async def test_puzzle_replies_with_png_and_alt_text(bot, fake, service):
    log = await fake.slash("puzzle", {"variant": "kingswap", "seed": 1}, user=fake.alice)
    assert_answered_publicly(log)
    reply = log.reply
    assert not reply.ephemeral
    assert "seed 1" in reply.content
    [upload] = reply.files
    assert upload.data.startswith(PNG_MAGIC) and upload.filename.endswith(".png")
    assert upload.description and upload.description.strip()
    [attachment] = reply.message["attachments"]
    assert attachment["description"] == upload.description and attachment["size"] == len(upload.data)
    # The alt text is the service's own description of the position.
    assert upload.description == (await service.board(fake.channel_id)).alt


# -- challenges -------------------------------------------------------------------------------------

async def test_challenge_shows_buttons_that_only_the_opponent_may_press(bot, fake):
    log = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
    assert_answered_publicly(log)
    buttons = {c["label"]: c for c in log.components()}
    assert set(buttons) == {"Accept", "Decline"}
    accept_id = buttons["Accept"]["custom_id"]
    assert accept_id.startswith("kibitz:accept:")

    refused = await fake.click(accept_id, user=fake.carol)
    assert [s.type for s in refused.callbacks] == [CHANNEL_MESSAGE]
    assert refused.reply.ephemeral and "Only" in refused.reply.content
    board = await fake.slash("board", user=fake.alice)   # still only a challenge
    assert "waiting for an answer" in assert_private_error(board)

    accepted = await fake.click(accept_id, user=fake.bob)
    assert accepted.callbacks[0].type == DEFERRED_UPDATE_MESSAGE
    edits = [s for s in accepted.sent if s.kind == "edit"]
    assert edits and edits[0].message["components"] == []          # buttons gone from the challenge
    reply = accepted.reply
    assert not reply.ephemeral and "bob accepts" in reply.content and "alice to move" in reply.content
    assert reply.files and reply.files[0].data.startswith(PNG_MAGIC)


async def test_decline_closes_the_challenge(bot, fake):
    log = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
    decline_id = next(c["custom_id"] for c in log.components() if c["label"] == "Decline")
    declined = await fake.click(decline_id, user=fake.bob)
    assert "bob declines" in declined.reply.content
    again = await fake.click(decline_id, user=fake.bob, message=log.reply.message)
    assert again.reply.ephemeral and "no longer open" in again.reply.content


async def test_buttons_still_work_after_a_restart(fake, service):
    async with running_bot(fake, service):
        log = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
        accept_id = next(c["custom_id"] for c in log.components() if c["label"] == "Accept")
    async with running_bot(fake, service, sync=False):   # a new process: no views in memory
        accepted = await fake.click(accept_id, user=fake.bob, message=log.reply.message)
        assert "bob accepts" in accepted.reply.content


async def test_cannot_challenge_a_bot(bot, fake):   # other than Kibitz itself (test_computer.py)
    other = fake._user("Helper", bot=True, user_id="4242")
    log = await fake.slash("challenge", {"opponent": other, "variant": "standard"}, user=fake.alice)
    assert "Bots" in assert_private_error(log)


# -- playing ----------------------------------------------------------------------------------------

async def test_a_game_from_first_move_to_resignation(bot, fake):
    await start_game(fake)

    before = (await fake.slash("board", user=fake.carol)).reply.content
    wrong = await fake.slash("move", {"move": "e2e4"}, user=fake.bob)
    assert_private_error(wrong, "It is not your turn.")
    assert (await fake.slash("board", user=fake.carol)).reply.content == before   # nothing changed

    played = await fake.slash("move", {"move": "e2e4"}, user=fake.alice)
    assert_answered_publicly(played)
    reply = played.reply
    assert not reply.ephemeral
    assert "1. alice plays **e4**." in reply.content and "bob to move" in reply.content
    assert reply.files and reply.files[0].data.startswith(PNG_MAGIC) and reply.files[0].description

    game = rules.new_game("standard")
    game.play("e2e4")
    with pytest.raises(rules.IllegalMove) as illegal:
        game.play("e7e4")
    bad = await fake.slash("move", {"move": "e7e4"}, user=fake.bob)
    assert_private_error(bad, str(illegal.value))   # the rules' own sentence

    choices = await fake.autocomplete("move", {"move": "e7"}, "move", user=fake.bob)
    assert {c["value"] for c in choices} == {"e7e5", "e7e6"}
    everything = await fake.autocomplete("move", {"move": ""}, "move", user=fake.bob)
    assert len(everything) == 20      # black's 20 legal replies

    resigned = await fake.slash("resign", user=fake.bob)
    assert_answered_publicly(resigned)
    assert "bob resigns" in resigned.reply.content and "alice wins" in resigned.reply.content
    after = await fake.slash("move", {"move": "e7e5"}, user=fake.bob)
    assert "This game is over." in assert_private_error(after)

    for log in fake.interactions.values():
        if log.type == 2 and not all(s.ephemeral for s in log.messages):   # every public answer is its callback
            assert_answered_publicly(log)
    assert fake.unhandled == []


async def test_move_autocomplete_without_a_game_is_empty(bot, fake):
    assert await fake.autocomplete("move", {"move": "e2"}, "move", user=fake.alice) == []


# -- errors -----------------------------------------------------------------------------------------

async def test_unexpected_errors_are_logged_and_get_a_generic_private_reply(bot, fake, service, monkeypatch,
                                                                            caplog):
    async def broken(channel):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(service, "board", broken)
    with caplog.at_level(logging.ERROR, logger="bot.discord.tree"):
        log = await fake.slash("board", user=fake.alice)
    text = assert_private_error(log)
    assert "database" not in text and "went wrong" in text
    [record] = [r for r in caplog.records if r.name == "bot.discord.tree"]
    assert record.exc_info and "database on fire" in str(record.exc_info[1])


# -- the production path ----------------------------------------------------------------------------

async def test_production_path_sqlite_real_renderer_and_restart(fake, tmp_path, monkeypatch):
    """What `python -m bot` runs (run(cfg) -> _serve): SQLite store, real renderer, restore.
    A challenge made before a restart is accepted after it, by its button."""
    import asyncio

    import discord

    from bot.discord.app import DiscordConfig, KibitzBot, _serve

    bot_ready = asyncio.Event()   # _serve keeps its bot to itself; learn of on_ready this way
    on_ready = KibitzBot.on_ready

    async def spy_on_ready(self):
        await on_ready(self)
        bot_ready.set()

    monkeypatch.setattr(KibitzBot, "on_ready", spy_on_ready)

    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    endpoints = DiscordConfig(fake.api_base, fake.gateway_url)
    db = str(tmp_path / "kibitz.sqlite3")

    async def serving():
        fake.ready.clear()
        bot_ready.clear()
        task = asyncio.create_task(_serve("test-token", None, endpoints, db, {"guild_ready_timeout": 0.01}))
        await fake.wait_ready()
        await asyncio.wait_for(bot_ready.wait(), 5)
        return task

    async def stop(task):
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        task = await serving()
        try:
            log = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
            accept_id = next(c["custom_id"] for c in log.components() if c["label"] == "Accept")
        finally:
            await stop(task)
        task = await serving()
        try:
            accepted = await fake.click(accept_id, user=fake.bob, message=log.reply.message)
            assert "bob accepts" in accepted.reply.content
            [upload] = accepted.reply.files
            assert upload.data.startswith(PNG_MAGIC) and len(upload.data) > 1000 and upload.description
        finally:
            await stop(task)
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
