"""Service flows over the in-memory store: challenges, moves, endings, puzzles, locks, rollbacks."""
import asyncio

import pytest

from bot.service import GameService, UserError
from bot.store import GameRecord, InMemoryStore
import rules
from rules import Ending

from .conftest import ALICE, BOB, CAROL, CHANNEL, fake_png

pytestmark = pytest.mark.asyncio


async def started(service, slug="standard"):
    reply = await service.challenge(CHANNEL, ALICE, BOB, slug)
    await service.accept(CHANNEL, BOB)
    return reply.game_id


async def test_challenge_accept_and_fools_mate_store_the_result(service, store):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "standard")
    assert reply.challenge == (reply.game_id, ALICE.id, BOB.id)
    assert (await store.get(reply.game_id)).status == "challenge"
    accepted = await service.accept(CHANNEL, BOB)
    assert accepted.image and "alice to move (White)" in accepted.text
    for user, move in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4")]:
        await service.move(CHANNEL, user, move)
    final = await service.move(CHANNEL, BOB, "Qh4")
    assert "bob wins" in final.text and "Checkmate" in final.text and final.finished
    record = await store.get(reply.game_id)
    assert (record.status, record.result, record.reason, record.ending) == ("finished", "0-1", "checkmate", Ending.CHECKMATE)
    assert record.moves == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert "This game is over." in (await service.board(CHANNEL)).text   # the final position, not "no game"


async def test_each_accepted_move_is_in_the_store_before_the_reply(service, store):
    game_id = await started(service)
    await service.move(CHANNEL, ALICE, "e2e4")
    record = await store.get(game_id)
    assert record.moves == ["e2e4"]
    assert record.fen.startswith("rnbqkbnr/pppppppp/8/8/4P3")


async def test_only_the_player_to_move_may_move(service, store):
    game_id = await started(service)
    with pytest.raises(UserError, match="not your turn"):
        await service.move(CHANNEL, BOB, "e7e5")
    with pytest.raises(UserError, match="not playing"):
        await service.move(CHANNEL, CAROL, "e2e4")
    assert (await store.get(game_id)).moves == []


async def test_illegal_move_gets_the_rules_reason_and_changes_nothing(service, store):
    game_id = await started(service)
    with pytest.raises(UserError, match="No piece on e3"):
        await service.move(CHANNEL, ALICE, "e3e4")
    with pytest.raises(UserError, match="can't read"):
        await service.move(CHANNEL, ALICE, "hello there")
    assert (await store.get(game_id)).moves == []
    assert "alice to move" in (await service.board(CHANNEL)).text


async def test_only_the_challenged_member_may_accept(service):
    await service.challenge(CHANNEL, ALICE, BOB, "standard")
    for user in (ALICE, CAROL):
        with pytest.raises(UserError, match="not for you"):
            await service.accept(CHANNEL, user)
    with pytest.raises(UserError, match="not been accepted"):
        await service.move(CHANNEL, ALICE, "e2e4")


async def test_a_challenge_is_answered_by_id_only_in_its_own_channel(service, store):
    game_id = (await service.challenge(CHANNEL, ALICE, None, "standard", guild="g1")).game_id
    for answer in (service.accept("dm-bob", BOB, game_id), service.decline("other-chan", ALICE, game_id),
                   service.challenge_to_accept("dm-bob", BOB, game_id)):
        with pytest.raises(UserError, match="posted in another channel"):
            await answer
    assert (await store.get(game_id)).status == "challenge"
    assert "bob accepts" in (await service.accept(CHANNEL, BOB, game_id)).text


