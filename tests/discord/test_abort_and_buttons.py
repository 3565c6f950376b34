"""/abort, the Draw and Resign buttons on the board, and one board orientation, end to end
through the Discord stand-in."""
from __future__ import annotations

from typing import Any

import pytest

import rules
from bot.service import GameService
from bot.store import InMemoryStore
from tests.discord.conftest import tiny_png
from tests.discord.fake_discord import CHANNEL_MESSAGE, FakeDiscord, InteractionLog

pytestmark = pytest.mark.asyncio


def button(log: InteractionLog, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c.get("label") == label)


def labels(message: dict[str, Any]) -> list[str]:
    return [c.get("label") for row in message.get("components") or [] for c in row["components"] if c.get("label")]


def board_labels(fake: FakeDiscord, channel: str) -> list[list[str]]:
    """The labels of each board's buttons in `channel`, as its message shows now."""
    return [labels(fake.messages[m.message["id"]]) for m in fake.messages_in(channel) if m.files]


def mentioned(message: dict[str, Any]) -> list[str]:
    return [user["id"] for user in message["mentions"]]


async def begin(fake: FakeDiscord) -> tuple[str, dict[str, Any]]:
    """alice (White) v bob, accepted: the game's thread and the first board in it."""
    made = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                            user=fake.alice)
    accepted = await fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message)
    assert "accepts" in accepted.reply.content
    thread = list(fake.threads)[-1]
    [board] = fake.messages_in(thread)
    return thread, board.message


# -- abort ------------------------------------------------------------------------------------------
async def test_a_moderator_aborts_a_game_with_no_result_and_no_rating(bot, fake, service):
    thread, _ = await begin(fake)
    await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread)
    aborted = await fake.slash("abort", user=fake.moderator, channel=thread)
    assert not aborted.reply.ephemeral and "mod aborted game #1" in aborted.reply.content
    assert len([m for m in fake.messages_in(thread) if "aborted game #1" in m.content]) == 1   # said once
    record = await service.store.get(1)
    assert (record.status, record.result) == ("aborted", None)
    assert await service.store.leaderboard(fake.guild_id, "standard") == []
    after = await fake.slash("move", {"move": "e5"}, user=fake.bob, channel=thread)
    assert after.reply.ephemeral


async def test_a_moderator_aborts_a_game_by_number_from_another_channel(bot, fake, service):
    await begin(fake)
    other = fake.add_channel("lobby")
    await fake.wait_until(lambda: bot.get_channel(int(other)))
    aborted = await fake.slash("abort", {"game": 1}, user=fake.moderator, channel=other)
    assert "aborted game #1" in aborted.reply.content
    assert (await service.store.get(1)).status == "aborted"
    thread = list(fake.threads)[-1]
    await fake.wait_until(lambda: any("mod aborted game #1" in m.content for m in fake.messages_in(thread)))
    told = next(m for m in fake.messages_in(thread) if "mod aborted game #1" in m.content)
    assert not told.ephemeral and mentioned(told.message) == [fake.alice["id"], fake.bob["id"]]   # where they play
    assert mentioned(aborted.reply.message) == []   # not in the channel where it was aborted
    await fake.wait_until(lambda: not any(board_labels(fake, thread)))   # the board's controls are off


async def test_an_abort_takes_the_controls_off_the_last_board_and_pings_the_players(bot, fake):
    thread, _ = await begin(fake)
    await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread)
    await fake.wait_until(lambda: board_labels(fake, thread) == [[], ["Draw", "Resign"]])   # the newest has controls
    aborted = await fake.slash("abort", user=fake.moderator, channel=thread)
    assert mentioned(aborted.reply.message) == [fake.alice["id"], fake.bob["id"]]   # neither aborted it
    await fake.wait_until(lambda: not any(board_labels(fake, thread)))
    assert len(board_labels(fake, thread)) == 2


async def test_an_aborted_games_board_has_no_buttons_and_no_player_to_move(bot, fake):
    thread, _ = await begin(fake)
    await fake.slash("abort", user=fake.moderator, channel=thread)
    shown = await fake.slash("board", user=fake.bob, channel=thread)
    assert "It was aborted: no result, no rating." in shown.reply.content
    assert "to move" not in shown.reply.content and labels(shown.reply.message) == []


async def test_abort_is_refused_privately_and_at_once_to_a_player_without_manage_threads(bot, fake, service):
    thread, _ = await begin(fake)
    refused = await fake.slash("abort", user=fake.bob, channel=thread)
    assert refused.callbacks[0].type == CHANNEL_MESSAGE and refused.reply.ephemeral   # no public "thinking"
    assert "manage threads" in refused.reply.content
    assert (await service.store.get(1)).status == "active"


# -- draw and resign buttons -------------------------------------------------------------------------
async def test_the_board_carries_draw_and_resign_buttons(bot, fake):
    _, board = await begin(fake)
    assert labels(board)[-2:] == ["Draw", "Resign"]


async def test_a_draw_offered_by_button_stands_through_the_offerers_move_and_is_accepted_by_button(bot, fake, service):
    thread, board = await begin(fake)
    offered = await fake.click("kibitz:draw:1", user=fake.alice, message=board)
    assert "alice offers a draw" in offered.reply.content and labels(offered.reply.message) == ["Accept draw"]
    await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread)
    assert (await service.store.get(1)).draw_offer == fake.alice["id"]
    agreed = await fake.click(button(offered, "Accept draw"), user=fake.bob, message=offered.reply.message)
    assert "bob accepts the draw" in agreed.reply.content and "**Draw**" in agreed.reply.content
    assert labels(agreed.reply.message) == ["Rematch"]


