"""End to end through the Discord stand-in: daily deals in private threads or DMs, their first
finish on the daily board, and a puzzle's all-time board."""
from __future__ import annotations

import asyncio

import pytest

import rules
from bot.service import GameService, Player
from bot.store import GameRecord, InMemoryStore
from tests.discord.conftest import running_bot, tiny_png

pytestmark = [pytest.mark.asyncio, pytest.mark.usefixtures("deals_worked_out_once")]

PATIENCE = "solitary-patience"


async def deal(fake, user, variant=PATIENCE, **where):
    return await fake.slash("puzzle", {"variant": variant, "daily": True}, user=user, **where)


async def copy_of(service, user, variant=PATIENCE) -> GameRecord:
    copies = await service.store.daily_games(service.today(), variant, user["id"])
    assert len(copies) == 1, copies
    return copies[0]


def _player(user) -> Player:
    return Player(user["id"], user["username"])


def first_move(record: GameRecord) -> str:
    game = rules.new_game(record.variant, fen=record.start_fen)
    for move in record.moves:
        game.play(move)
    return game.legal_moves()[0]


async def test_a_daily_is_dealt_in_a_private_thread_with_its_player_added(bot, fake, service):
    log = await deal(fake, fake.alice)
    record = await copy_of(service, fake.alice)
    thread = fake.threads[record.channel_id]
    assert thread["type"] == 12 and thread["parent_id"] == fake.channel_id
    assert fake.alice["id"] in thread["members"]
    assert log.reply.ephemeral and f"<#{record.channel_id}>" in log.reply.content
    board = fake.messages_in(record.channel_id)[-1]
    assert "daily deal" in board.content and board.files
    assert record.daily == service.today() and record.home_channel_id == fake.channel_id
    assert await service.store.open_game(fake.channel_id) is None   # the channel stays free


async def test_everyone_gets_the_same_deal_in_a_thread_of_their_own(bot, fake, service):
    await deal(fake, fake.alice)
    await deal(fake, fake.bob)
    alice, bob = await copy_of(service, fake.alice), await copy_of(service, fake.bob)
    assert alice.start_fen == bob.start_fen
    assert alice.channel_id != bob.channel_id
    assert fake.bob["id"] not in fake.threads[alice.channel_id]["members"]


async def test_asking_again_the_same_day_links_the_copy_and_deals_no_second(bot, fake, service):
    await deal(fake, fake.alice)
    threads = len(fake.threads)
    again = await deal(fake, fake.alice)
    record = await copy_of(service, fake.alice)
    assert again.reply.ephemeral and "already have today's" in again.reply.content
    assert f"<#{record.channel_id}>" in again.reply.content
    assert len(fake.threads) == threads


async def test_a_daily_comes_by_dm_where_no_thread_may_be_made(bot, fake, service):
    fake.deny_threads()
    log = await deal(fake, fake.bob)
    record = await copy_of(service, fake.bob)
    assert record.channel_id == fake.dm_channel_of(fake.bob)
    assert "direct messages" in log.reply.content and log.reply.ephemeral
    assert any("daily deal" in m.content for m in fake.messages_in(record.channel_id))


async def test_without_thread_or_dm_one_private_sentence_and_nothing_dealt(bot, fake, service):
    fake.deny_threads()
    fake.deny_dms(fake.bob)
    log = await deal(fake, fake.bob)
    assert log.reply.ephemeral and "cannot deal you a private copy" in log.reply.content
    assert await service.store.daily_games(service.today(), PATIENCE, fake.bob["id"]) == []


async def test_a_daily_leaves_the_channels_game_in_play_alone(bot, fake, service):
    await service.start_puzzle(fake.channel_id, _player(fake.alice), "kingswap", seed=7)   # a game in place
    before = await service.store.open_game(fake.channel_id)
    await deal(fake, fake.alice)
    after = await service.store.open_game(fake.channel_id)
    assert after is not None and after.id == before.id and not after.daily