async def test_the_same_challenge_twice_in_a_channel_is_refused_and_changes_nothing(service, store):
    first = (await service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white")).game_id
    opened = (await service.challenge(CHANNEL, ALICE, None, "standard")).game_id
    for opponent in (BOB, None):
        with pytest.raises(UserError, match="^You already have that challenge open here.$"):
            await service.challenge(CHANNEL, ALICE, opponent, "standard", colour="black")
    assert [r.id for r in await store.challenges(CHANNEL)] == [first, opened]
    await service.challenge(CHANNEL, ALICE, BOB, "prop")               # another variant,
    await service.challenge(CHANNEL, BOB, ALICE, "standard")           # the other way round,
    await service.challenge("chan-2", ALICE, BOB, "standard")          # or another channel is another challenge
    await service.decline(CHANNEL, BOB, first)
    await service.challenge(CHANNEL, ALICE, BOB, "standard")           # once the first is answered, again


async def test_decline_frees_the_channel(service, store):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "standard")
    declined = await service.decline(CHANNEL, BOB)
    assert "declines" in declined.text
    assert (await store.get(reply.game_id)).status == "declined"
    await service.challenge(CHANNEL, ALICE, CAROL, "standard")


async def test_one_open_game_per_channel_but_other_channels_are_free(service):
    await started(service)
    reply = await service.challenge(CHANNEL, CAROL, BOB, "standard")   # challenges wait side by side ...
    with pytest.raises(UserError, match="already has a game"):         # ... but cannot start in a busy channel
        await service.accept(CHANNEL, BOB, reply.game_id)
    await service.accept(CHANNEL, BOB, reply.game_id, play_in="thread-8")
    with pytest.raises(UserError, match="already has a game"):
        await service.start_puzzle(CHANNEL, CAROL, "kingswap")
    await service.start_puzzle("thread-9", CAROL, "kingswap", seed=4)


async def test_unknown_variant_and_wrong_kind_are_refused(service):
    with pytest.raises(UserError, match="don't know"):
        await service.challenge(CHANNEL, ALICE, BOB, "nonsense")
    with pytest.raises(UserError, match="/puzzle"):
        await service.challenge(CHANNEL, ALICE, BOB, "kingswap")
    with pytest.raises(UserError, match="/challenge"):
        await service.start_puzzle(CHANNEL, ALICE, "standard")
    with pytest.raises(UserError, match="yourself"):
        await service.challenge(CHANNEL, ALICE, ALICE, "standard")


async def test_resign_gives_the_game_to_the_opponent(service, store):
    game_id = await started(service)
    reply = await service.resign(CHANNEL, BOB)
    assert "alice wins" in reply.text and "Black resigned" in reply.text
    record = await store.get(game_id)
    assert (record.result, record.ending) == ("1-0", Ending.RESIGNATION)


async def test_draw_offer_then_accept(service, store):
    game_id = await started(service)
    offer = await service.draw(CHANNEL, ALICE)
    assert "offers a draw" in offer.text
    with pytest.raises(UserError, match="already stands"):
        await service.draw(CHANNEL, ALICE)
    agreed = await service.draw(CHANNEL, BOB)
    assert "Draw" in agreed.text
    record = await store.get(game_id)
    assert (record.result, record.reason, record.ending) == ("1/2-1/2", "agreed", Ending.AGREEMENT)


async def test_a_move_declines_a_standing_draw_offer(service, store):
    game_id = await started(service)
    await service.draw(CHANNEL, BOB)
    await service.move(CHANNEL, ALICE, "e4")
    assert (await store.get(game_id)).draw_offer is None
    assert "offers" in (await service.draw(CHANNEL, ALICE)).text


async def test_threefold_repetition_is_claimed_by_the_player_to_move(service, store):
    game_id = await started(service)
    for _ in range(2):
        for user, move in [(ALICE, "Nf3"), (BOB, "Nf6"), (ALICE, "Ng1"), (BOB, "Ng8")]:
            await service.move(CHANNEL, user, move)
    reply = await service.draw(CHANNEL, ALICE)
    assert "claims" in reply.text
    record = await store.get(game_id)
    assert (record.reason, record.ending) == ("threefold repetition claimed", Ending.REPETITION)


