"""End to end through the Discord stand-in: what a game's thread shows. A board's header is one or
two lines (the turn numbered, in words; whose move and when it is due as a Discord timestamp; the
variant's state); the final board pings the player who did not make the last act (on time: both)
and points to /replay and /export; one board at a time has controls; an accepted challenge is one
message in its channel; KingSwap! carries its grid on the newest board."""
from __future__ import annotations

from typing import Any

import pytest

from bot.service import GameService
from bot.store import InMemoryStore
from tests.discord.conftest import running_bot, tiny_png
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_deadlines import WAIT, posted, service_with

pytestmark = pytest.mark.asyncio


def button(log, label: str) -> str:
    return next(c["custom_id"] for c in log.components() if c.get("label") == label)


async def begin(fake: FakeDiscord, variant: str = "standard") -> str:
    """alice (White) v bob, accepted: the game's thread."""
    made, _ = await accept(fake, variant)
    return list(fake.threads)[-1]


async def accept(fake: FakeDiscord, variant: str = "standard"):
    """alice challenges bob, who accepts: (the challenge's log, the Accept click's log)."""
    made = await fake.slash("challenge", {"variant": variant, "opponent": fake.bob, "colour": "white"}, user=fake.alice)
    threads = len(fake.threads)
    accepted = await fake.click(button(made, "Accept"), user=fake.bob, message=made.reply.message)
    assert len(fake.threads) > threads and "was accepted" in fake.messages[made.reply.message["id"]]["content"]
    return made, accepted


async def play(fake: FakeDiscord, thread: str, user: dict[str, Any], move: str):
    played = await fake.slash("move", {"move": move}, user=user, channel=thread)
    assert not played.reply.ephemeral, played.text
    return played.reply


async def resign(fake: FakeDiscord, thread: str, user: dict[str, Any], game_id: int):
    """Resign by the board's button and its private confirmation: the posted final board."""
    await fake.click(f"kibitz:resign:{game_id}", user=user, channel=thread)
    log = await fake.click(f"kibitz:resign-ok:{game_id}", user=user, channel=thread)
    return next(s for s in log.sent if "resigns" in s.content)


def mentioned(sent) -> list[str]:
    return [u["id"] for u in sent.message["mentions"]]


async def test_a_move_board_says_the_turn_whose_move_and_when_it_is_due_in_two_lines(bot, fake, service):
    thread = await begin(fake)
    board = await play(fake, thread, fake.alice, "g1f3")
    record = await service.store.latest(thread)
    due = int(GameService.deadline_of(record) or 0)
    bob = fake.bob["id"]
    assert board.content == f"<@{bob}> 1. alice plays **Nf3**.\nbob to move (Black), due <t:{due}:R>."
    answer = await play(fake, thread, fake.bob, "e5")
    assert answer.content.startswith(f"<@{fake.alice['id']}> 1… bob plays **e5**.\nalice to move (White), due <t:")


async def test_the_variants_state_and_a_turn_of_several_parts_are_said_in_words(bot, fake):
    zoo = await begin(fake, "zoo")
    board = await play(fake, zoo, fake.alice, "e2e4")
    assert board.content.endswith("White has captured nothing; Black has captured nothing (four kinds win).")
    swap = await begin(fake, "balanced-swap")
    await play(fake, swap, fake.alice, "e2e4")
    board = await play(fake, swap, fake.bob, "b8c6 f8/g7")
    assert "1… bob plays **Nc6, then swaps f8 and g7**." in board.content and "b8c6" not in board.content


async def test_the_final_board_pings_the_player_who_did_not_make_the_last_move(bot, fake):
    thread = await begin(fake)
    for user, move in [(fake.alice, "f3"), (fake.bob, "e5"), (fake.alice, "g4")]:
        await play(fake, thread, user, move)
    final = await play(fake, thread, fake.bob, "Qh4")
    alice = fake.alice["id"]
    assert final.content.startswith(f"<@{alice}> 2… bob plays **Qh4#**.\n**bob wins** (0-1): Checkmate. "
                                    "`/replay` shows the game again, `/export` saves it.")
    assert mentioned(final) == [alice] and [str(u) for u in final.allowed_mentions["users"]] == [alice]


async def test_a_resignation_pings_the_other_player_unless_they_turned_pings_off(bot, fake, service):
    thread = await begin(fake)
    await play(fake, thread, fake.alice, "e4")
    final = await resign(fake, thread, fake.bob, (await service.store.latest(thread)).id)
    assert final.content.startswith(f"<@{fake.alice['id']}> bob resigns.\n**alice wins** (1-0): Black resigned.")
    assert mentioned(final) == [fake.alice["id"]]
    await service.store.set_pings(fake.bob["id"], False, "now")
    other = await begin(fake)
    final = await resign(fake, other, fake.alice, (await service.store.latest(other)).id)
    assert final.content.startswith("alice resigns.") and mentioned(final) == [] and not (final.allowed_mentions or {}).get("users")


async def test_an_agreed_draw_pings_the_player_who_offered_it(bot, fake, service):
    thread = await begin(fake)
    game_id = (await service.store.latest(thread)).id
    await fake.click(f"kibitz:draw:{game_id}", user=fake.alice, channel=thread)
    accepted = await fake.click(f"kibitz:draw:{game_id}", user=fake.bob, channel=thread)
    [final] = [s for s in accepted.sent if "accepts the draw" in s.content]
    assert final.content.startswith(f"<@{fake.alice['id']}> bob accepts the draw.\n**Draw** (1/2-1/2): Agreed.")
    assert mentioned(final) == [fake.alice["id"]]


