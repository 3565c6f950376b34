"""The console front end, driven through stdin as a newcomer would run it."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path, script, *args, token=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(KIBITZ_DB=str(tmp_path / "k.sqlite3"), KIBITZ_OUT=str(tmp_path / "out"),
               PYTHONPATH=str(ROOT))
    if token:
        env["DISCORD_TOKEN"] = token
    return subprocess.run([sys.executable, "-m", "bot", *args], input=script, text=True, capture_output=True,
                          cwd=tmp_path, env=env, timeout=120)


def test_console_plays_a_challenge_to_checkmate_and_writes_pngs(tmp_path):
    script = "\n".join([
        "/challenge @bob standard colour:white", "/as bob", "/accept", "/as you", "/move f3", "/as bob", "/move e5",
        "/as you", "/move g4", "/as bob", "/move Qh4", "/quit", ""])
    result = run_bot(tmp_path, script, "console")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "You challenge bob to Standard chess. You would play White." in out
    assert "bob wins (0-1): Checkmate." in out and "**" not in out and "`" not in out
    assert "r n b . k b n r" in out  # text board after the mate, black queen gone from d8
    pngs = sorted((tmp_path / "out").glob("*.png"))
    assert len(pngs) == 5
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)
    assert f"[board image: {pngs[0].parent}" in out


def test_console_refuses_bad_input_politely(tmp_path):
    script = "/move e2e4\n/frobnicate\n/puzzle nonsense\n/puzzle kingswap x\n/puzzle kingswap 3\n/move z9\n/quit\n"
    out = run_bot(tmp_path, script, "console").stdout
    assert "! No game in this channel" in out
    assert "! Unknown command /frobnicate" in out
    assert "! I don't know a variant called 'nonsense'" in out
    assert "! The seed must be a whole number" in out
    assert "! I can't read 'z9'" in out


def test_console_speaks_to_you_with_verbs_that_agree(tmp_path):
    out = run_bot(tmp_path, "/puzzle kingswap 3\n/resign\n/quit\n", "console").stdout
    assert "You start KingSwap!" in out and "you starts" not in out.lower()
    assert "You resign." in out and "Failed: Gave up." in out


def test_console_speaks_of_you_in_the_second_person_while_another_player_types(tmp_path):
    script = "/challenge @bob standard colour:white\n/as bob\n/accept\n/as you\n/takeback\n/move e4\n/as bob\n/resign\n/quit\n"
    out = run_bot(tmp_path, script, "console").stdout
    assert "You win (1-0): Black resigned." in out
    assert "you wins" not in out.lower() and "you is" not in out.lower()


def test_console_lists_the_open_games_and_ends_a_puzzle_caption_with_a_full_stop(tmp_path):
    script = "/puzzle kingswap 3\n/channel two\n/challenge @bob zoo\n/games\n/quit\n"
    out = run_bot(tmp_path, script, "console").stdout
    assert "casualties 0 · king heading for a5. Your move." in out
    assert "Open games and challenges (2)" in out
    assert "KingSwap! puzzle · you" in out and "Challenge: you to bob · Zoo Chess" in out


def test_console_leaves_other_players_in_the_third_person(tmp_path):
    out = run_bot(tmp_path, "/as bob\n/puzzle kingswap 3\n/quit\n", "console").stdout
    assert "bob starts KingSwap!" in out


def text_boards(out):
    """The text boards printed, each as its rank lines."""
    lines = [line for line in out.splitlines() if line[:2].strip().isdigit() and line[1:2] == " "]
    return [lines[i:i + 5] for i in range(0, len(lines), 5)]


def test_console_games_survive_a_restart(tmp_path):
    first = run_bot(tmp_path, "/puzzle kingswap 3\n/quit\n", "console").stdout
    second = run_bot(tmp_path, "/board\n/quit\n", "console").stdout
    assert "KingSwap! · game #1" in second
    assert text_boards(second)[0] == text_boards(first)[0]


def test_run_without_a_token_explains_and_starts_the_console(tmp_path):
    result = run_bot(tmp_path, "/variants\n/quit\n")
    assert result.returncode == 0
    assert "No DISCORD_TOKEN" in result.stderr and "discord.com/developers" in result.stderr
    assert "KingSwap! (kingswap): " in result.stdout


@pytest.mark.asyncio
async def test_console_puzzle_takes_a_level_option(tmp_path):
    import io

    from bot.console import Console
    from bot.service import GameService
    from bot.store import InMemoryStore

    out = io.StringIO()
    console = Console(GameService(InMemoryStore(), renderer=lambda view, o: b"png"), tmp_path, stdout=out)
    await console.handle("/puzzle safe-passage level:2")
    await console.handle("/channel other")
    await console.handle("/puzzle kingswap 7 colour:red")
    text = out.getvalue()
    assert "target level 2" in text and "Unknown option 'colour:red'" in text


@pytest.mark.asyncio
async def test_a_deadline_passing_while_the_console_waits_for_a_line_is_said_there(tmp_path):
    """The console runs the deadlines: a challenge expiring while it waits for input is announced in
    its output at once, and the console still answers the next line."""
    import asyncio
    import io
    import queue

    from bot.console import Console
    from bot.service import GameService
    from bot.store import InMemoryStore

    class Keyboard:   # a terminal: readline waits until a line is typed (then, after 10 s, gives up: EOF)
        def __init__(self) -> None:
            self.typed: queue.Queue[str] = queue.Queue()

        def readline(self) -> str:
            try:
                return self.typed.get(timeout=10)
            except queue.Empty:
                return ""

    out, keyboard = io.StringIO(), Keyboard()
    service = GameService(InMemoryStore(), renderer=lambda view, o: b"png", challenge_ttl=0.2)
    running = asyncio.create_task(Console(service, tmp_path, stdout=out).run(keyboard))   # type: ignore[arg-type]
    keyboard.typed.put("/challenge @bob standard colour:white\n")
    for _ in range(1000):   # bounded poll: the challenge expires 0.2 s after it is made
        if "expired" in out.getvalue():
            break
        await asyncio.sleep(0.01)
    keyboard.typed.put("/games\n")
    keyboard.typed.put("/quit\n")
    await asyncio.wait_for(running, 10)
    text = out.getvalue()
    assert "In #console:" in text and "expired" in text.split("In #console:")[1]
    assert text.index("In #console:") < text.index("No games or challenges are open here") < text.index("Bye.")


@pytest.mark.asyncio
async def test_console_writes_plain_text_and_says_you_to_its_own_player_whatever_the_name(tmp_path):
    """No Markdown reaches the terminal (boards, results, lists, cards, hints of commands), and the
    console's own player is "you" by id, not by the word: here the player is alice."""
    import io

    from bot.console import Console
    from bot.service import GameService
    from bot.store import InMemoryStore

    out = io.StringIO()
    console = Console(GameService(InMemoryStore(), renderer=lambda view, o: b"png"), tmp_path, stdout=out,
                      user="alice")
    for line in ["/challenge @bob standard colour:white", "/as bob", "/accept", "/as alice", "/move e4", "/as bob", "/move e5",
                 "/as alice", "/resign", "/board", "/games", "/variants", "/rules prop", "/leaderboard standard", "/profile bob"]:
        await console.handle(line)
    text = out.getvalue()
    assert "You challenge bob to Standard chess. You would play White." in text
    assert "1. You play e4." in text and "1… bob plays e5." in text and "You resign." in text
    assert "Last move: 1… e5" in text and "bob to move (Black), due 20" in text and "<t:" not in text and "bob wins (0-1): White resigned." in text
    assert "1. bob" in text and "You, you are #2" in text and "Prop Chess\n\nHow to win." in text
    assert "**" not in text and "`" not in text and "alice" not in text.replace("You are now alice.", "")
