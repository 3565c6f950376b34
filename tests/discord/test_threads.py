"""End to end: where games live. An accepted challenge or a puzzle gets a public thread of its
own (many games per channel at once); where threads may not be made, or the command runs in a
thread, or the server turned threads off, the game is played in place. After the end, /board in
the thread shows how the game ended and /move says it is over. /games lists it all."""
from __future__ import annotations

import asyncio

import pytest

from tests.discord.conftest import message_noted
from tests.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.asyncio

PUBLIC_THREAD = 11


def button(log, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c["label"] == label)


async def challenge_and_accept(fake: FakeDiscord, challenger, opponent, variant="standard", channel=None):
    made = await fake.slash("challenge", {"variant": variant, "opponent": opponent, "colour": "white"},
                            user=challenger, channel=channel)
    accepted = await fake.click(button(made, "Accept"), user=opponent, message=made.reply.message)
    return made, accepted


def challenge_id(log) -> int:
    return int(button(log, "Accept").split(":")[2])


def thread_named(fake: FakeDiscord, name: str) -> str:
    return next(tid for tid, thread in fake.threads.items() if thread["name"] == name)


async def test_an_accepted_challenge_is_played_in_a_public_thread_of_its_own(bot, fake):
    made, accepted = await challenge_and_accept(fake, fake.alice, fake.bob)
    thread_id = thread_named(fake, "alice vs bob · Standard chess")
    thread = fake.threads[thread_id]
    assert thread["type"] == PUBLIC_THREAD and thread["parent_id"] == fake.channel_id
    # the channel shows the challenge edited with the thread's link; the accepter alone gets a pointer
    pointer = accepted.reply
    assert pointer.ephemeral and pointer.channel_id == fake.channel_id
    assert f"/{fake.guild_id}/{thread_id}" in fake.messages[made.reply.message["id"]]["content"]
    assert "bob accepts" in pointer.content and f"/{fake.guild_id}/{thread_id}" in pointer.content
    [board] = fake.messages_in(thread_id)
    assert "The game begins" in board.content and "alice to move" in board.content and board.files
    assert {fake.alice["id"], fake.bob["id"]} <= set(thread["members"])   # both players are in the thread
    # the game is played there, not in the channel
    played = await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread_id)
    assert "alice plays **e4**" in played.reply.content and played.reply.channel_id == thread_id
    elsewhere = await fake.slash("move", {"move": "e5"}, user=fake.bob)
    assert elsewhere.reply.ephemeral and "No game in this channel" in elsewhere.reply.content
    assert "/games links the games in play" in elsewhere.reply.content   # where to find the thread


async def test_many_games_run_side_by_side_in_one_channel(bot, fake):
    await challenge_and_accept(fake, fake.alice, fake.bob)
    await challenge_and_accept(fake, fake.carol, fake.alice)
    first = thread_named(fake, "alice vs bob · Standard chess")
    second = thread_named(fake, "carol vs alice · Standard chess")
    one = await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=first)
    two = await fake.slash("move", {"move": "d4"}, user=fake.carol, channel=second)
    assert "alice plays **e4**" in one.reply.content and "carol plays **d4**" in two.reply.content


async def test_two_members_accepting_an_open_challenge_at_once_make_one_thread(bot, fake):
    made = await fake.slash("challenge", {"variant": "standard", "colour": "white"}, user=fake.alice)
    answers = await asyncio.gather(
        fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message),
        fake.click(button(made, "Accept"), user=fake.carol, message=made.reply.message))
    [won] = [a for a in answers if "accepts" in a.reply.content]
    [lost] = [a for a in answers if a is not won]
    winner = "bob" if "bob accepts" in won.reply.content else "carol"
    assert lost.reply.content == "That challenge is no longer open."
    assert [t["name"] for t in fake.threads.values()] == [f"alice vs {winner} · Standard chess"]
    assert len(fake.requests_to(r"POST /channels/\d+/threads")) == 1   # none made and dropped for carol


