"""End to end: /challenge variant [opponent] [colour] [days], open challenges, the challenge's
message settled (accepted, declined, withdrawn, expired), pings with allowed_mentions for exactly
one member, /pings, and display names shown as typed."""
from __future__ import annotations


import pytest

from bot.discord.components.challenge import show_settled
from tests.discord.conftest import message_noted, running_bot
from tests.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """Challenges here are answered in the channel itself (threads: test_threads.py)."""
    fake.deny_threads()


def button(log, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c["label"] == label)


def game_id_of(log) -> int:
    return int(button(log, "Accept").split(":")[2])


def pinged(message: dict) -> list[str]:
    return [user["id"] for user in message["mentions"]]


async def test_options_are_variant_first_then_opponent_colour_days(bot, fake):
    [command] = [c for c in fake.commands if c["name"] == "challenge"]
    options = [(o["name"], o.get("required", False)) for o in command["options"]]
    assert options == [("variant", True), ("opponent", False), ("colour", False), ("days", False), ("level", False)]
    colour = next(o for o in command["options"] if o["name"] == "colour")
    assert [c["value"] for c in colour["choices"]] == ["white", "black", "random"]
    days = next(o for o in command["options"] if o["name"] == "days")
    assert (days["min_value"], days["max_value"]) == (1, 14)


async def test_colour_is_random_by_default_and_said(bot, fake, service):
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    text = log.reply.content
    assert "(drawn at random)" in text
    record = await service.game_record(game_id_of(log))
    white = "alice" if record.players[0][0] == fake.alice["id"] else "bob"
    assert ("alice would play White" in text) == (white == "alice")


async def test_colour_and_days_are_kept(bot, fake, service):
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "black", "days": 5},
                           user=fake.alice)
    assert "alice would play Black. 5 days per move. bob, accept or decline." in log.reply.content
    record = await service.game_record(game_id_of(log))
    assert record.players[1][0] == fake.alice["id"] and record.move_seconds == 5 * 86400


async def test_a_challenge_pings_the_challenged_member_only(bot, fake):
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    message = log.reply.message
    assert pinged(message) == [fake.bob["id"]]
    assert message["allowed_mentions"]["users"] == [int(fake.bob["id"])]
    assert not message["allowed_mentions"].get("parse") and not message["mention_everyone"]


async def test_an_open_challenge_anyone_but_the_challenger_may_accept(bot, fake, service):
    log = await fake.slash("challenge", {"variant": "standard", "colour": "white"}, user=fake.alice)
    assert "Anyone may accept" in log.reply.content and pinged(log.reply.message) == []
    assert {c["label"] for c in log.components()} == {"Accept", "Withdraw"}
    own = await fake.click(button(log, "Accept"), user=fake.alice, message=log.reply.message)
    assert own.reply.ephemeral and "your own challenge" in own.reply.content
    withdraw_by_other = await fake.click(button(log, "Withdraw"), user=fake.bob, message=log.reply.message)
    assert withdraw_by_other.reply.ephemeral and "Only the challenger" in withdraw_by_other.reply.content
    accepted = await fake.click(button(log, "Accept"), user=fake.carol, message=log.reply.message)
    assert "carol accepts" in accepted.reply.content and "alice to move" in accepted.reply.content
    record = await service.game_record(game_id_of(log))
    assert record.players == [(fake.alice["id"], "alice"), (fake.carol["id"], "carol")]


async def test_an_open_challenge_button_works_after_a_restart(fake, service):
    async with running_bot(fake, service):
        log = await fake.slash("challenge", {"variant": "standard"}, user=fake.alice)
    async with running_bot(fake, service, sync=False):
        accepted = await fake.click(button(log, "Accept"), user=fake.bob, message=log.reply.message)
        assert "bob accepts" in accepted.reply.content


async def test_accepting_settles_the_challenge_message(bot, fake, service):
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    await fake.click(button(log, "Accept"), user=fake.bob, message=log.reply.message)
    message = fake.messages[log.reply.message["id"]]
    assert message["components"] == [] and "accept or decline" not in message["content"]
    assert message["content"] == "alice's challenge to bob at **Standard chess** was accepted."


async def test_declining_and_withdrawing_settle_the_challenge_message(bot, fake):
    declined = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    await fake.click(button(declined, "Decline"), user=fake.bob, message=declined.reply.message)
    message = fake.messages[declined.reply.message["id"]]
    assert message["components"] == [] and message["content"].endswith("was declined.")
    withdrawn = await fake.slash("challenge", {"variant": "standard", "opponent": fake.carol}, user=fake.alice)
    answer = await fake.click(button(withdrawn, "Decline"), user=fake.alice, message=withdrawn.reply.message)
    assert "alice withdraws the challenge" in answer.reply.content
    message = fake.messages[withdrawn.reply.message["id"]]
    assert message["components"] == [] and message["content"].endswith("was withdrawn.")


