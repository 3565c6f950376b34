"""End to end through the Discord stand-in: ratings after a result, /leaderboard, /profile,
/export as PGN, /replay as a GIF and /rules as a card with a diagram (issue 12)."""
from __future__ import annotations

import io

import chess.pgn
import pytest
from PIL import Image

from tests.discord.fake_discord import FakeDiscord

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def games_in_place(fake):
    """These tests play where the command runs; games in threads: tests/discord/test_threads.py."""
    fake.deny_threads()

FOOLS_MATE = [("alice", "f2f3"), ("bob", "e7e5"), ("alice", "g2g4"), ("bob", "d8h4")]


async def play_standard(fake: FakeDiscord, moves) -> None:
    challenge = await fake.slash("challenge", {"opponent": fake.bob, "variant": "standard", "colour": "white"}, user=fake.alice)
    accept_id = next(c["custom_id"] for c in challenge.components() if c["label"] == "Accept")
    await fake.click(accept_id, user=fake.bob)
    for who, move in moves:
        log = await fake.slash("move", {"move": move}, user=getattr(fake, who))
        assert "plays" in log.text, log.text


def only_file(log):
    files = [f for s in log.messages for f in s.files]
    assert len(files) == 1, log.sent
    return files[0]


async def test_a_win_puts_the_winner_above_the_loser_on_the_leaderboard_and_in_profiles(bot, fake):
    await play_standard(fake, FOOLS_MATE)
    board = await fake.slash("leaderboard", {"variant": "standard"}, user=fake.alice)
    lines = board.text.splitlines()
    bob_line = next(i for i, line in enumerate(lines) if line.startswith("1. **bob**"))
    alice_line = next(i for i, line in enumerate(lines) if line.startswith("2. **alice**"))
    assert bob_line < alice_line
    assert "alice, you are #2" in board.text and "1 game" in board.text
    winner = int(lines[bob_line].split()[2].rstrip("?"))
    loser = int(lines[alice_line].split()[2].rstrip("?"))
    assert winner > 1500 > loser

    profile = await fake.slash("profile", {"member": fake.bob}, user=fake.alice)
    assert "**bob**" in profile.text
    assert f"Standard chess: {winner}" in profile.text or f"Standard: {winner}" in profile.text
    assert "1 win, 0 draws, 0 losses" in profile.text
    mine = await fake.slash("profile", user=fake.alice)
    assert "0 wins, 0 draws, 1 loss" in mine.text


async def test_a_game_against_nobody_rated_leaves_the_leaderboard_empty(bot, fake):
    board = await fake.slash("leaderboard", {"variant": "standard"}, user=fake.carol)
    assert "No rated" in board.text
    profile = await fake.slash("profile", user=fake.carol)
    assert "no rated games" in profile.text


async def test_a_puzzle_leaderboard_is_its_best_scores_and_points_to_the_daily_board(bot, fake):
    log = await fake.slash("leaderboard", {"variant": "kingswap"}, user=fake.alice)
    assert "best score per player" in log.text and "daily:True" in log.text
    assert "No finished" in log.text


async def test_export_of_a_standard_game_parses_with_python_chess_to_the_same_moves(bot, fake):
    await play_standard(fake, FOOLS_MATE)
    log = await fake.slash("export", user=fake.carol)
    upload = only_file(log)
    assert upload.filename.endswith(".pgn")
    game = chess.pgn.read_game(io.StringIO(upload.data.decode("utf-8")))
    assert game is not None and not game.errors
    assert [m.uci() for m in game.mainline_moves()] == [m for _, m in FOOLS_MATE]
    assert game.headers["Result"] == "0-1"
    assert game.headers["White"] == "alice" and game.headers["Black"] == "bob"
    assert "Variant" not in game.headers and "FEN" not in game.headers
    assert game.end().board().is_checkmate()
    assert "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" in log.text


async def test_replay_is_a_gif_with_one_frame_per_turn_plus_the_start(bot, fake):
    await play_standard(fake, FOOLS_MATE[:3])
    log = await fake.slash("replay", user=fake.alice)
    upload = only_file(log)
    assert upload.filename.endswith(".gif")
    image = Image.open(io.BytesIO(upload.data))
    assert image.format == "GIF" and image.n_frames == 3 + 1


async def test_export_and_replay_without_a_game_are_private_sentences(bot, fake):
    for name in ("export", "replay"):
        log = await fake.slash(name, user=fake.alice)
        assert "No game" in log.reply.content and log.reply.ephemeral


async def test_rules_is_a_card_with_a_diagram_of_the_start(bot, fake):
    log = await fake.slash("rules", {"variant": "prop"}, user=fake.alice)
    embeds = [e for s in log.messages for e in s.data.get("embeds") or []]
    assert len(embeds) == 1, log.sent
    embed = embeds[0]
    assert embed["title"] == "Prop Chess"
    assert "How to win" in embed["description"]
    upload = only_file(log)
    assert embed["image"]["url"] == f"attachment://{upload.filename}"
    assert upload.data.startswith(b"\x89PNG")