async def test_fifty_moves_are_claimed_as_such(service, store):
    fen = "4k3/p7/8/8/8/8/P7/4K1N1 w - - 99 80"
    record = GameRecord("standard", CHANNEL, [(ALICE.id, ALICE.name), (BOB.id, BOB.name)], fen, "active", start_fen=fen)
    await store.create(record)
    await service.move(CHANNEL, ALICE, "Nf3")
    assert "claims" in (await service.draw(CHANNEL, BOB)).text
    record = await store.get(record.id)
    assert (record.reason, record.ending) == ("50 moves without a capture or pawn move claimed", Ending.FIFTY_MOVES)


async def test_undo_is_for_puzzles_only(service):
    await started(service)
    await service.move(CHANNEL, ALICE, "e4")
    with pytest.raises(UserError, match="is for solo puzzles"):
        await service.undo(CHANNEL, ALICE)


async def test_puzzle_seed_gives_the_same_deal(service, store):
    first = await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=77)
    second = await service.start_puzzle("other", BOB, "kingswap", seed=77)
    assert (await store.get(first.game_id)).fen == (await store.get(second.game_id)).fen


async def puzzle_from(store, service, fen):
    record = GameRecord("kingswap", CHANNEL, [(ALICE.id, ALICE.name)], fen, "active", start_fen=fen)
    await store.create(record)
    return record.id


async def test_puzzle_played_to_solved_keeps_the_score(service, store):
    game_id = await puzzle_from(store, service, "N4/5/5/5/3KR 2 5")
    reply = await service.move(CHANNEL, ALICE, "e1d1")
    assert "Solved" in reply.text and "Casualties: 6" in reply.text
    record = await store.get(game_id)
    assert (record.status, record.result, record.score, record.ending) == ("finished", "solved", 6, Ending.SOLVED)


async def test_puzzle_played_to_failed_then_undo_reopens_it(service, store):
    game_id = await puzzle_from(store, service, "1K3/5/5/5/R4 1 0")
    await service.move(CHANNEL, ALICE, "a1a5")
    reply = await service.move(CHANNEL, ALICE, "a5b5")
    assert "Failed" in reply.text
    assert (await store.get(game_id)).ending == Ending.FAILED
    with pytest.raises(UserError, match="not playing"):
        await service.undo(CHANNEL, BOB)
    again = await service.undo(CHANNEL, ALICE)
    assert "takes back a5b5" in again.text
    record = await store.get(again.game_id)   # play goes on as practice; the finish stays as it was
    assert (record.status, record.result, record.ending, record.moves) == ("active", None, None, ["a1a5"])
    assert record.practice and (await store.get(game_id)).ending == Ending.FAILED
    await service.move(CHANNEL, ALICE, "a5a4")


async def test_puzzle_resign_records_failure_with_casualties(service, store):
    game_id = await puzzle_from(store, service, "1K3/5/5/5/R3N 1 2")
    await service.resign(CHANNEL, ALICE)
    record = await store.get(game_id)
    assert (record.result, record.reason, record.score, record.ending) == ("failed", "gave up", 2, Ending.FAILED)


async def test_two_simultaneous_moves_cannot_both_apply(service, store):
    game_id = await started(service)
    results = await asyncio.gather(service.move(CHANNEL, ALICE, "e4"), service.move(CHANNEL, ALICE, "d4"),
                                   return_exceptions=True)
    assert sum(isinstance(r, UserError) for r in results) == 1
    assert len((await store.get(game_id)).moves) == 1


class FailingStore(InMemoryStore):
    fail = False

    async def save(self, record):
        if self.fail:
            raise OSError("disk full")
        await super().save(record)


async def test_a_failed_write_leaves_the_game_as_it_was():
    store = FailingStore()
    service = GameService(store, renderer=fake_png)
    game_id = await started(service)
    store.fail = True
    with pytest.raises(OSError):
        await service.move(CHANNEL, ALICE, "e4")
    store.fail = False
    board = await service.board(CHANNEL)
    assert "Last move" not in board.text
    await service.move(CHANNEL, ALICE, "d4")
    assert (await store.get(game_id)).moves == ["d2d4"]