async def test_an_expired_challenge_message_is_settled_from_its_stored_record(bot, fake, service):
    """The scheduler's path: only the record (home channel, message id) is at hand."""
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    game_id = game_id_of(log)
    assert await message_noted(service, game_id) == log.reply.message["id"]
    record = await service.game_record(game_id)
    assert await show_settled(bot, record, "expired")
    [edit] = [e for e in fake.channel_edits if e.message["id"] == log.reply.message["id"]]
    assert edit.message["components"] == [] and "expired without an answer" in edit.message["content"]
    assert "accept or decline" not in edit.message["content"]


async def test_a_move_pings_the_player_now_to_move_unless_they_opted_out(bot, fake):
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                           user=fake.alice)
    accepted = await fake.click(button(log, "Accept"), user=fake.bob, message=log.reply.message)
    assert pinged(accepted.reply.message) == [fake.alice["id"]]
    played = await fake.slash("move", {"move": "e4"}, user=fake.alice)
    assert pinged(played.reply.message) == [fake.bob["id"]]
    assert played.reply.message["allowed_mentions"]["users"] == [int(fake.bob["id"])]
    off = await fake.slash("pings", {"state": "off"}, user=fake.bob)
    assert off.reply.ephemeral and "no longer be pinged" in off.reply.content
    played = await fake.slash("move", {"move": "e5"}, user=fake.bob)
    assert pinged(played.reply.message) == [fake.alice["id"]]
    quiet = await fake.slash("move", {"move": "Nf3"}, user=fake.alice)
    assert pinged(quiet.reply.message) == [] and "<@" not in quiet.reply.content
    await fake.slash("pings", {"state": "on"}, user=fake.bob)
    again = await fake.slash("move", {"move": "Nc6"}, user=fake.bob)
    assert pinged(again.reply.message) == [fake.alice["id"]]


async def test_names_show_as_typed_and_never_ping(bot, fake: FakeDiscord, service):
    loud = fake.add_member("**@everyone**")
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"}, user=loud)
    message = log.reply.message
    assert not message["mention_everyone"] and pinged(message) == [fake.bob["id"]]
    assert "\\*\\*@\u200beveryone\\*\\*" in message["content"]   # Discord shows **@everyone**, plain
    await fake.click(button(log, "Accept"), user=fake.bob, message=message)
    pgn = await fake.slash("export", user=fake.bob)
    assert '[White "**@everyone**"]' in pgn.reply.files[0].data.decode()   # the PGN keeps the name as typed


async def test_a_bot_cannot_be_challenged(bot, fake):   # other than Kibitz itself (test_computer.py)
    other = fake._user("Helper", bot=True, user_id="4242")
    log = await fake.slash("challenge", {"variant": "standard", "opponent": other}, user=fake.alice)
    assert log.reply.ephemeral and "Bots" in log.reply.content


async def test_a_challenge_in_a_direct_message_is_refused(bot, fake, service):
    """Nobody but the challenger sees a DM with the bot: the opponent would never hear of it."""
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice,
                           channel=fake.dm_channel_of(fake.alice))
    assert log.reply.ephemeral and log.reply.content == \
        "Challenges are made in a server channel, where your opponent can see them."
    assert await service.store.open_in_guild(None) == []


async def test_another_member_cannot_accept_or_decline_a_challenge_to_someone_else(bot, fake, service):
    log = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    accept = await fake.click(button(log, "Accept"), user=fake.carol, message=log.reply.message)
    assert accept.reply.ephemeral and accept.reply.content == f"Only <@{fake.bob['id']}> can accept this challenge."
    decline = await fake.click(button(log, "Decline"), user=fake.carol, message=log.reply.message)
    assert decline.reply.ephemeral and "can decline this challenge" in decline.reply.content
    assert (await service.game_record(game_id_of(log))).status == "challenge"
    assert {c["label"] for c in fake.messages[log.reply.message["id"]]["components"][0]["components"]} == \
        {"Accept", "Decline"}   # the message is untouched


async def test_a_challenge_is_one_request_and_its_message_is_known_without_asking(bot, fake, service):
    log = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard"}, user=fake.alice)
    assert await message_noted(service, game_id_of(log)) == log.reply.message["id"]
    assert [(r.method, r.status) for r in fake.requests if log.token in r.path] == [("POST", 200)]   # the callback


async def test_a_challenge_posted_in_the_channel_after_its_answer_failed_is_still_settled(bot, fake, service):
    fake.unknown_webhook("answer")   # the interaction is dead: the challenge goes to the channel
    await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"},
                     user=fake.alice, wait=False)
    await fake.wait_until(lambda: fake.channel_messages)
    fake.clear_faults()
    [posted] = fake.channel_messages
    game_id = int(next(c["custom_id"] for row in posted.body["components"] for c in row["components"]
                       if c["label"] == "Accept").split(":")[2])
    assert await message_noted(service, game_id) == posted.message["id"]
    accept = next(c["custom_id"] for row in posted.body["components"] for c in row["components"] if c["label"] == "Accept")
    await fake.click(accept, user=fake.bob, message=posted.message)
    settled = fake.messages[posted.message["id"]]
    assert "accepted" in settled["content"] and settled["components"] == []
