"""Bad input from anywhere gets one short private answer: options of the wrong type, outside their
choices or range, or missing (as a client could send them), an autocomplete of something other
than text, a select with no value. Nothing changes and no traceback is logged."""
from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

import rules

from bot.service import present
from tests.discord.fake_discord import CHANNEL_MESSAGE, FakeDiscord, InteractionLog

pytestmark = pytest.mark.asyncio

WRONG = {3: 12345, 4: "abc", 5: "sideways", 6: "not-a-user", 7: "not-a-channel", 10: "x"}   # by option type


def valid(fake: FakeDiscord, option: dict[str, Any]) -> Any:
    if option.get("choices"):
        return option["choices"][0]["value"]
    return {3: "e4" if option["name"] == "move" else "standard", 4: option.get("min_value", 1), 5: True,
            6: fake.bob, 7: fake.channel_id, 10: 1.0}[option["type"]]


def cases(fake: FakeDiscord) -> list[tuple[str, dict[str, Any]]]:
    """(command, options) with one option wrong, or a required one left out, for every synced command."""
    found = []
    for command in fake.commands:
        options = command.get("options", [])
        required = {o["name"]: valid(fake, o) for o in options if o.get("required")}
        for option in options:
            others = {k: v for k, v in required.items() if k != option["name"]}
            if option.get("required"):
                found.append((command["name"], others))
            found.append((command["name"], {**others, option["name"]: WRONG[option["type"]]}))
            if option.get("choices"):
                found.append((command["name"], {**others, option["name"]: "sideways"}))
            if option.get("max_value") is not None:
                found.append((command["name"], {**others, option["name"]: option["max_value"] + 1}))
    return found


def faults(log: InteractionLog) -> list[str]:
    found = []
    if not log.is_answered():
        found.append("never answered")
    if len(log.callbacks) != 1 or log.callbacks[0].type != CHANNEL_MESSAGE:
        found.append(f"callbacks {[s.type for s in log.callbacks]}")
    if not all(s.ephemeral for s in log.messages):
        found.append("public")
    if log.messages and "Something went wrong" in log.reply.content:
        found.append("generic failure")
    return found


def tracebacks(caplog) -> list[str]:
    return [r.getMessage()[:120] for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_every_command_with_a_wrong_or_missing_option_is_refused_once_privately(bot, fake, service, caplog):
    caplog.set_level(logging.INFO)
    found: dict[str, Any] = {}
    tried = cases(fake)
    for name, options in tried:
        caplog.clear()
        log = await fake.slash(name, options, user=fake.alice, wait=False)
        await fake.wait_until(lambda: log.is_answered() or tracebacks(caplog), timeout=5)
        problems = faults(log) + tracebacks(caplog)
        if problems:
            found[f"/{name} {options}"] = problems
    assert found == {}
    assert len(tried) >= 30 and {name for name, _ in tried} >= {"rules", "challenge", "pings", "settings", "profile"}
    assert await service.store.open_in_guild(fake.guild_id) == []   # nothing was started


async def test_pings_state_sideways_is_refused_and_changes_nothing(bot, fake, service):
    refused = await fake.slash("pings", {"state": "sideways"}, user=fake.bob)
    assert refused.reply.ephemeral and refused.reply.content == "The state option takes on or off."
    assert await service.store.pings(fake.bob["id"]) is True


async def test_a_boolean_is_read_strictly(bot, fake):
    refused = await fake.slash("leaderboard", {"variant": "safe-passage", "daily": "yes"}, user=fake.bob)
    assert refused.reply.content == "The daily option takes True or False."


async def test_a_missing_required_option_is_named(bot, fake):
    refused = await fake.slash("rules", {}, user=fake.bob)
    assert refused.reply.ephemeral and refused.reply.content == "/rules needs its variant option."


async def test_an_autocomplete_of_something_other_than_text_gets_no_suggestions(bot, fake, caplog):
    caplog.set_level(logging.INFO)
    for name, option in [("settings", "enable"), ("rules", "variant"), ("move", "move")]:
        assert await fake.autocomplete(name, {option: 12345}, option, user=fake.alice) == []
    assert tracebacks(caplog) == []


async def test_a_select_with_no_value_is_refused_privately(bot, fake, service, caplog):
    caplog.set_level(logging.INFO)
    fake.deny_threads()
    made = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                            user=fake.alice)
    accepted = await fake.click(f"kibitz:accept:1:{fake.bob['id']}", user=fake.bob, message=made.reply.message)
    board = accepted.reply.message
    select = next(c for row in board["components"] for c in row["components"] if c.get("type") == 3)
    empty = await fake.select(select["custom_id"], [], user=fake.alice, message=board)
    assert empty.reply.ephemeral and "Pick one" in empty.reply.content
    assert tracebacks(caplog) == [] and (await service.store.get(1)).moves == []


