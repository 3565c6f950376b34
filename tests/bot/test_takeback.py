"""Takebacks, draw offers, resignation and abort by buttons' rules, rematches and board
orientation, over the in-memory store (and SQLite where calls must interleave)."""
import asyncio

import pytest

import rules
from bot.service import GameService, Reply, UserError
from bot.store import SqliteStore

from .conftest import ALICE, BOB, CAROL, CHANNEL, fake_png

pytestmark = pytest.mark.asyncio


async def started(service, guild=None):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white", guild=guild)
    await service.accept(CHANNEL, BOB)
    return reply.game_id


async def played(service, *moves):
    players = (ALICE, BOB)
    for n, move in enumerate(moves):
        await service.move(CHANNEL, players[n % 2], move)


# -- takeback ---------------------------------------------------------------------------------
async def test_an_accepted_takeback_undoes_the_askers_last_move(service, store):
    game_id = await started(service)
    await played(service, "e4", "e5", "Nf3")
    asked = await service.takeback(CHANNEL, ALICE)
    assert asked.controls == ("takeback",) and "bob, accept or decline" in asked.text
    assert (await store.get(game_id)).takeback_offer == ALICE.id
    reply = await service.answer_takeback(CHANNEL, BOB, game_id, accept=True)
    headline, to_move = reply.text.split("\n")[:2]   # whose move it is, said once
    assert headline == "bob accepts the takeback: **Nf3** taken back." and to_move.startswith("alice to move (White), due")
    stored = await store.get(game_id)
    assert stored.moves == ["e2e4", "e7e5"] and stored.takeback_offer is None
    await service.move(CHANNEL, ALICE, "d4")   # alice is to move again


async def test_asking_when_to_move_takes_back_two_moves_to_give_the_move_back(service, store):
    game_id = await started(service)
    await played(service, "e4", "e5", "Nf3", "Nc6")
    asked = await service.takeback(CHANNEL, ALICE)
    assert "alice asks to take back **Nf3** and **Nc6**." in asked.text
    reply = await service.answer_takeback(CHANNEL, BOB, game_id, accept=True)
    assert reply.text.startswith("bob accepts the takeback: **Nf3** and **Nc6** taken back.\nalice to move")
    assert (await store.get(game_id)).moves == ["e2e4", "e7e5"]
    with pytest.raises(UserError, match="not your turn"):
        await service.move(CHANNEL, BOB, "Nc6")


async def test_a_takeback_request_says_a_turn_of_several_parts_in_words_and_changes_no_move(service, store):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "balanced-swap", colour="white")
    await service.accept(CHANNEL, BOB)
    await played(service, "d4", "d7d5 f8/e7")
    asked = await service.takeback(CHANNEL, BOB)
    assert "bob asks to take back **d5, then swaps f8 and e7**." in asked.text and "f8/e7" not in asked.text
    stored = await store.get(reply.game_id)
    assert stored.moves == ["d2d4", "d7d5 f8/e7"] and stored.takeback_offer == BOB.id
    taken = await service.answer_takeback(CHANNEL, ALICE, reply.game_id, accept=True)
    assert taken.text.startswith("alice accepts the takeback: **d5, then swaps f8 and e7** taken back.")


async def test_a_declined_takeback_changes_no_move(service, store):
    game_id = await started(service)
    await played(service, "e4")
    await service.takeback(CHANNEL, ALICE)
    reply = await service.answer_takeback(CHANNEL, BOB, game_id, accept=False)
    assert "bob declines the takeback" in reply.text
    stored = await store.get(game_id)
    assert stored.moves == ["e2e4"] and stored.takeback_offer is None


async def test_any_move_cancels_a_takeback_request(service, store):
    game_id = await started(service)
    await played(service, "e4")
    await service.takeback(CHANNEL, ALICE)
    await service.move(CHANNEL, BOB, "e5")
    assert (await store.get(game_id)).takeback_offer is None
    with pytest.raises(UserError, match="No takeback request"):
        await service.answer_takeback(CHANNEL, BOB, game_id, accept=True)
    assert (await store.get(game_id)).moves == ["e2e4", "e7e5"]


async def test_the_asker_cannot_accept_their_own_takeback_but_may_withdraw_it(service, store):
    game_id = await started(service)
    await played(service, "e4")
    await service.takeback(CHANNEL, ALICE)
    with pytest.raises(UserError, match="Your opponent answers"):
        await service.answer_takeback(CHANNEL, ALICE, game_id, accept=True)
    assert (await store.get(game_id)).takeback_offer == ALICE.id
    reply = await service.answer_takeback(CHANNEL, ALICE, game_id, accept=False)
    assert "withdraws" in reply.text


