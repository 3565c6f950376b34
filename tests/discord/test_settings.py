"""End to end: /settings, for members with Manage Server only, stored per server: variants on
and off, threads, default days per move, and the channel where challenges are announced."""
from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService
from bot.store import SqliteStore
from tests.discord.conftest import running_bot, tiny_png

pytestmark = pytest.mark.asyncio

SEND_MESSAGES = 1 << 11


def button(log, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c["label"] == label)


async def test_settings_are_refused_privately_to_members_without_manage_server(bot, fake, service):
    for user in (fake.bob, fake.moderator):   # Manage Threads is not Manage Server
        log = await fake.slash("settings", {"threads": False}, user=user)
        assert log.reply.ephemeral and "Manage Server" in log.reply.content
        assert not any(s.type == 5 for s in log.callbacks)   # no public "thinking" first
    assert await service.store.settings(fake.guild_id) == {}


async def test_settings_with_no_options_show_the_current_ones_privately(bot, fake):
    log = await fake.slash("settings", user=fake.alice)
    text = log.reply.content
    assert log.reply.ephemeral
    assert "Variants: all on." in text and "Threads: on" in text and "(the bot's default)" in text
    assert "only the channel where they are made" in text


async def test_a_disabled_variant_is_refused_by_challenge_and_puzzle(bot, fake, service):
    log = await fake.slash("settings", {"disable": "clerical"}, user=fake.alice)
    assert "Settings saved." in log.reply.content and "all on except Clerical Chess" in log.reply.content
    await fake.slash("settings", {"disable": "kingswap"}, user=fake.alice)
    refused = await fake.slash("challenge", {"variant": "clerical", "opponent": fake.bob}, user=fake.carol)
    assert refused.reply.ephemeral and refused.reply.content == \
        "Clerical Chess is turned off in this server; /settings shows what is on."
    puzzle = await fake.slash("puzzle", {"variant": "kingswap"}, user=fake.carol)
    assert puzzle.reply.ephemeral and "turned off in this server" in puzzle.reply.content
    assert fake.threads == {} and await service.store.open_in_guild(fake.guild_id) == []
    await fake.slash("settings", {"enable": "all"}, user=fake.alice)
    allowed = await fake.slash("challenge", {"variant": "clerical", "opponent": fake.bob}, user=fake.carol)
    assert not allowed.reply.ephemeral


async def test_default_days_apply_to_new_challenges(bot, fake, service):
    await fake.slash("settings", {"days": 7}, user=fake.alice)
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.carol)
    record = await service.game_record(int(button(log, "Accept").split(":")[2]))
    assert record.move_seconds == 7 * 86400
    assert "Default time per move: 7 days." in (await fake.slash("settings", user=fake.alice)).reply.content


async def test_challenges_are_also_announced_in_the_chosen_channel(bot, fake):
    lobby = fake.add_channel("lobby")
    await fake.wait_until(lambda: bot.get_channel(int(lobby)))
    shown = await fake.slash("settings", {"announce": lobby}, user=fake.alice)
    assert f"Challenges announced in: <#{lobby}>." in shown.reply.content
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.carol)
    await fake.wait_until(lambda: fake.messages_in(lobby))
    [announced] = fake.messages_in(lobby)
    assert "carol challenges bob" in announced.content and log.reply.message["id"] in announced.content
    assert announced.message["mentions"] == [] and not announced.message["components"]   # no second ping, no buttons
    here = await fake.slash("challenge", {"variant": "standard", "opponent": fake.alice}, user=fake.bob,
                            channel=lobby)
    assert not here.reply.ephemeral and len(fake.messages_in(lobby)) == 2   # made there: not announced twice
    await fake.slash("settings", {"stop_announcing": True}, user=fake.alice)
    await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    assert len(fake.messages_in(lobby)) == 2


async def test_settings_are_kept_per_server_in_the_store(bot, fake, service):
    await fake.slash("settings", {"threads": False, "days": 2}, user=fake.alice)
    assert await service.store.settings(fake.guild_id) == {"disabled": [], "threads": False, "days": 2,
                                                           "announce": None}
    bad = await fake.slash("settings", {"disable": "nonesuch"}, user=fake.alice)
    assert bad.reply.ephemeral and "don't know a variant" in bad.reply.content


async def test_an_announced_challenge_names_its_challenger_in_full(bot, fake):
    lobby = fake.add_channel("lobby")
    await fake.wait_until(lambda: bot.get_channel(int(lobby)))
    await fake.slash("settings", {"announce": lobby}, user=fake.alice)
    doctor = fake.add_member("Dr. Who")
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=doctor)
    await fake.wait_until(lambda: fake.messages_in(lobby))
    [announced] = fake.messages_in(lobby)
    link = f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{log.reply.message['id']}"
    assert announced.content == \
        f"New challenge in <#{fake.channel_id}>: Dr. Who challenges bob to **Standard chess**. {link}"


async def test_an_announce_channel_the_bot_may_not_post_in_is_refused(fake, service):
    closed = fake.add_channel("announcements")
    fake.channels[closed]["permission_overwrites"].append(
        {"id": fake.app_id, "type": 1, "allow": "0", "deny": str(SEND_MESSAGES)})
    async with running_bot(fake, service):
        log = await fake.slash("settings", {"announce": closed}, user=fake.alice)
    assert log.reply.ephemeral and log.reply.content == \
        f"I cannot post in <#{closed}>: let me send messages there, or choose another channel."
    assert await service.store.settings(fake.guild_id) == {}


async def test_all_is_offered_to_enable_only_and_disable_all_is_refused_in_a_sentence(bot, fake, service):
    enable = await fake.autocomplete("settings", {"enable": "a"}, "enable", user=fake.alice)
    assert enable[0] == {"name": "all variants", "value": "all"}
    disable = await fake.autocomplete("settings", {"disable": "a"}, "disable", user=fake.alice)
    assert disable and "all" not in [c["value"] for c in disable]
    refused = await fake.slash("settings", {"disable": "all"}, user=fake.alice)
    assert refused.reply.ephemeral and refused.reply.content == \
        "Turn variants off one at a time; `enable all` turns them all back on."
    assert await service.store.settings(fake.guild_id) == {}


async def test_two_settings_changed_at_the_same_moment_are_both_kept(fake):
    store = await SqliteStore.open(":memory:")   # its calls yield to the event loop, so the two interleave
    try:
        service = GameService(store, renderer=tiny_png)
        async with running_bot(fake, service):
            await asyncio.gather(fake.slash("settings", {"disable": "zoo"}, user=fake.alice),
                                 fake.slash("settings", {"disable": "clerical"}, user=fake.alice))
        assert (await store.settings(fake.guild_id))["disabled"] == ["clerical", "zoo"]
    finally:
        await store.close()