async def test_a_long_thread_name_is_cut_to_discords_limit(bot, fake):
    long_name = fake.add_member("x" * 90)
    await challenge_and_accept(fake, long_name, fake.bob)
    [thread] = fake.threads.values()
    assert len(thread["name"]) <= 100 and thread["name"].startswith("x" * 80)


async def test_where_the_bot_may_not_make_threads_the_game_is_played_in_place(bot, fake):
    fake.deny_threads(fake.channel_id)
    await fake.wait_until(lambda: not bot.get_channel(int(fake.channel_id)).permissions_for(
        bot.get_guild(int(fake.guild_id)).me).create_public_threads)
    made, accepted = await challenge_and_accept(fake, fake.alice, fake.bob)
    assert fake.threads == {}
    assert "bob accepts. The game begins." in accepted.reply.content and accepted.reply.files
    played = await fake.slash("move", {"move": "e4"}, user=fake.alice)
    assert "alice plays **e4**" in played.reply.content


async def test_a_refused_thread_still_starts_the_game_in_place(bot, fake, monkeypatch):
    """app_permissions said yes, Discord said 403: play in place all the same."""
    fake.inject(r"POST /channels/\d+/threads", status=403, body={"message": "Missing Permissions", "code": 50013})
    made, accepted = await challenge_and_accept(fake, fake.alice, fake.bob)
    assert fake.threads == {}
    assert "The game begins." in accepted.reply.content
    assert "alice plays" in (await fake.slash("move", {"move": "e4"}, user=fake.alice)).reply.content


async def test_a_challenge_made_in_a_thread_is_played_in_that_thread(bot, fake):
    await challenge_and_accept(fake, fake.alice, fake.bob)
    thread_id = thread_named(fake, "alice vs bob · Standard chess")
    made, accepted = await challenge_and_accept(fake, fake.carol, fake.bob, channel=None)
    other = thread_named(fake, "carol vs bob · Standard chess")
    # a challenge posted inside a game's thread is refused while that game is on; after it, played in place
    await fake.slash("resign", user=fake.alice, channel=thread_id)
    made, accepted = await challenge_and_accept(fake, fake.alice, fake.carol, channel=thread_id)
    assert len(fake.threads) == 2 and other in fake.threads
    assert "The game begins." in accepted.reply.content and accepted.reply.channel_id == thread_id


async def test_threads_off_in_settings_plays_in_place(bot, fake, service):
    await service.change_settings(fake.guild_id, threads=False)
    made, accepted = await challenge_and_accept(fake, fake.alice, fake.bob)
    assert fake.threads == {} and "The game begins." in accepted.reply.content


async def test_a_puzzle_opens_a_thread_of_its_own(bot, fake, service):
    log = await fake.slash("puzzle", {"variant": "kingswap", "seed": 1}, user=fake.alice)
    [(thread_id, thread)] = fake.threads.items()
    assert thread["name"] == "alice · KingSwap!" and thread["type"] == PUBLIC_THREAD
    assert "alice starts **KingSwap!**" in log.reply.content and thread_id in log.reply.content
    [board] = fake.messages_in(thread_id)
    assert "seed 1" in board.content and board.files
    assert fake.alice["id"] in thread["members"]
    record = await service.store.open_game(thread_id)
    assert record.home_channel_id == fake.channel_id
    # a second puzzle in the same channel gets its own thread
    await fake.slash("puzzle", {"variant": "kingswap", "seed": 2}, user=fake.bob)
    assert len(fake.threads) == 2


async def test_a_refused_puzzle_opens_no_thread(bot, fake):
    log = await fake.slash("puzzle", {"variant": "standard"}, user=fake.alice)
    assert log.reply.ephemeral and "/challenge" in log.reply.content
    assert fake.threads == {}


