"""Service side of the lobby (issue 11): threads, finished games, /games, settings, pings, names."""
from datetime import datetime, timezone

import pytest

from bot.names import escape, plain
from bot.service import GameService, UserError
from bot.store import InMemoryStore

from .conftest import ALICE, BOB, CAROL, CHANNEL, fake_png

pytestmark = pytest.mark.asyncio

GUILD = "g-1"
THREAD = "thread-7"


async def fools_mate(service, channel=CHANNEL, play_in=None):
    reply = await service.challenge(channel, ALICE, BOB, "standard", guild=GUILD)
    await service.accept(channel, BOB, play_in=play_in)
    where = play_in or channel
    for user, move in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4")]:
        await service.move(where, user, move)
    return reply.game_id


async def test_accepting_into_a_thread_plays_there_and_frees_the_channel(service, store):
    game_id = await fools_mate(service, play_in=THREAD)
    record = await store.get(game_id)
    assert (record.channel_id, record.home_channel_id) == (THREAD, CHANNEL)
    other = await service.challenge(CHANNEL, CAROL, ALICE, "standard", guild=GUILD)
    await service.accept(CHANNEL, ALICE, play_in="thread-8")
    assert (await store.get(other.game_id)).channel_id == "thread-8"


async def test_board_after_the_end_shows_final_position_result_and_moves(service):
    await fools_mate(service, play_in=THREAD)
    reply = await service.board(THREAD)
    assert reply.image is not None and reply.finished
    assert "This game is over." in reply.text
    assert "bob wins" in reply.text and "Checkmate" in reply.text
    assert "Moves: 1. f3 e5 2. g4 Qh4" in reply.text
    assert reply.builder is None


async def test_move_after_the_end_says_the_game_is_over_and_how_to_start_another(service, store):
    game_id = await fools_mate(service, play_in=THREAD)
    with pytest.raises(UserError, match="This game is over.*bob wins.*/challenge"):
        await service.move(THREAD, ALICE, "e4")
    assert (await store.get(game_id)).moves == ["f2f3", "e7e5", "g2g4", "d8h4"]


async def test_move_where_nothing_was_ever_played_says_no_game(service):
    with pytest.raises(UserError, match="No game in this channel"):
        await service.move("empty", ALICE, "e4")


async def test_a_challenge_pings_the_challenged_member_and_an_open_one_nobody(service):
    named = await service.challenge(CHANNEL, ALICE, BOB, "standard")
    assert named.pings == (BOB.id,)
    open_one = await service.challenge(CHANNEL, ALICE, None, "standard")
    assert open_one.pings == ()


async def test_a_move_pings_the_player_now_to_move_unless_they_opted_out(service):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "standard", colour="white")
    accepted = await service.accept(CHANNEL, BOB, reply.game_id)
    assert accepted.pings == (ALICE.id,)
    assert (await service.move(CHANNEL, ALICE, "e4")).pings == (BOB.id,)
    off = await service.set_pings(BOB, False)
    assert off.ephemeral and "/pings on" in off.text
    assert (await service.move(CHANNEL, BOB, "e5")).pings == (ALICE.id,)
    assert (await service.move(CHANNEL, ALICE, "Nf3")).pings == ()
    await service.set_pings(BOB, True)
    assert (await service.move(CHANNEL, BOB, "Nc6")).pings == (ALICE.id,)


async def test_a_puzzle_move_pings_nobody(service):
    await service.start_puzzle(CHANNEL, ALICE, "safe-passage", seed=1)
    choices = await service.move_suggestions(CHANNEL, ALICE)
    assert (await service.move(CHANNEL, ALICE, choices[0])).pings == ()


async def test_settings_start_with_defaults_and_are_saved(service, store):
    shown = await service.show_settings(GUILD)
    assert shown.ephemeral and "Variants: all on." in shown.text and "Threads: on" in shown.text
    assert "3 days (the bot's default)" in shown.text
    changed = await service.change_settings(GUILD, disable="clerical", threads=False, days=5, announce="chan-9",
                                            channel_name=lambda c: f"#{c}")
    assert "Settings saved." in changed.text and "#chan-9" in changed.text
    assert await store.settings(GUILD) == {"disabled": ["clerical"], "threads": False, "days": 5,
                                           "announce": "chan-9"}
    again = await service.change_settings(GUILD, enable="all", days=0, stop_announcing=True)
    assert await store.settings(GUILD) == {"disabled": [], "threads": False, "days": None, "announce": None}
    assert "only the channel where they are made" in again.text


async def test_settings_refuse_bad_values_and_change_nothing(service, store):
    with pytest.raises(UserError, match="1 to 14"):
        await service.change_settings(GUILD, days=30)
    with pytest.raises(UserError, match="don't know a variant"):
        await service.change_settings(GUILD, disable="no-such-chess")
    with pytest.raises(UserError, match="direct messages"):
        await service.show_settings(None)
    assert await store.settings(GUILD) == {}


