"""Every registered variant's boards render: the start, a game in progress, and the odd cases
(no kings at all, a king made by promotion for the other side)."""
import io
import random

import pytest
from dataclasses import replace

from PIL import Image, ImageStat

import render
import rules


def image(view, orientation="white"):
    return Image.open(io.BytesIO(render.board_png(view, orientation=orientation))).convert("L")


def mean(img, view, square, orientation="white"):
    box = render.layout(view.files, view.ranks).box(square, orientation)
    return ImageStat.Stat(img.crop(box)).mean[0]


def darkest(img, view, square, orientation="white"):
    """The darkest grey level inside a square: a black man's body is near 0."""
    box = render.layout(view.files, view.ranks).box(square, orientation)
    return ImageStat.Stat(img.crop(box)).extrema[0][0]


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
def test_start_and_a_random_position_render_at_the_board_size(slug):
    game = rules.new_game(slug, seed=1)
    rng = random.Random(slug)
    for _ in range(12):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
    view = game.view()
    size = render.layout(view.files, view.ranks).size
    bare = image(replace(view, caption="", hands={}))
    assert bare.size == size
    assert image(view).crop((0, 0, *size)).tobytes() == bare.tobytes()   # pockets and caption beside and below


def test_kingmaker_start_has_no_kings_and_renders_empty_king_squares():
    view = rules.new_game("kingmaker").view()
    assert not any(letter in "Kk" for letter in view.pieces.values())
    img = image(view)
    assert darkest(img, view, "e8") > 100, "e8 is empty at the start of Kingmaker"
    assert darkest(img, view, "d8") < 40, "the black queen on d8 is drawn"


def test_a_king_made_by_promotion_is_drawn_in_the_opponents_colour():
    game = rules.new_game("kingmaker", fen="8/4P3/8/8/8/8/8/8 w - - 0 1")
    game.play("e7e8k")
    view = game.view()
    assert view.pieces["e8"] == "k"
    img = image(view)
    assert darkest(img, view, "e8") < 40, "a king stands on e8"
    as_white = image(replace(view, pieces={**view.pieces, "e8": "K"}))
    assert mean(img, view, "e8") < mean(as_white, view, "e8") - 20, "and it is drawn black"
    assert view.last_move == ("e7", "e8")