async def test_only_the_first_finish_counts_and_undo_after_it_is_practice(bot, fake, service):
    await deal(fake, fake.alice)
    record = await copy_of(service, fake.alice)
    thread = record.channel_id
    played = await fake.slash("move", {"move": first_move(record)}, user=fake.alice, channel=thread)
    assert "plays" in played.text
    gave_up = await fake.slash("resign", user=fake.alice, channel=thread)
    assert "counts for the daily board" in gave_up.text
    undone = await fake.slash("undo", user=fake.alice, channel=thread)
    assert "practice" in undone.text
    await fake.slash("resign", user=fake.alice, channel=thread)
    [row] = await service.store.daily_results(fake.guild_id, PATIENCE, service.today())
    assert row.game_id == record.id and row.plies == 1 and not row.solved
    board = await fake.slash("leaderboard", {"variant": PATIENCE, "daily": True}, user=fake.bob)
    assert "1. **alice**" in board.text and "1 turn played" in board.text


async def test_the_daily_board_ranks_the_servers_first_finishes(bot, fake, service):
    await deal(fake, fake.alice)
    await deal(fake, fake.bob)
    alice, bob = await copy_of(service, fake.alice), await copy_of(service, fake.bob)
    # bob gives up at once; alice first brings a man nearer home, then gives up with fewer men away or the same
    await fake.slash("resign", user=fake.bob, channel=bob.channel_id)
    await fake.slash("move", {"move": first_move(alice)}, user=fake.alice, channel=alice.channel_id)
    await fake.slash("resign", user=fake.alice, channel=alice.channel_id)
    rows = await service.store.daily_results(fake.guild_id, PATIENCE, service.today())
    by_name = {row.name: row for row in rows}
    board = (await fake.slash("leaderboard", {"variant": PATIENCE, "daily": True}, user=fake.carol)).text
    # same score: fewer turns first (bob 0); a better score comes first whatever the turns
    first = "alice" if by_name["alice"].score < by_name["bob"].score else "bob"
    assert f"1. **{first}**" in board and "2. **" in board


async def test_a_puzzles_leaderboard_without_daily_is_its_all_time_board(bot, fake, service):
    for name, score in (("alice", 5), ("alice", 3), ("bob", 4)):
        user = getattr(fake, name)
        await service.store.create(GameRecord("kingswap", f"old-{name}-{score}", [(user["id"], name)], "x", "finished",
                                              fake.guild_id, result="solved", reason="tour complete", score=score))
    board = (await fake.slash("leaderboard", {"variant": "kingswap"}, user=fake.carol)).text
    assert "1. **alice** 3 casualties" in board and "2. **bob** 4 casualties" in board
    assert board.count("alice") == 1 and "still to come" not in board


async def test_a_two_player_variants_leaderboard_stays_its_ratings(bot, fake, service):
    board = (await fake.slash("leaderboard", {"variant": "standard"}, user=fake.carol)).text
    assert "rated" in board
    refused = await fake.slash("leaderboard", {"variant": "standard", "daily": True}, user=fake.carol)
    assert refused.reply.ephemeral and "no daily deal" in refused.reply.content


async def test_a_variant_without_a_daily_deal_is_refused_privately(bot, fake, service):
    log = await deal(fake, fake.alice, variant="standard")
    assert log.reply.ephemeral and "two-player game" in log.reply.content
    assert fake.threads == {} or all(fake.alice["id"] not in t["members"] for t in fake.threads.values())


@pytest.mark.parametrize("variant", ["safe-passage", "solitary-patience"])
async def test_a_rules_card_longer_than_one_embed_is_shown_whole(bot, fake, service, variant):
    card = (await service.rules_text(variant)).text
    assert len(card) > 4096   # the case at hand: these cards outgrow one embed
    log = await fake.slash("rules", {"variant": variant}, user=fake.alice)
    embeds = log.reply.data["embeds"]
    assert len(embeds) == 2 and all(len(e["description"]) <= 4096 for e in embeds)
    shown = "\n\n".join(e["description"] for e in embeds)
    body = card.split("\n", 1)[1].strip()   # the card without its "# title" line, which is the title
    assert shown.split() == body.split()
    assert embeds[0]["image"]["url"].startswith("attachment://")