async def test_accept_draw_under_an_offer_that_no_longer_stands_offers_nothing(bot, fake, service):
    thread, board = await begin(fake)
    offered = await fake.click("kibitz:draw:1", user=fake.alice, message=board)
    for user, move in [(fake.alice, "e4"), (fake.bob, "e5")]:   # bob's move declines the offer
        await fake.slash("move", {"move": move}, user=user, channel=thread)
    late = await fake.click(button(offered, "Accept draw"), user=fake.bob, message=offered.reply.message)
    assert late.reply.ephemeral and late.reply.content == "That draw offer no longer stands: nothing was done."
    record = await service.store.get(1)
    assert (record.status, record.draw_offer) == ("active", None)
    assert not [m for m in fake.messages_in(thread) if "bob offers a draw" in m.content]


async def test_resign_asks_privately_for_a_confirmation_first(bot, fake, service):
    _, board = await begin(fake)
    asked = await fake.click("kibitz:resign:1", user=fake.bob, message=board)
    assert asked.reply.ephemeral and "Resign game #1?" in asked.reply.content
    assert labels(asked.reply.message) == ["Yes, resign"]
    assert (await service.store.get(1)).status == "active"
    confirmed = await fake.click("kibitz:resign-ok:1", user=fake.bob, message=asked.reply.message)
    public = [s for s in confirmed.messages if not s.ephemeral]
    assert public and "bob resigns" in public[-1].content and "**alice wins**" in public[-1].content
    assert any(s.kind == "edit" and s.body.get("content") == "You resigned." for s in confirmed.sent)
    assert (await service.store.get(1)).result == "1-0"


async def test_board_buttons_refuse_onlookers_and_earlier_games_privately(bot, fake, service):
    thread, board = await begin(fake)
    for custom_id in ("kibitz:resign:1", "kibitz:draw:1"):
        refused = await fake.click(custom_id, user=fake.carol, message=board)
        assert refused.reply.ephemeral and "not playing" in refused.reply.content
    await fake.slash("resign", user=fake.alice, channel=thread)
    await fake.slash("challenge", {"variant": "standard", "opponent": fake.alice, "colour": "white"},
                     user=fake.bob, channel=thread)
    await fake.click(f"kibitz:accept:2:{fake.alice['id']}", user=fake.alice)   # game 2, in the same thread
    stale = await fake.click("kibitz:resign:1", user=fake.alice, message=board)
    assert stale.reply.ephemeral and "earlier game" in stale.reply.content
    assert (await service.store.get(2)).status == "active"


async def test_building_a_turn_keeps_the_draw_and_resign_buttons(bot, fake):
    _, board = await begin(fake)
    select = next(c for row in board["components"] for c in row["components"] if c.get("type") == 3)
    picked = await fake.select(select["custom_id"], [select["options"][0]["value"]], user=fake.alice, message=board)
    assert labels(picked.reply.message)[-2:] == ["Draw", "Resign"]


# -- orientation ---------------------------------------------------------------------------------------
@pytest.fixture
def drawn():
    return []


@pytest.fixture
def service(drawn) -> GameService:
    def recording_png(view, orientation):
        drawn.append(orientation)
        return tiny_png(view, orientation)

    return GameService(InMemoryStore(), renderer=recording_png)


async def test_every_board_of_a_game_has_white_at_the_bottom(bot, fake, drawn):
    thread, _ = await begin(fake)
    drawn.clear()
    for user, move in [(fake.alice, "e4"), (fake.bob, "e5"), (fake.alice, "Nf3")]:
        await fake.slash("move", {"move": move}, user=user, channel=thread)
    await fake.slash("board", user=fake.bob, channel=thread)
    assert drawn == [rules.WHITE] * 4


async def test_board_flip_shows_the_caller_alone_black_at_the_bottom(bot, fake, drawn):
    thread, _ = await begin(fake)
    await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread)
    drawn.clear()
    flipped = await fake.slash("board", {"flip": True}, user=fake.bob, channel=thread)
    assert flipped.reply.ephemeral and "seen from Black's side" in flipped.reply.content
    assert flipped.reply.files and drawn == [rules.BLACK]
    assert not [m for m in fake.messages_in(thread) if "Black's side" in m.content and not m.ephemeral]
    # private "thinking", then the board in its place: two requests, nothing deleted
    assert [(r.method, r.status) for r in fake.requests if flipped.token in r.path] == [("POST", 200), ("PATCH", 200)]


async def test_board_flip_shows_the_game_board_shows_after_an_abort_and_waits_for_a_challenge(bot, fake):
    fake.deny_threads()   # games in place: the channel's earlier game must not be shown instead
    first = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob}, user=fake.alice)
    waiting = await fake.slash("board", {"flip": True}, user=fake.bob)
    assert waiting.reply.ephemeral and "The challenge has not been accepted yet" in waiting.reply.content
    await fake.click(button(first, "Accept"), user=fake.bob, message=first.reply.message)
    await fake.slash("resign", user=fake.alice)
    second = await fake.slash("challenge", {"variant": "zoo", "opponent": fake.bob}, user=fake.alice)
    await fake.click(button(second, "Accept"), user=fake.bob, message=second.reply.message)
    await fake.slash("abort", user=fake.moderator)
    flipped = await fake.slash("board", {"flip": True}, user=fake.bob)
    assert flipped.reply.ephemeral and "**Zoo Chess** · game #2, seen from Black's side" in flipped.reply.content
