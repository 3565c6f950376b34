"""Board PNGs put together from cached bands: the same pixels as the picture drawn, kept small."""
import io
import random
import zlib

import pytest
from PIL import Image

import rules
from render import board, png
from render.board import Renderer
from rules.core import BoardView


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def same_picture(renderer: Renderer, view: BoardView, **kwargs) -> bool:
    drawn = renderer.board_image(view, **kwargs)
    got = decoded(renderer.board_png(view, **kwargs))
    return (got.mode, got.size, got.tobytes(), got.getpalette()) == (
        drawn.mode, drawn.size, drawn.tobytes(), drawn.getpalette())


def played(slug: str, plies: int, seed: int) -> list[BoardView]:
    rng = random.Random(seed)
    game = rules.new_game(slug, seed=seed) if slug != "standard" else rules.new_game(slug)
    views = [game.view()]
    for _ in range(plies):
        moves = sorted(game.legal_moves())
        if not moves or game.outcome is not None:
            break
        game.play(rng.choice(moves))
        views.append(game.view())
    return views


@pytest.mark.parametrize("orientation", ["white", "black"])
def test_banded_png_decodes_to_the_drawn_board_move_after_move(orientation):
    renderer = Renderer()
    for view in played("standard", 40, seed=3):
        assert same_picture(renderer, view, orientation=orientation)


def test_banded_png_shows_checks_marks_and_small_boards_as_drawn():
    renderer = Renderer()
    checked = BoardView(8, 8, {"e1": "K", "e8": "k", "e2": "q"}, turn="white", checks=("e1",),
                        last_move=("d3", "e2"), marks=("h8", "a1"))
    assert same_picture(renderer, checked)
    for view in played("kingswap", 12, seed=5):
        assert same_picture(renderer, view)
    assert same_picture(renderer, BoardView(6, 6, {"a1": "K", "f6": "k"}), square=40)


def test_boards_with_extras_are_drawn_whole_and_still_match():
    renderer = Renderer()
    view = BoardView(8, 8, {"e1": "K", "e8": "k", "d4": "N"}, owners={"d4": "black"},
                     arrows=(("d4", "e6"),), caption="Round 2", hands={"white": "PP", "black": ""})
    assert same_picture(renderer, view)


def test_a_band_seen_before_is_not_compressed_again(monkeypatch):
    renderer = Renderer()
    view = rules.new_game("standard").view()
    renderer.board_png(view)
    compressed = []
    monkeypatch.setattr(png, "compress_scanlines", lambda *args: compressed.append(args) or png.Band(b"", 1, 0))
    renderer.board_png(view)
    game = rules.new_game("standard")
    game.play("e2e4")
    renderer.board_png(game.view(), orientation="white")
    assert len(compressed) == 2   # ranks 2 and 4 changed; the frame and six ranks came from the cache


def test_band_cache_keeps_only_its_size():
    renderer = Renderer()
    renderer._bands.size = 12
    for view in played("standard", 10, seed=1):
        renderer.board_png(view)
    assert len(renderer._bands) == 12


def test_8x8_boards_stay_under_20_kb_through_random_games():
    renderer = Renderer()
    sizes = [len(renderer.board_png(view)) for seed in range(4) for view in played("standard", 60, seed=seed)]
    assert max(sizes) <= board.MAX_PNG_BYTES


def test_a_board_over_the_size_limit_is_encoded_whole_and_tighter(monkeypatch):
    renderer = Renderer()
    view = played("standard", 20, seed=2)[-1]
    banded = renderer.board_png(view)
    monkeypatch.setattr(board, "MAX_PNG_BYTES", len(banded) - 1)
    tight = renderer.board_png(view)
    assert len(tight) < len(banded)
    assert same_picture(renderer, view)


def test_combined_adler32_equals_the_adler32_of_the_whole():
    rng = random.Random(0)
    parts = [bytes(rng.randrange(256) for _ in range(n)) for n in (0, 1, 70_000, 5, 65_521, 3000)]
    combined = 1
    for part in parts:
        combined = png.adler32_combine(combined, zlib.adler32(part), len(part))
    assert combined == zlib.adler32(b"".join(parts))


def test_header_of_refuses_what_is_not_a_png():
    with pytest.raises(ValueError):
        png.header_of(b"GIF89a")