async def test_after_the_end_board_shows_the_end_and_move_says_it_is_over(bot, fake):
    await challenge_and_accept(fake, fake.alice, fake.bob)
    thread_id = thread_named(fake, "alice vs bob · Standard chess")
    for user, move in [(fake.alice, "f3"), (fake.bob, "e5"), (fake.alice, "g4"), (fake.bob, "Qh4")]:
        await fake.slash("move", {"move": move}, user=user, channel=thread_id)
    board = await fake.slash("board", user=fake.carol, channel=thread_id)
    text = board.reply.content
    assert not board.reply.ephemeral and board.reply.files
    assert "This game is over." in text and "bob wins" in text and "Checkmate" in text
    assert "Moves: 1. f3 e5 2. g4 Qh4" in text
    assert [c.get("label") for c in board.components()] == ["Rematch"]   # no turn builder on a finished game
    move = await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread_id)
    assert move.reply.ephemeral and "This game is over." in move.reply.content
    assert "/challenge" in move.reply.content


async def test_games_lists_open_games_and_challenges_with_links(bot, fake, service):
    await challenge_and_accept(fake, fake.alice, fake.bob)
    thread_id = thread_named(fake, "alice vs bob · Standard chess")
    await fake.slash("move", {"move": "e4"}, user=fake.alice, channel=thread_id)
    waiting = await fake.slash("challenge", {"variant": "standard"}, user=fake.carol)
    assert await message_noted(service, challenge_id(waiting)) == waiting.reply.message["id"]
    log = await fake.slash("games", user=fake.bob)
    assert not log.reply.ephemeral
    lines = log.reply.content.splitlines()
    assert lines[0] == "**Open games and challenges** (2)"
    assert "alice vs bob · bob to move · last move just now" in lines[1]
    assert f"https://discord.com/channels/{fake.guild_id}/{thread_id}" in lines[1]
    assert "Challenge: carol to anyone" in lines[2]
    assert f"/{fake.channel_id}/{waiting.reply.message['id']}" in lines[2]   # the challenge's own message


async def test_help_points_to_variants_and_rules(bot, fake):
    log = await fake.slash("help", user=fake.bob)
    assert "/variants" in log.reply.content and "/rules" in log.reply.content
    assert len(log.reply.content.splitlines()) <= 10
    missing = [c["name"] for c in fake.commands if c["name"] != "help" and f"/{c['name']}" not in log.reply.content]
    assert missing == []   # every command is named, so a newcomer learns it exists


async def test_a_thread_made_for_an_accept_that_then_fails_is_removed(bot, fake, service, monkeypatch):
    made = await fake.slash("challenge", {"variant": "standard", "opponent": fake.bob, "colour": "white"},
                            user=fake.alice)

    async def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "accept", broken)
    failed = await fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message)
    assert failed.reply.ephemeral and "Something went wrong" in failed.reply.content
    [removed] = fake.deleted_threads
    assert removed["name"] == "alice vs bob · Standard chess" and fake.threads == {}
    assert (await service.store.challenges(fake.channel_id))[0].status == "challenge"   # still waiting
    monkeypatch.undo()
    again = await fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message)   # trying again works
    assert "bob accepts" in again.reply.content
    [(thread_id, _)] = fake.threads.items()
    assert (await service.store.open_game(thread_id)).players[1][1] == "bob"


async def test_a_puzzle_whose_start_fails_leaves_no_thread_behind(bot, fake, service, monkeypatch):
    async def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "start_puzzle", broken)
    log = await fake.slash("puzzle", {"variant": "kingswap", "seed": 1}, user=fake.alice)
    assert log.reply.ephemeral and "Something went wrong" in log.reply.content
    [removed] = fake.deleted_threads
    assert removed["name"] == "alice · KingSwap!" and fake.threads == {}


async def test_without_manage_threads_an_unused_thread_stays_and_is_logged(bot, fake, service, monkeypatch, caplog):
    from tests.discord.fake_discord import MANAGE_THREADS

    role = fake.roles[fake.bot_role]
    role["permissions"] = str(int(role["permissions"]) & ~MANAGE_THREADS)

    async def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(service, "start_puzzle", broken)
    log = await fake.slash("puzzle", {"variant": "kingswap", "seed": 1}, user=fake.alice)
    assert log.reply.ephemeral and "Something went wrong" in log.reply.content
    assert fake.deleted_threads == [] and len(fake.threads) == 1
    assert any("could not remove unused thread" in r.getMessage() for r in caplog.records)
