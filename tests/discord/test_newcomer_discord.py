"""/variants and the variant autocomplete through the stand-in for Discord: the catalogue in follow-ups
of the same command, never a line cut; each choice shows the game's goal as far as it fits."""
import pytest

import rules

from tests.discord.test_discord_commands import assert_answered_publicly

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    fake.deny_threads()


async def test_variants_lists_every_game_with_its_goal_in_follow_ups(bot, fake):
    log = await fake.slash("variants", user=fake.alice)
    await fake.wait_until(lambda: "`zoo`" in log.text)   # the last game, in the last follow-up
    await fake.nothing_more(user=fake.alice)
    assert_answered_publicly(log)
    assert len(log.messages) >= 2 and len(log.followups) == len(log.messages) - 1   # the same command's
    assert all(len(m.content) <= 2000 and not m.ephemeral for m in log.messages)
    lines = [line for m in log.messages for line in m.content.split("\n")]
    for slug, info in rules.VARIANTS.items():
        assert f"**{info.name}** (`{slug}`): {info.summary}" in lines   # whole, in one message


async def test_variant_autocomplete_shows_the_goal_where_it_fits(bot, fake):
    choices = await fake.autocomplete("challenge", {"variant": "zoo"}, "variant", user=fake.alice)
    assert choices[0]["value"] == "zoo"
    assert choices[0]["name"].startswith("Zoo Chess (zoo): Be first to capture enemy men of four different kinds")
    choices = await fake.autocomplete("challenge", {"variant": "s"}, "variant", user=fake.alice)
    assert all(len(c["name"]) <= 100 for c in choices)
    swap = next(c["name"] for c in choices if c["value"] == "balanced-swap")
    assert swap == "Balanced Swap Chess (balanced-swap): " + rules.VARIANTS["balanced-swap"].summary
    cut = [c for c in choices if c["name"].endswith("…")]   # a goal too long to fit: its first words
    assert cut and all(rules.VARIANTS[c["value"]].summary.startswith(c["name"].split("): ", 1)[1][:-1]) for c in cut)
