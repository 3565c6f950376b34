"""The service side of issue 12: which games are rated, leaderboards, PGN of every kind of
variant, replays and rules cards."""
from __future__ import annotations

import io
import random

import chess.pgn
import pytest
from PIL import Image

import render
import rules
from bot.pgn import SEVERAL_PARTS
from bot.service import GameService, Player, UserError, is_rated
from bot.store import GameRecord

from .conftest import ALICE, BOB, CAROL, CHANNEL

pytestmark = pytest.mark.asyncio
GUILD = "g1"


async def duel(service, slug="standard", white=ALICE, black=BOB, channel=CHANNEL):
    await service.challenge(channel, white, black, slug, guild=GUILD)
    await service.accept(channel, black)


async def test_resignation_is_rated_once_and_a_retry_does_not_rate_again(service, store):
    await duel(service)
    await service.move(CHANNEL, ALICE, "e2e4")
    await service.resign(CHANNEL, BOB)
    record = await store.latest(CHANNEL)
    place, row = await store.rating_place(GUILD, "standard", ALICE.id)
    assert place == 1 and row.wins == 1
    await service._rate(record)                      # a retry, keyed by the game id
    assert (await store.rating_place(GUILD, "standard", ALICE.id))[1] == row


async def test_an_agreed_draw_is_rated_as_a_draw(service, store):
    await duel(service)
    await service.draw(CHANNEL, ALICE)
    await service.draw(CHANNEL, BOB)
    rows = await store.leaderboard(GUILD, "standard")
    assert sorted((r.player_id, r.draws, r.games) for r in rows) == [(ALICE.id, 1, 1), (BOB.id, 1, 1)]


async def test_puzzles_open_games_and_self_play_are_not_rated(service, store):
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=1, guild=GUILD)
    await service.resign(CHANNEL, ALICE)
    assert await store.player_ratings(GUILD, ALICE.id) == []
    base = dict(variant="standard", channel_id="c", fen="x", guild_id=GUILD)
    assert not is_rated(GameRecord(players=[("1", "a"), ("1", "a")], status="finished", result="1-0", **base))
    assert not is_rated(GameRecord(players=[("1", "a"), ("2", "b")], status="active", **base))
    assert not is_rated(GameRecord(players=[("1", "a"), ("2", "b")], status="declined", **base))
    assert is_rated(GameRecord(players=[("1", "a"), ("2", "b")], status="finished", result="1/2-1/2", **base))


async def test_a_failing_rating_store_never_fails_the_move(service, store, caplog):
    async def broken(*args, **kwargs):
        raise RuntimeError("disk gone")

    store.rate = broken
    await duel(service)
    reply = await service.resign(CHANNEL, BOB)
    assert "resigns" in reply.text and "could not rate" in caplog.text


async def test_a_rating_write_that_fails_once_is_tried_again(service, store):
    rate, calls = store.rate, []

    async def fails_once(*args, **kwargs):
        calls.append(args[0])
        if len(calls) == 1:
            raise ConnectionResetError("connection lost")
        return await rate(*args, **kwargs)

    store.rate = fails_once
    await duel(service)
    await service.resign(CHANNEL, BOB)
    assert calls == [1, 1] and (await store.rating_place(GUILD, "standard", ALICE.id))[1].wins == 1


async def test_a_game_whose_rating_was_lost_is_rated_when_its_servers_ratings_are_read(service, store):
    rate = store.rate

    async def broken(*args, **kwargs):
        raise RuntimeError("disk gone")

    store.rate = broken
    await duel(service)
    await service.resign(CHANNEL, BOB)                       # alice wins in g1
    await service.challenge("c2", BOB, CAROL, "standard", guild="g2")
    await service.accept("c2", CAROL)
    await service.resign("c2", CAROL)                        # bob wins in g2
    store.rate = rate
    assert "alice**" in (await service.leaderboard(GUILD, BOB, "standard")).text
    assert (await store.rating_place(GUILD, "standard", ALICE.id))[1].wins == 1
    assert await store.player_ratings("g2", BOB.id) == []    # another server's game waits for its own board
    assert "1 win, 0 draws, 0 losses" in (await service.profile("g2", BOB)).text
    await service.leaderboard(GUILD, BOB, "standard")        # rated once
    assert (await store.rating_place(GUILD, "standard", ALICE.id))[1].games == 1


async def test_leaderboard_shows_top_ten_and_the_callers_place(service, store):
    for n in range(12):
        await store.rate(n + 1, GUILD, "standard", (f"w{n}", f"white{n}"), (f"b{n}", f"black{n}"), 1.0, "t")
    reply = await service.leaderboard(GUILD, Player("b3", "b3"), "standard")
    numbered = [line for line in reply.text.splitlines() if line[:1].isdigit()]
    assert len(numbered) == 10 and numbered[0].startswith("1. **white")
    assert "b3, you are #13" in reply.text   # 12 winners above; losers share a rating, so a place
    with pytest.raises(UserError):
        await service.leaderboard(GUILD, ALICE, "nonesuch")


async def test_puzzle_leaderboard_lists_each_players_best_solved_score(service, store):
    for channel, fen in (("p1", "N4/5/5/5/3KR 2 5"), ("p2", "N4/5/5/5/3KR 2 5")):
        record = GameRecord("kingswap", channel, [(CAROL.id, CAROL.name)], fen, "active", GUILD, start_fen=fen)
        await store.create(record)
        await service.move(channel, CAROL, "e1d1")
    reply = await service.leaderboard(GUILD, ALICE, "kingswap")
    assert "1. **carol** 6 casualties" in reply.text and "2. **" not in reply.text