async def test_board_reply_keeps_white_at_the_bottom_with_black_to_move(service):
    await started(service)
    await service.move(CHANNEL, ALICE, "e4")
    fake_png.calls.clear()
    reply = await service.board(CHANNEL)
    view, orientation = fake_png.calls[-1]
    assert orientation == "white" and view.last_move == ("e2", "e4")
    assert "black" in reply.alt.lower() and "e2-e4" in reply.alt


async def test_move_suggestions_filter_legal_moves_by_prefix(service):
    await started(service)
    assert await service.move_suggestions(CHANNEL, ALICE, "e2") == ["e2e3", "e2e4"]
    assert len(await service.move_suggestions(CHANNEL, ALICE, "")) == 20
    assert await service.move_suggestions("empty", ALICE, "") == []


async def test_rules_and_variant_list(service):
    listing = await service.list_variants()
    assert "`kingswap`" in listing.text and "`standard`" in listing.text
    assert all(f"`{slug}`" in listing.text for slug in __import__("rules").VARIANTS)
    card = await service.rules_text("kingswap")
    assert card.text.startswith("# KingSwap!")
    assert service.variant_choices("kingsw")[0] == ("kingswap", "KingSwap!")
    with pytest.raises(UserError):
        await service.rules_text("nope")


async def test_warm_up_draws_one_board_off_the_loop(service):
    await service.warm_up()
    view, orientation = fake_png.calls[-1]
    assert (view.files, view.ranks, orientation) == (8, 8, "white")


async def test_replies_name_the_move_in_san_and_canonical_form(service):
    await started(service)
    reply = await service.move(CHANNEL, ALICE, "g1f3")
    assert reply.text.startswith("1. alice plays **Nf3**.\nbob to move (Black)")
    assert "g1f3" not in reply.text and "Last move" not in reply.text   # said once, as players write it
    assert "Last move: 1. **Nf3**" in (await service.board(CHANNEL)).text


TWO_PLAYER = sorted(slug for slug, info in __import__("rules").VARIANTS.items() if info.players == 2)


@pytest.mark.parametrize("slug", TWO_PLAYER)
async def test_every_two_player_variant_can_be_challenged_and_played(service, store, slug):
    reply = await service.challenge(CHANNEL, ALICE, BOB, slug)
    await service.accept(CHANNEL, BOB)
    first = (await service.move_suggestions(CHANNEL, ALICE, ""))[0]
    record = await store.get(reply.game_id)
    game = __import__("rules").new_game(slug, seed=record.seed, fen=record.start_fen)
    game.play(first)
    played = await service.move(CHANNEL, ALICE, first)
    assert f"1. alice plays **{game.last_move_description()}**." in played.text and played.image
    assert (await store.get(reply.game_id)).moves == [first]


async def test_a_puzzle_with_levels_starts_at_the_chosen_target(service, store):
    reply = await service.start_puzzle("sp", ALICE, "safe-passage", level=3)
    assert "target level 3" in reply.text
    record = await store.open_game("sp")
    assert record.start_fen.endswith(" g3")            # the target is stored with the start
    with pytest.raises(UserError, match="1 to 3"):
        await service.start_puzzle("sp2", ALICE, "safe-passage", level=4)
    with pytest.raises(UserError, match="no levels"):
        await service.start_puzzle("ks", ALICE, "kingswap", level=2)
    assert await store.open_game("sp2") is None and await store.open_game("ks") is None


@pytest.mark.parametrize("slug", [info.slug for info in rules.VARIANTS.values() if info.players == 1])
async def test_a_puzzle_says_its_seed_only_where_the_seed_changes_the_start(service, slug):
    changes = rules.new_game(slug, seed=1).fen() != rules.new_game(slug, seed=2).fen()
    assert rules.VARIANTS[slug].seeded == changes
    reply = await service.start_puzzle(CHANNEL, ALICE, slug, seed=7)
    assert ("(seed 7)" in reply.text) == changes