async def test_a_daily_thread_is_named_with_the_plain_display_name_on_one_line(bot, fake, service):
    member = fake.add_member("*_" * 16 + "\u202eevil\n")   # escaped for chat it would be twice as long
    dealt = await fake.slash("puzzle", {"variant": "solitary-patience", "daily": True}, user=member)
    assert dealt.reply.ephemeral and "yours to play" in dealt.reply.content
    [thread] = fake.threads.values()
    assert thread["name"] == f"Solitary Patience Chess daily {service.today()} · {'*_' * 16}evil"


# -- rules cards and Discord's 6,000 characters over a message's embeds ----------------------------------
async def test_the_stand_in_refuses_a_message_whose_embeds_pass_6000_characters(bot, fake):
    channel = bot.get_channel(int(fake.channel_id))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embeds=[discord.Embed(title="t", description="x" * 4000), discord.Embed(description="y" * 2000)])
    assert (refused.value.status, refused.value.code) == (400, 50035)
    await channel.send(embeds=[discord.Embed(title="t", description="x" * 4000), discord.Embed(description="y" * 1999)])


async def test_the_stand_in_refuses_an_embed_over_discords_description_or_title_limit(bot, fake):
    channel = bot.get_channel(int(fake.channel_id))
    for embed in (discord.Embed(description="x" * 4097), discord.Embed(title="t" * 257, description="x")):
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(embed=embed)
        assert (refused.value.status, refused.value.code) == (400, 50035)
    await channel.send(embed=discord.Embed(title="t" * 256, description="x" * 4096))


async def test_every_rules_card_is_shown_whole_within_discords_limits(bot, fake, service):
    """The longest cards come near the limits (KingSwap!'s text within a few characters of one embed,
    Solitary Patience's near a message's 6,000): every card is taken by the stand-in, word for word."""
    for slug in sorted(rules.VARIANTS):
        card = (await service.rules_text(slug)).text
        title, body = card.split("\n", 1)
        log = await fake.slash("rules", {"variant": slug}, user=fake.alice)
        words = body.split()

        def shown(log: InteractionLog) -> list[str]:
            return " ".join(e["description"] for m in log.messages for e in m.data.get("embeds") or []).split()
        await log.wait(lambda log: shown(log) == words)
        assert log.messages[0].data["embeds"][0]["title"] == title.removeprefix("# ")
        assert all(r.status == 200 for r in fake.requests if log.token in r.path or "/callback" in r.path), slug


async def test_a_rules_card_too_long_for_one_message_goes_on_in_a_second(bot, fake, monkeypatch, tmp_path):
    paragraphs = [f"Paragraph {n}. " + "Every word counts here. " * 40 for n in range(9)]   # about 8,800 characters
    (tmp_path / "zoo.md").write_text("# Zoo Chess\n\n" + "\n\n".join(paragraphs), encoding="utf-8")
    monkeypatch.setattr(present, "RULE_CARDS", tmp_path)
    log = await fake.slash("rules", {"variant": "zoo"}, user=fake.alice)
    await log.wait(lambda shown: len(shown.messages) >= 2)
    embeds = [message.data.get("embeds") or [] for message in log.messages]
    assert [len(e) for e in embeds] == [2, 1] and all(sum(len(x.get("title") or "") + len(x["description"])
                                                           for x in message) <= 6000 for message in embeds)
    assert embeds[0][0]["title"] == "Zoo Chess"
    assert " ".join(x["description"] for message in embeds for x in message).split() == " ".join(paragraphs).split()
    assert all(r.status == 200 for r in fake.requests if log.token in r.path or "/callback" in r.path)


async def test_an_autocomplete_with_another_option_of_the_wrong_type_gets_no_suggestions(bot, fake, caplog):
    caplog.set_level(logging.INFO)
    tried, found = [], {}
    for command in fake.commands:
        options = command.get("options", [])
        for focused in (o["name"] for o in options if o.get("autocomplete")):
            for other in (o for o in options if o["name"] != focused):
                caplog.clear()
                sent = {focused: "st", other["name"]: WRONG[other["type"]]}
                tried.append((command["name"], other["type"]))
                try:
                    choices: Any = await fake.autocomplete(command["name"], sent, focused, user=fake.alice)
                except AssertionError:   # never answered
                    choices = None
                if choices != [] or tracebacks(caplog):
                    found[f"/{command['name']} {sent}"] = (choices, tracebacks(caplog))
    assert found == {}
    assert {("settings", 7), ("challenge", 6)} <= set(tried), tried