@pytest.mark.parametrize("variant, caption, score", [
    ("kingswap", "casualties 0 · king heading for a5", "Casualties: 0."),
    ("safe-passage", "White to move · next: swap the kings", "Level: 0."),
    ("solitary-patience", "men not home", "Men not home:"),
])
async def test_each_puzzle_shows_its_goal_squares_caption_and_named_score(fake, variant, caption, score):
    drawn = []

    def recording(view, orientation):
        drawn.append(view)
        return tiny_png(view, orientation)

    service = GameService(InMemoryStore(), renderer=recording)
    fake.deny_threads()   # played in place, so the board is the command's answer
    async with running_bot(fake, service):
        started = await fake.slash("puzzle", {"variant": variant, "seed": 2}, user=fake.alice)
        assert caption in started.text and started.reply.files
        assert drawn[-1].marks and caption in drawn[-1].caption   # goal squares tinted, caption drawn
        gave_up = await fake.slash("resign", user=fake.alice)
    assert score in gave_up.text
    assert variant == "kingswap" or "Casualties" not in gave_up.text   # each puzzle names its own score


def has_grid(sent) -> bool:
    return any(c.get("custom_id", "").startswith("kibitz:ks:") for row in sent.data.get("components") or []
               for c in row.get("components", []))


async def test_a_kingswap_daily_shows_its_par_and_its_grid_in_the_thread(bot, fake, service):
    await deal(fake, fake.carol, variant="kingswap")
    record = await copy_of(service, fake.carol, "kingswap")
    posted = fake.messages_in(record.channel_id)
    assert any(f"par {record.par}" in m.content for m in posted)
    assert any(has_grid(m) for m in posted)   # the board carries it


async def test_a_daily_by_dm_waits_for_the_dms_game_in_play_to_finish(bot, fake, service):
    fake.deny_threads()
    await deal(fake, fake.bob)                                   # today's Solitary Patience, by DM
    log = await deal(fake, fake.bob, variant="safe-passage")     # the DM is taken by it
    assert log.reply.ephemeral and "already have a game in play" in log.reply.content
    assert await service.store.daily_games(service.today(), "safe-passage", fake.bob["id"]) == []


async def test_a_kingswap_puzzle_in_a_thread_of_its_own_gets_its_grid_there(bot, fake, service):
    await fake.slash("puzzle", {"variant": "kingswap", "seed": 7}, user=fake.alice)
    [thread] = [tid for tid, t in fake.threads.items() if fake.alice["id"] in t["members"]]
    assert (await service.store.open_game(thread)).variant == "kingswap"
    assert any(has_grid(m) for m in fake.messages_in(thread))   # on the board in the thread
    assert not any(has_grid(m) for m in fake.messages_in(fake.channel_id))


async def test_the_all_time_board_keeps_unsolved_finishes_after_the_solved_ones(bot, fake, service):
    """Each player's best finished score: a Solitary Patience left with men out still has a score."""
    for name, result, score in (("alice", "failed", 4), ("alice", "failed", 9), ("bob", "failed", 2),
                                ("carol", "solved", 0)):
        user = getattr(fake, name)
        await service.store.create(GameRecord(PATIENCE, f"old-{name}-{score}", [(user["id"], name)], "x", "finished",
                                              fake.guild_id, result=result, reason="r", score=score))
    board = (await fake.slash("leaderboard", {"variant": PATIENCE}, user=fake.carol)).text
    lines = board.splitlines()
    places = [line.split("**")[1] for line in lines if line[:1].isdigit()]
    assert places == ["carol", "bob", "alice"]
    assert "2. **bob** 2 men not home · not solved" in board and "4 men not home" in board
    assert "9 men not home" not in board and "1. **carol** 0 men not home (game" in board


async def test_asking_again_after_leaving_the_private_thread_adds_the_player_back(bot, fake, service):
    await deal(fake, fake.alice)
    record = await copy_of(service, fake.alice)
    fake.threads[record.channel_id]["members"].remove(fake.alice["id"])   # she left it; a private thread stays shut
    again = await deal(fake, fake.alice)
    assert f"<#{record.channel_id}>" in again.reply.content
    assert fake.alice["id"] in fake.threads[record.channel_id]["members"]
    played = await fake.slash("move", {"move": first_move(record)}, user=fake.alice, channel=record.channel_id)
    assert "plays" in played.text


async def test_asking_twice_at_once_deals_one_copy_in_one_thread(bot, fake, service):
    first, second = await asyncio.gather(deal(fake, fake.alice), deal(fake, fake.alice))
    record = await copy_of(service, fake.alice)
    assert list(fake.threads) == [record.channel_id]   # no second, empty private thread left behind
    answers = [first.reply.content, second.reply.content]
    assert sum("already have today's" in a for a in answers) == 1 and sum("yours to play" in a for a in answers) == 1
