"""What a newcomer meets first: /undo in a game of two, PGN of puzzles and unusual starts, the console's
small answers, who plays White, the variants list, and a solved puzzle's place on the board after /undo."""
import io
from dataclasses import replace

import pytest

import rules
from bot.console import Console
from bot.service import GameService, UserError
from bot.store import GameRecord

from .conftest import ALICE, BOB, CHANNEL
from .test_store_contract import any_store  # noqa: F401, F811  (memory, SQLite and PostgreSQL)

pytestmark = pytest.mark.asyncio


async def started(service, slug="standard"):
    reply = await service.challenge(CHANNEL, ALICE, BOB, slug, colour="white")
    await service.accept(CHANNEL, BOB)
    return reply.game_id


async def pgn_of(service) -> str:
    return (await service.export(CHANNEL)).image.decode()


# -- /undo in a game of two --------------------------------------------------------------------
async def test_undo_in_a_two_player_game_points_to_takeback(service):
    await started(service)
    await service.move(CHANNEL, ALICE, "e4")
    with pytest.raises(UserError) as refused:
        await service.undo(CHANNEL, ALICE)
    assert "`/takeback` asks your opponent" in str(refused.value)


# -- PGN ---------------------------------------------------------------------------------------
async def test_pgn_of_a_game_in_play_has_no_final_position(service):
    await started(service, "zoo")
    await service.move(CHANNEL, ALICE, "e4")
    text = await pgn_of(service)
    assert "Final position" not in text and text.rstrip().endswith("1. e4 *")


async def test_pgn_of_a_finished_game_keeps_its_final_position(service):
    await started(service, "zoo")
    await service.resign(CHANNEL, BOB)
    assert "{Final position: " in await pgn_of(service)


async def test_pgn_numbers_a_puzzles_turns_one_by_one(service):
    await service.start_puzzle(CHANNEL, ALICE, "safe-passage")
    for _ in range(3):
        await service.move(CHANNEL, ALICE, (await service.move_suggestions(CHANNEL, ALICE, ""))[0])
    moves = (await pgn_of(service)).split("\n\n", 1)[1].split()
    assert [word for word in moves if word.endswith(".")] == ["1.", "2.", "3."]


async def test_pgn_of_reentrant_names_its_start(service):
    await started(service, "reentrant")
    text = await pgn_of(service)
    start = rules.new_game("reentrant").fen()
    assert '[SetUp "1"]' in text and f'[FEN "{start}"]' in text


async def test_pgn_of_a_variant_starting_from_the_usual_array_has_no_fen(service):
    await started(service, "tyrant")
    assert "[FEN " not in await pgn_of(service)


# -- the console -------------------------------------------------------------------------------
def blank_png(view, orientation) -> bytes:
    return b"\x89PNG"


async def console_of(service, tmp_path, *lines) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    console = Console(service, tmp_path, stdout=out, user="you")
    for line in lines:
        await console.handle(line)
    return console, out