async def test_a_takeback_needs_a_move_of_ones_own_and_a_player(service, store):
    game_id = await started(service)
    with pytest.raises(UserError, match="no move to take back"):
        await service.takeback(CHANNEL, ALICE)
    await played(service, "e4")
    with pytest.raises(UserError, match="no move to take back"):
        await service.takeback(CHANNEL, BOB)
    with pytest.raises(UserError, match="not playing"):
        await service.takeback(CHANNEL, CAROL)
    await service.takeback(CHANNEL, ALICE)
    with pytest.raises(UserError, match="already stands"):
        await service.takeback(CHANNEL, ALICE)
    with pytest.raises(UserError, match="Your opponent has asked"):
        await service.takeback(CHANNEL, BOB)
    with pytest.raises(UserError, match="not playing"):
        await service.answer_takeback(CHANNEL, CAROL, game_id, accept=True)
    assert (await store.get(game_id)).moves == ["e2e4"]


async def test_puzzles_keep_undo_instead_of_takeback(service):
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=77)
    with pytest.raises(UserError, match="/undo"):
        await service.takeback(CHANNEL, ALICE)


# -- draw offers and resignation ----------------------------------------------------------------
async def test_a_draw_offer_stands_through_the_offering_players_own_move(service, store):
    game_id = await started(service)
    await played(service, "e4", "e5")
    offer = await service.draw(CHANNEL, ALICE)
    assert offer.controls == ("draw",)
    await service.move(CHANNEL, ALICE, "Nf3")
    assert (await store.get(game_id)).draw_offer == ALICE.id
    reply = await service.draw(CHANNEL, BOB)
    assert "bob accepts the draw" in reply.text and reply.finished


async def test_the_opponents_move_declines_a_draw_offer(service, store):
    game_id = await started(service)
    await played(service, "e4")
    await service.draw(CHANNEL, ALICE)
    await service.move(CHANNEL, BOB, "e5")
    assert (await store.get(game_id)).draw_offer is None


async def test_a_button_from_an_earlier_game_does_nothing(service, store):
    old = await started(service)
    await service.resign(CHANNEL, BOB, old)
    new = await started(service)
    for action in (service.resign, service.draw):
        with pytest.raises(UserError, match="earlier game"):
            await action(CHANNEL, ALICE, old)
    assert (await store.get(new)).status == "active"


async def test_boards_carry_draw_and_resign_while_the_game_goes_on_and_rematch_after(service):
    await started(service)
    board = await service.board(CHANNEL)
    assert board.controls == ("draw", "resign")
    final = await service.resign(CHANNEL, ALICE)
    assert final.controls == ("rematch",) and "alice resigns" in final.text


async def test_puzzle_boards_carry_no_game_buttons(service):
    reply = await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=77)
    assert reply.controls == ()


# -- abort ----------------------------------------------------------------------------------------
async def test_a_moderator_aborts_a_game_without_result_or_rating(service, store):
    game_id = await started(service, guild="g")
    await played(service, "e4")
    reply = await service.abort(CHANNEL, CAROL, moderator=True)
    assert "aborted game" in reply.text
    stored = await store.get(game_id)
    assert (stored.status, stored.result, stored.ending, stored.due_at) == ("aborted", None, None, None)
    assert await store.leaderboard("g", "standard") == []
    with pytest.raises(UserError, match="It was aborted"):
        await service.move(CHANNEL, BOB, "e5")


async def test_an_abort_pings_the_players_who_did_not_abort_it_unless_they_opted_out(service, store):
    await started(service)
    await played(service, "e4")
    assert (await service.abort(CHANNEL, ALICE, moderator=True)).pings == (BOB.id,)   # a player who moderates
    await started(service)
    await service.set_pings(BOB, False)
    assert (await service.abort(CHANNEL, CAROL, moderator=True)).pings == (ALICE.id,)


async def test_abort_by_game_number_from_elsewhere_in_the_server(service, store):
    game_id = await started(service, guild="g")
    await service.abort("elsewhere", CAROL, moderator=True, game_id=game_id, guild="g")
    assert (await store.get(game_id)).status == "aborted"


async def test_abort_is_refused_to_others_and_across_servers(service, store):
    game_id = await started(service, guild="g")
    with pytest.raises(UserError, match="manage threads"):
        await service.abort(CHANNEL, ALICE, moderator=False)
    with pytest.raises(UserError, match="No game #"):
        await service.abort("elsewhere", CAROL, moderator=True, game_id=game_id, guild="other")
    assert (await store.get(game_id)).status == "active"


# -- rematch ---------------------------------------------------------------------------------------
async def test_a_rematch_challenges_the_other_player_with_colours_swapped(service, store):
    old = await started(service)
    await service.resign(CHANNEL, BOB)
    reply = await service.rematch(CHANNEL, BOB, old)
    assert reply.challenge == (reply.game_id, BOB.id, ALICE.id)
    record = await store.get(reply.game_id)
    assert record.players == [(BOB.id, BOB.name), (ALICE.id, ALICE.name)] and record.status == "challenge"
    await service.accept(CHANNEL, ALICE, reply.game_id)
    await service.move(CHANNEL, BOB, "e4")


