"""Who may act is the service's call, whatever a button's custom_id says: clicks on buttons a
client forged (ids of its own choosing in the custom_id) change nothing they may not change."""
from __future__ import annotations

import logging

import pytest

from tests.discord.fake_discord import CHANNEL_MESSAGE, FakeDiscord, InteractionLog

pytestmark = pytest.mark.asyncio


async def forge(fake: FakeDiscord, custom_id: str, user: dict, on: InteractionLog, **where) -> InteractionLog:
    return await fake.click(custom_id, user=user, message=fake.forged(on.reply.message, custom_id), **where)


async def test_nobody_but_the_challenger_withdraws_an_open_challenge_whatever_the_button_says(bot, fake, service):
    made = await fake.slash("challenge", {"variant": "standard"}, user=fake.alice)
    forged = await forge(fake, f"kibitz:decline:1:{fake.carol['id']}:0", fake.carol, made)
    assert forged.reply.ephemeral and forged.reply.content == "Only the challenger can withdraw an open challenge."
    assert (await service.store.get(1)).status == "challenge"
    assert not [s for s in forged.sent if s.kind == "edit"] and fake.channel_edits == []   # its message stands
    accepted = await fake.click("kibitz:accept:1:0", user=fake.bob, message=made.reply.message)
    assert "bob accepts" in accepted.text and (await service.store.get(1)).status == "active"


async def test_the_challenger_still_withdraws_an_open_challenge(bot, fake, service):
    made = await fake.slash("challenge", {"variant": "standard"}, user=fake.alice)
    withdrawn = await fake.click(f"kibitz:decline:1:{fake.alice['id']}:0", user=fake.alice,
                                 message=made.reply.message)
    assert "alice withdraws the challenge" in withdrawn.text and (await service.store.get(1)).status == "declined"


async def test_a_named_opponent_declining_by_a_forged_withdraw_button_is_shown_as_declined(bot, fake, service):
    made = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    declined = await forge(fake, f"kibitz:decline:1:{fake.bob['id']}:0", fake.bob, made)
    assert "bob declines the challenge" in declined.text
    settled = [s for s in declined.sent if s.kind == "edit" and s.body.get("content")]
    assert settled and settled[0].body["content"].endswith("was declined.")   # not "withdrawn" by bob


async def test_a_forged_rematch_button_outside_the_games_server_makes_no_challenge(bot, fake, service):
    fake.deny_threads()
    made = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    await fake.click(f"kibitz:accept:1:{fake.bob['id']}", user=fake.bob, message=made.reply.message)
    over = await fake.slash("resign", user=fake.alice)
    dm = fake.dm_channel_of(fake.alice)
    forged = await forge(fake, "kibitz:rematch:1", fake.alice, over, channel=dm)
    assert forged.reply.ephemeral and "server where the game was played" in forged.reply.content
    assert await service.store.challenges(dm) == [] and (await service.store.get(2)) is None
    rematch = await fake.click("kibitz:rematch:1", user=fake.alice, message=over.reply.message)   # in its server
    assert "alice challenges bob" in rematch.text


@pytest.mark.parametrize("custom_id", ["kibitz:nope:1", "kibitz:accept:x:0", "kibitz:accept:1", "other"])
async def test_a_control_no_handler_claims_gets_one_private_answer(bot, fake, service, caplog, custom_id):
    made = await fake.slash("challenge", {"variant": "standard"}, user=fake.alice)
    forged = await forge(fake, custom_id, fake.bob, made, timeout=10)
    assert [(s.type, s.ephemeral) for s in forged.callbacks] == [(CHANNEL_MESSAGE, True)]
    assert forged.reply.content == "That button is out of date."
    assert (await service.store.get(1)).status == "challenge"
    assert [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


BIG = str(2 ** 64)   # passes a plain [0-9]+ but no database integer


@pytest.mark.parametrize("custom_id, values", [
    (f"kibitz:accept:{BIG}:0", None), (f"kibitz:decline:{BIG}:1:0", None), (f"kibitz:resign:{BIG}", None),
    (f"kibitz:draw:{BIG}", None), (f"kibitz:rematch:{BIG}", None), (f"kibitz:takeback-yes:{BIG}", None),
    (f"kibitz:tbclr:{BIG}:0", None), (f"kibitz:ks:{BIG}:0:1:a1", None), (f"kibitz:tb:1:{BIG}:", ["e2"]),
    ("kibitz:tb:1:0:~~\u00b2", ["e2"]), ("kibitz:tb:1:0:", [">\u00b2"])])
async def test_forged_numbers_out_of_range_get_one_private_answer_and_no_traceback(bot, fake, service, caplog,
                                                                                   custom_id, values):
    made = await fake.slash("challenge", {"variant": "standard"}, user=fake.alice)
    if values is None:
        forged = await forge(fake, custom_id, fake.bob, made, timeout=10)
    else:
        forged = await fake.select(custom_id, values, user=fake.bob, timeout=10,
                                   message=fake.forged(made.reply.message, custom_id, select=True))
    assert [(s.type, s.ephemeral) for s in forged.callbacks] == [(CHANNEL_MESSAGE, True)]
    assert (await service.store.get(1)).status == "challenge"
    assert [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


async def test_a_forged_accept_or_decline_from_a_dm_leaves_the_challenge_open(bot, fake, service):
    made = await fake.slash("challenge", {"variant": "standard"}, user=fake.alice)
    dm = fake.dm_channel_of(fake.bob)
    for custom_id, user in (("kibitz:accept:1:0", fake.bob), (f"kibitz:decline:1:{fake.alice['id']}:0", fake.alice)):
        forged = await forge(fake, custom_id, user, made, channel=dm)
        assert forged.reply.ephemeral and "posted in another channel" in forged.reply.content
    record = await service.store.get(1)
    assert record.status == "challenge" and record.open_seat is not None
    accepted = await fake.click("kibitz:accept:1:0", user=fake.bob, message=made.reply.message)   # on its message
    assert "bob accepts" in accepted.text