async def test_profile_lists_each_variant_with_results(service, store):
    await store.rate(1, GUILD, "standard", (ALICE.id, "alice"), (BOB.id, "bob"), 1.0, "t")
    await store.rate(2, GUILD, "prop", (BOB.id, "bob"), (ALICE.id, "alice"), 0.5, "t")
    reply = await service.profile(GUILD, ALICE)
    assert "1 win, 0 draws, 0 losses" in reply.text and "0 wins, 1 draw, 0 losses" in reply.text
    assert rules.VARIANTS["prop"].name in reply.text


def random_game(slug, plies, seed):
    rng = random.Random(seed)
    game = rules.new_game(slug, seed=seed)
    moves = []
    for _ in range(plies):
        legal = game.legal_moves()
        if not legal:
            break
        moves.append(game.play(rng.choice(legal)))
    return game, moves


async def stored(store, slug, moves, seed, start_fen):
    record = GameRecord(slug, CHANNEL, [(ALICE.id, "alice"), (BOB.id, "bob")], "x", "active", GUILD,
                        seed=seed, start_fen=start_fen, moves=moves, created_at="2026-11-23T10:00:00+00:00")
    game = rules.new_game(slug, seed=seed, fen=start_fen)
    for move in moves:
        game.play(move)
    record.fen = game.fen()
    if game.outcome:
        record.status, record.result, record.reason = "finished", game.outcome.result, game.outcome.reason
    await store.create(record)
    return record, game


TWO_PLAYER = sorted(slug for slug, info in rules.VARIANTS.items() if info.players == 2)


@pytest.mark.parametrize("slug", TWO_PLAYER)
async def test_every_variant_exports_its_moves_and_the_current_fen(service, store, slug):
    start = rules.new_game(slug, seed=7)
    _, moves = random_game(slug, 12, 7)
    record, game = await stored(store, slug, moves, 7, start.fen())
    reply = await service.export(CHANNEL)
    text = reply.image.decode("utf-8")
    assert reply.filename == f"kibitz-{record.id}.pgn" and game.fen() in reply.text
    assert '[White "alice"]' in text and '[Date "2026.11.23"]' in text
    several = any(" " in m for m in moves)
    if slug == "standard":
        parsed = chess.pgn.read_game(io.StringIO(text))
        assert [m.uci() for m in parsed.mainline_moves()] == moves
    else:
        assert f'[Variant "{rules.VARIANTS[slug].name}"]' in text
        assert (SEVERAL_PARTS.split(":")[0] in text) == several
        if several:
            for move in moves:
                assert move.replace(" ", ",") in text


async def test_a_standard_game_from_a_set_position_carries_fen_and_setup(service, store):
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"
    await stored(store, "standard", ["e8d7", "e2e4"], None, fen)
    text = (await service.export(CHANNEL)).image.decode()
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed.headers["FEN"] == fen and parsed.headers["SetUp"] == "1"
    assert [m.uci() for m in parsed.mainline_moves()] == ["e8d7", "e2e4"]
    assert "30... Kd7 31. e4" in text


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
async def test_every_variant_replays_as_a_gif_of_turns_plus_one_frames(service, store, slug):
    _, moves = random_game(slug, 6, 3)
    if rules.VARIANTS[slug].players == 1:
        record = GameRecord(slug, CHANNEL, [(ALICE.id, "alice")], "x", "active", GUILD, seed=3,
                            start_fen=rules.new_game(slug, seed=3).fen(), moves=moves)
        await store.create(record)
    else:
        await stored(store, slug, moves, 3, rules.new_game(slug, seed=3).fen())
    reply = await service.replay(CHANNEL)
    image = Image.open(io.BytesIO(reply.image))
    assert image.format == "GIF" and image.n_frames == len(moves) + 1
    assert reply.filename.endswith(".gif")


async def test_export_reads_the_last_finished_game_once_the_channel_is_free(service, store):
    await duel(service)
    await service.move(CHANNEL, ALICE, "e2e4")
    await service.resign(CHANNEL, BOB)
    text = (await service.export(CHANNEL)).image.decode()
    assert '[Result "1-0"]' in text and "1. e4 1-0" in text


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
async def test_every_rules_card_has_a_title_text_and_a_start_diagram(service, slug):
    reply = await service.rules_card(slug)
    assert reply.embed["title"] and reply.embed["description"]
    assert reply.image is not None and reply.filename == f"rules-{slug}.png"
    assert reply.view.pieces == rules.new_game(slug, seed=0).view().pieces
    assert reply.text   # text front ends print it


async def test_rules_card_without_a_renderer_still_answers(store):
    def broken(view, orientation):
        raise OSError("no art")

    reply = await GameService(store, renderer=broken).rules_card("standard")
    assert reply.image is None and reply.embed["description"]


async def test_a_finished_game_replays_with_a_last_frame_for_its_result(service, store):
    await duel(service)
    await service.move(CHANNEL, ALICE, "e2e4")
    await service.resign(CHANNEL, BOB)
    gif = Image.open(io.BytesIO((await service.replay(CHANNEL)).image))
    assert gif.n_frames == 3   # the start, after e4, and the result
    first = render.layout(8, 8, render.board.GIF_SQUARE).size
    assert gif.width == first[0] and gif.height > first[1]   # names and moves written under the board