async def test_a_disabled_variant_is_refused_by_challenge_and_puzzle_start(service, store):
    await service.change_settings(GUILD, disable="clerical")
    await service.change_settings(GUILD, disable="safe-passage")
    with pytest.raises(UserError, match="Clerical.* turned off in this server"):
        await service.challenge(CHANNEL, ALICE, BOB, "clerical", guild=GUILD)
    with pytest.raises(UserError, match="turned off in this server"):
        await service.check_start(GUILD, "safe-passage", players=1)
    assert await store.challenges(CHANNEL) == []
    await service.challenge(CHANNEL, ALICE, BOB, "clerical", guild="another-server")   # other servers unaffected


async def test_server_default_days_apply_unless_the_challenge_names_its_own(service, store):
    await service.change_settings(GUILD, days=5)
    by_default = await service.challenge(CHANNEL, ALICE, BOB, "standard", guild=GUILD)
    own = await service.challenge(CHANNEL, ALICE, CAROL, "standard", guild=GUILD, days=2)
    elsewhere = await service.challenge("chan-g2", ALICE, CAROL, "standard", guild="g-2")
    assert (await store.get(by_default.game_id)).move_seconds == 5 * 86400
    assert (await store.get(own.game_id)).move_seconds == 2 * 86400
    assert (await store.get(elsewhere.game_id)).move_seconds == service.move_deadline


async def test_games_lists_challenges_and_games_with_whose_turn_and_links(service):
    assert "No games or challenges" in (await service.games(GUILD)).text
    await service.challenge(CHANNEL, ALICE, BOB, "standard", guild=GUILD, colour="white")
    await service.accept(CHANNEL, BOB, play_in=THREAD)
    await service.move(THREAD, ALICE, "e4")
    await service.challenge(CHANNEL, CAROL, None, "clerical", guild=GUILD)
    await service.challenge("elsewhere", CAROL, None, "clerical", guild="g-2")
    reply = await service.games(GUILD, link=lambda r: f"<link {r.channel_id}>")
    lines = reply.text.splitlines()
    assert lines[0] == "**Open games and challenges** (2)"
    assert "**Standard chess** · alice vs bob · bob to move · last move just now · <link thread-7>" in lines[1]
    assert "Challenge: carol to anyone · **Clerical Chess** · made just now" in lines[2]


async def test_games_tells_the_age_of_the_last_move_not_of_a_reminder_or_draw_offer(store):
    now = [1_000_000.0]
    service = GameService(store, renderer=fake_png, timer=lambda: now[0], move_deadline=3 * 86400,
                          clock=lambda: datetime.fromtimestamp(now[0], timezone.utc).isoformat())
    await service.challenge(CHANNEL, ALICE, BOB, "standard", guild=GUILD, colour="white")
    await service.accept(CHANNEL, BOB)
    now[0] += 3600
    assert "alice to move · started 1 h ago" in (await service.games(GUILD)).text
    await service.move(CHANNEL, ALICE, "e4")
    now[0] += 2.5 * 86400   # past the reminder's time: bob is reminded, then offers a draw
    assert [event.kind for event in await service.due_events()] == ["reminder"]
    await service.draw(CHANNEL, BOB)
    assert "bob to move · last move 2 days ago" in (await service.games(GUILD)).text


async def test_note_challenge_message_keeps_the_message_id(service, store):
    reply = await service.challenge(CHANNEL, ALICE, BOB, "standard")
    await service.note_challenge_message(reply.game_id, "555")
    assert (await store.get(reply.game_id)).message_id == "555"
    await service.accept(CHANNEL, BOB, reply.game_id)   # the saved id does not stale the challenge


async def test_challenge_to_accept_checks_without_changing_anything(service, store):
    reply = await service.challenge(CHANNEL, ALICE, None, "standard")
    record = await service.challenge_to_accept(CHANNEL, CAROL, reply.game_id)
    assert record.id == reply.game_id and (await store.get(reply.game_id)).status == "challenge"
    with pytest.raises(UserError, match="your own challenge|not for you"):
        await service.challenge_to_accept(CHANNEL, ALICE, reply.game_id)


async def test_help_points_to_variants_and_rules(service):
    text = (await service.help_text()).text
    assert "/variants" in text and "/rules" in text and "/challenge" in text


async def test_escaped_names_show_as_typed_and_come_back_plain():
    for name in ["**@everyone**", "<@123456789012345678>", "a_b~c|d`e", "plain name", "back\\slash", "@here"]:
        shown = escape(name)
        assert plain(shown) == name
    assert "**" not in escape("**@everyone**") and "@everyone" not in escape("**@everyone**")
    assert escape("alice") == "alice"


async def test_export_writes_plain_names_for_escaped_ones():
    from bot.service import Player

    service = GameService(InMemoryStore(), renderer=fake_png)
    star = Player("9", escape("**@everyone**"))
    await service.challenge(CHANNEL, star, BOB, "standard", colour="white")
    await service.accept(CHANNEL, BOB)
    pgn = (await service.export(CHANNEL)).image.decode()
    assert '[White "**@everyone**"]' in pgn