async def test_console_moves_says_when_it_is_not_your_turn(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge standard @bob colour:white", "/as bob", "/accept")
    await console.handle("/moves")
    assert "! It is not your turn." in out.getvalue() and "No legal moves" not in out.getvalue()


async def test_console_moves_wrap_and_never_split_a_turn(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge balanced-swap @bob colour:white", "/as bob",
                                    "/accept", "/as you", "/move e2e4", "/as bob")
    before = len(out.getvalue())
    await console.handle("/moves")
    listed = out.getvalue()[before:].rstrip("\n").split("\n")
    assert len(listed) > 10 and all(len(line) <= 78 for line in listed)
    turns = " ".join(listed).split(", ")
    assert "a7a5 a8/a5" in turns and all(len(turn.split()) == 2 for turn in turns)


async def test_console_export_names_the_pgn_file_not_a_board_image(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/puzzle kingswap 3", "/export")
    assert "[PGN file: " in out.getvalue() and "[board image: " not in out.getvalue().split("as PGN")[1]


async def test_console_accept_with_several_challenges_says_how_to_choose(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge zoo @bob", "/as carol", "/challenge tyrant @bob",
                                    "/as bob", "/accept")
    assert "! Several challenges wait for you here: /accept 1 (Zoo Chess from you) or /accept 2 (Tyrant Chess " \
           "from carol)." in out.getvalue()
    await console.handle("/accept 2")
    assert (await service.board("console")).text.count("Tyrant Chess") == 1


async def test_console_build_on_a_finished_menu_says_ok_or_clear(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge standard @bob colour:white", "/as bob",
                                    "/accept", "/as you", "/build")
    for words in ("pawn e2", "e4 (e2e4)"):
        menu = out.getvalue().rsplit("Building a turn.", 1)[-1].rsplit("Turn so far", 1)[-1]
        number = next(line.strip().split(".", 1)[0] for line in menu.splitlines() if words in line)
        await console.handle(f"/build {number}")
    await console.handle("/build 1")
    assert "from 1 to 0" not in out.getvalue()
    assert "! Nothing is left to pick: ok plays the turn, clear starts over." in out.getvalue()


async def test_console_refuses_a_second_identical_challenge(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge zoo @bob", "/challenge @bob zoo")
    assert "! You already have that challenge open here." in out.getvalue()


async def test_console_challenge_refuses_a_word_it_does_not_know(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge zoo @bob junk", "/challenge @bob zoo junk")
    assert out.getvalue().count("! I don't know what 'junk' means here: say a variant, then @name, then options.") == 2
    assert await service.store.challenges(console.channel) == []
    await console.handle("/challenge zoo @bob")
    assert len(await service.store.challenges(console.channel)) == 1


async def test_console_accept_of_a_game_number_that_never_was_says_so(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge zoo @bob", "/as bob", "/accept 99")
    assert "! There is no challenge #99 here." in out.getvalue()
    await console.handle("/accept 1")
    assert "bob accepts" in out.getvalue()


async def test_safe_passage_board_text_counts_the_moves_once(service):
    await service.start_puzzle(CHANNEL, ALICE, "safe-passage")
    await service.move(CHANNEL, ALICE, (await service.move_suggestions(CHANNEL, ALICE, ""))[0])
    text = (await service.board(CHANNEL)).text
    assert "· 1 move." in text and "moves played" not in text


async def test_a_puzzle_caption_that_counts_something_else_leaves_the_moves_played_said(service, monkeypatch):
    """Whether the caption counts the moves is the rules' word, not read off its text."""
    kingswap = type(rules.new_game("kingswap", seed=1))
    shown = kingswap.view
    monkeypatch.setattr(kingswap, "view", lambda game: replace(shown(game), caption="king heading for a5 · 1 move left"))
    await service.start_puzzle(CHANNEL, ALICE, "kingswap", seed=1)
    await service.move(CHANNEL, ALICE, (await service.move_suggestions(CHANNEL, ALICE, ""))[0])
    assert "moves played: 1" in (await service.board(CHANNEL)).text


# -- who plays White ---------------------------------------------------------------------------
async def test_console_challenge_draws_the_colour_unless_said(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge zoo @bob")
    assert "(drawn at random)" in out.getvalue()
    await console.handle("/challenge tyrant @carol colour:black days:3")
    assert "You would play Black. 3 days per move." in out.getvalue()


async def test_console_challenge_takes_the_discord_order_and_refuses_unknown_options(service, tmp_path):
    console, out = await console_of(service, tmp_path, "/challenge standard @bob colour:white", "/challenge zoo @carol hue:red")
    assert "You challenge bob to Standard chess. You would play White." in out.getvalue()
    assert "! Unknown option 'hue:red'" in out.getvalue()
    await console.handle("/challenge zoo @carol days:many")
    assert "! The days must be a whole number." in out.getvalue()


# -- /variants ---------------------------------------------------------------------------------
GOAL = {"blunder-mate", "clerical", "concurrent", "counselor", "contravention", "deadline", "decastellation",
        "donnybrook", "dowager", "dynastic", "entourage", "glory", "junta", "kingmaker", "linkage", "moderation",
        "prop", "reentrant", "regent", "separation", "series-helpmate", "shrapnel", "society", "spartan",
        "submission", "triple-check", "twilight", "tyrant", "ultimate", "xenophobic", "zoo"}   # Paletta's 31


async def test_variants_gives_each_game_one_line_with_its_name_and_goal_in_three_groups(service):
    lines = (await service.list_variants()).text.split("\n")
    headings = [n for n, line in enumerate(lines) if line.startswith("**") and line.endswith("):")]
    assert [lines[n].split("**")[1] for n in headings] == ["Solo puzzles", "Two-player games", "GOAL variants"]
    groups = [lines[start + 1:end] for start, end in zip(headings, headings[1:] + [len(lines) - 1])]
    slugs = [[line.split("(`", 1)[1].split("`)", 1)[0] for line in group] for group in groups]
    assert set(slugs[2]) == GOAL and len(slugs[2]) == 31
    assert slugs[0] == ["kingswap", "safe-passage", "solitary-patience"] and slugs[1] == ["balanced-swap", "standard"]
    for group in groups:
        for line in group:
            info = rules.VARIANTS[line.split("(`", 1)[1].split("`)", 1)[0]]
            assert line == f"**{info.name}** (`{info.slug}`): {info.summary}"


# -- a solved puzzle stays on the board after /undo ---------------------------------------------
async def test_a_solved_puzzle_stays_on_the_board_after_undo_and_play_after_it_is_practice(any_store):  # noqa: F811
    service, fen = GameService(any_store, renderer=blank_png), "N4/5/5/5/3KR 2 5"   # e1d1 solves it: 6 casualties
    record = GameRecord("kingswap", CHANNEL, [(ALICE.id, ALICE.name)], fen, "active", "g", start_fen=fen)
    await service.store.create(record)
    await service.move(CHANNEL, ALICE, "e1d1")
    board = (await service.leaderboard("g", ALICE, "kingswap")).text
    assert "1. **alice** 6 casualties" in board and f"(game #{record.id})" in board
    undone = await service.undo(CHANNEL, ALICE)
    assert (await service.leaderboard("g", ALICE, "kingswap")).text == board   # the finish counted when it happened
    assert f"Your finish of game #{record.id} stays on the board of results" in undone.text
    await service.move(CHANNEL, ALICE, "e1e2")
    await service.resign(CHANNEL, ALICE)   # practice: neither its play nor its end changes the board
    assert (await service.leaderboard("g", ALICE, "kingswap")).text == board
    kept = await service.store.get(record.id)
    assert (kept.status, kept.result, kept.score, kept.moves) == ("finished", "solved", 6, ["e1d1"])