async def test_a_loss_on_time_pings_both_players(fake):
    service = service_with(KIBITZ_MOVE_DEADLINE="2")
    async with running_bot(fake, service):
        thread = await begin(fake)
        await fake.wait_until(lambda: posted(fake, thread, "ran out of time"), WAIT)
        [final] = posted(fake, thread, "ran out of time")
        alice, bob = fake.alice["id"], fake.bob["id"]
        assert final.content.startswith(f"<@{alice}> <@{bob}> alice ran out of time.\n**bob wins** (0-1): Time.")
        assert sorted(mentioned(final)) == sorted([alice, bob])
        assert sorted(str(u) for u in final.allowed_mentions["users"]) == sorted([alice, bob])


def controls(fake: FakeDiscord, message_id: str) -> list[dict[str, Any]]:
    return fake.messages[message_id]["components"]


def strips(fake: FakeDiscord) -> list[str]:
    """The ids of the messages the bot edited to have no components, and nothing else (their text and
    picture kept), in order (the request log)."""
    edits = fake.requests_to("PATCH /channels/[0-9]+/messages/[0-9]+")
    return [r.path.rsplit("/", 1)[1] for r in edits if r not in fake.besides_stripped(edits) and r.status == 200]


async def test_a_new_board_takes_the_controls_off_the_board_before_it(bot, fake):
    thread = await begin(fake)
    [first] = [m.message["id"] for m in fake.messages_in(thread) if m.files]
    assert controls(fake, first)   # the first board: builder, Draw, Resign
    second = (await play(fake, thread, fake.alice, "e4")).message["id"]
    await fake.wait_until(lambda: strips(fake))   # just after the new board
    assert strips(fake) == [first] and controls(fake, first) == [] and controls(fake, second)
    third = (await play(fake, thread, fake.bob, "e5")).message["id"]
    await fake.wait_until(lambda: len(strips(fake)) == 2)
    assert strips(fake) == [first, second] and controls(fake, third)
    shown = (await fake.slash("board", {}, user=fake.carol, channel=thread)).reply.message["id"]   # /board is a board too
    await fake.wait_until(lambda: len(strips(fake)) == 3)
    assert strips(fake) == [first, second, third] and controls(fake, shown)
    boards = [m.message["id"] for m in fake.messages_in(thread) if m.files]
    assert [b for b in boards if controls(fake, b)] == [shown]


async def test_the_computers_move_takes_the_controls_off_the_members_board(bot, fake, service):
    """The computer answers by itself (the bot's own runner): its board, like a member's, takes the
    controls off the board before it, the member's."""
    from bot.discord.deadlines import post_in
    from bot.service import COMPUTER, Player

    alice = Player(fake.alice["id"], "alice")
    start = await service.challenge(fake.channel_id, alice, COMPUTER, "standard", guild=fake.guild_id,
                                    colour="white", level=1)
    record = await service.game_record(start.game_id or 0)
    await post_in(bot, record, fake.channel_id, start, "start")
    [first] = [m.message["id"] for m in fake.messages_in(fake.channel_id) if m.files]
    mine = (await play(fake, fake.channel_id, fake.alice, "e4")).message["id"]
    await fake.wait_until(lambda: len(strips(fake)) == 2)   # by the member's board and by the computer's answer
    boards = [m.message["id"] for m in fake.messages_in(fake.channel_id) if m.files]
    # (in either order: the computer may answer before the member's board has stripped the first)
    assert sorted(strips(fake)) == sorted([first, mine]) and boards[-1] != mine and controls(fake, boards[-1])
    assert len((await service.game_record(start.game_id or 0)).moves) == 2   # saved before it was shown


async def test_a_refused_edit_of_the_old_board_never_fails_the_move(bot, fake, service):
    thread = await begin(fake)
    fake.inject("PATCH /channels/[0-9]+/messages/[0-9]+", status=403, body={"message": "Missing Access", "code": 50001},
                times=None)
    board = await play(fake, thread, fake.alice, "e4")
    assert board.content.startswith(f"<@{fake.bob['id']}> 1. alice plays **e4**.")
    assert (await play(fake, thread, fake.bob, "e5")).content.startswith(f"<@{fake.alice['id']}> 1… bob plays **e5**.")
    assert (await service.store.latest(thread)).moves == ["e2e4", "e7e5"]


async def test_the_newest_board_is_remembered_across_a_restart(fake):
    store = InMemoryStore()
    async with running_bot(fake, GameService(store, renderer=tiny_png)):
        thread = await begin(fake)
        before = (await play(fake, thread, fake.alice, "e4")).message["id"]
        await fake.wait_until(lambda: strips(fake))   # kept as the newest board (then the first one lost its controls)
    async with running_bot(fake, GameService(store, renderer=tiny_png)):   # nothing kept in memory
        await play(fake, thread, fake.bob, "e5")
        await fake.wait_until(lambda: before in strips(fake))
        assert strips(fake)[-1] == before and controls(fake, before) == []


async def test_an_accepted_challenge_is_one_message_in_its_channel(bot, fake):
    made, accepted = await accept(fake)
    thread = list(fake.threads)[-1]
    assert [r.path for r in await fake.nothing_more(user=fake.carol) if r.method == "POST"] == []
    public = [m.message["id"] for m in fake.messages_in(fake.channel_id) if not m.ephemeral]
    assert public[:-1] == [made.reply.message["id"]]   # then /help's answer
    edited = fake.messages[made.reply.message["id"]]
    assert "was accepted" in edited["content"] and thread in edited["content"] and edited["components"] == []
    assert accepted.reply.ephemeral and thread in accepted.reply.content   # the accepter alone reads it again