async def test_a_rematch_is_offered_once_and_only_between_the_players(service):
    old = await started(service)
    with pytest.raises(UserError, match="once a two-player game is over"):
        await service.rematch(CHANNEL, ALICE, old)
    await service.resign(CHANNEL, BOB)
    with pytest.raises(UserError, match="not playing"):
        await service.rematch(CHANNEL, CAROL, old)
    await service.rematch(CHANNEL, ALICE, old)
    with pytest.raises(UserError, match="already waiting"):
        await service.rematch(CHANNEL, ALICE, old)
    with pytest.raises(UserError, match="alice has already offered a rematch"):
        await service.rematch(CHANNEL, BOB, old)


async def test_both_players_pressing_rematch_at_once_make_one_challenge():
    """Over SQLite, whose calls yield to the event loop: the two presses interleave."""
    store = await SqliteStore.open(":memory:")
    try:
        service = GameService(store, renderer=fake_png)
        old = await started(service)
        await service.resign(CHANNEL, BOB)
        answers = await asyncio.gather(service.rematch(CHANNEL, ALICE, old), service.rematch(CHANNEL, BOB, old),
                                       return_exceptions=True)
        assert [type(a) for a in answers] == [Reply, UserError]
        assert "alice has already offered a rematch" in str(answers[1])
        assert len(await store.challenges(CHANNEL)) == 1
    finally:
        await store.close()


# -- orientation ----------------------------------------------------------------------------------
async def test_every_board_of_a_game_has_white_at_the_bottom(service):
    await started(service)
    fake_png.calls.clear()
    await played(service, "e4", "e5", "Nf3")
    await service.board(CHANNEL)
    assert [orientation for _, orientation in fake_png.calls] == [rules.WHITE] * 4


async def test_a_flipped_board_is_black_at_the_bottom_and_private(service):
    await started(service)
    await played(service, "e4")
    fake_png.calls.clear()
    reply = await service.flipped_board(CHANNEL)
    assert reply.ephemeral and reply.image and "Black's side" in reply.text
    assert [orientation for _, orientation in fake_png.calls] == [rules.BLACK]
    assert reply.view.pieces["e4"] == "P"


# -- the console ------------------------------------------------------------------------------------
async def test_the_console_asks_and_answers_a_takeback_and_aborts(service, tmp_path):
    import io

    from bot.console import Console

    out = io.StringIO()
    console = Console(service, tmp_path, stdout=out, user="you")
    for line in ("/challenge @bob standard colour:white", "/as bob", "/accept", "/as you", "/move e4", "/takeback",
                 "/as bob", "/takeback maybe", "/takeback yes"):
        await console.handle(line)
    text = out.getvalue()
    assert "You ask to take back e4." in text
    assert "! Answer a takeback with /takeback yes or /takeback no." in text
    assert "bob accepts the takeback: e4 taken back.\n" in text
    await console.handle("/abort")
    assert "bob aborted game #1" in out.getvalue()
    record = await service.store.get(1)
    assert (record.status, record.moves) == ("aborted", [])


async def test_a_turn_builder_menu_from_before_a_takeback_plays_nothing_after_another_move(service, store):
    game_id = await started(service)
    await played(service, "e4", "e5")
    menu_board = await service.move(CHANNEL, ALICE, "Nf3")          # Bob's builder menu is for this position
    await service.takeback(CHANNEL, ALICE)
    await service.answer_takeback(CHANNEL, BOB, game_id, accept=True)
    await service.move(CHANNEL, ALICE, "d4")                         # as many moves as when the menu was made
    assert len((await store.get(game_id)).moves) == 3
    with pytest.raises(UserError, match="earlier position"):
        await service.play_built(CHANNEL, BOB, game_id, menu_board.ply, ("b8c6",))
    assert (await store.get(game_id)).moves == ["e2e4", "e7e5", "d2d4"]
    fresh = await service.board(CHANNEL)
    await service.play_built(CHANNEL, BOB, game_id, fresh.ply, ("b8c6",))   # the newest board's menu works


async def test_a_takeback_request_and_a_draw_offer_ping_the_opponent_who_must_answer(service, store):
    await started(service)
    await played(service, "e4", "e5")
    assert (await service.takeback(CHANNEL, BOB)).pings == (ALICE.id,)
    await service.move(CHANNEL, ALICE, "Nf3")                  # a move declines the request
    assert (await service.draw(CHANNEL, ALICE)).pings == (BOB.id,)
    await store.set_pings(ALICE.id, False, "t")                # unless they turned pings off
    assert (await service.takeback(CHANNEL, ALICE)).pings == (BOB.id,)
    await store.set_pings(BOB.id, False, "t")
    await service.answer_takeback(CHANNEL, ALICE, (await store.open_game(CHANNEL)).id, accept=False)
    assert (await service.takeback(CHANNEL, ALICE)).pings == ()
