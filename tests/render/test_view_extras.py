"""What variants show beyond men: every part of the last turn, owners, arrows, hands, captions."""
import io

from PIL import Image

import render
import rules
from render import THEME
from rules.core import BoardView


def png(view, **kwargs) -> Image.Image:
    return Image.open(io.BytesIO(render.board_png(view, **kwargs))).convert("RGB")


def corner(image, view, square, inset=3, right=False):
    left, top, r, _ = render.layout(view.files, view.ranks).box(square)
    return image.getpixel((r - 1 - inset if right else left + inset, top + inset))


def top_frame(image, view):
    lay = render.layout(view.files, view.ranks)
    return image.crop((lay.margin, 0, lay.size[0] - lay.margin, lay.margin))


def colours(image):
    return {colour for _, colour in image.getcolors(1 << 16)}


def test_every_part_of_the_last_turn_is_drawn():
    game = rules.new_game("balanced-swap")
    game.play("d4")
    game.play("Nc6 f8/g7")
    view = game.view()
    image = png(view, orientation="white")
    for square in ("b8", "c6", "f8", "g7"):
        box = render.layout(8, 8).box(square)
        assert THEME.part in colours(image.crop(box)), square
    assert THEME.part not in colours(image.crop(render.layout(8, 8).box("a1")))


def test_an_owner_differing_from_the_colour_gets_a_disc_in_its_colour():
    view = BoardView(8, 8, {"a1": "r", "h1": "R"}, owners={"a1": "white", "h1": "white"})
    image = png(view)
    assert corner(image, view, "a1", inset=6, right=True) == THEME.white_disc
    assert corner(image, view, "h1", inset=6, right=True) in (THEME.light, THEME.dark)   # white man, white owner


def test_arrows_are_drawn_between_square_centres():
    view = BoardView(8, 8, {}, arrows=(("a1", "a8"),))
    image = png(view)
    lay = render.layout(8, 8)
    left, top, right, bottom = lay.box("a4")
    assert image.getpixel(((left + right) // 2, (top + bottom) // 2)) == THEME.mark_ring[:3]
    plain = png(BoardView(8, 8, {}))
    assert plain.getpixel(((left + right) // 2, (top + bottom) // 2)) != THEME.mark_ring[:3]


def test_hands_and_caption_are_drawn_beside_and_below_the_board_which_keeps_its_place():
    quiet = BoardView(8, 8, {"e1": "K"})
    said = BoardView(8, 8, {"e1": "K"}, caption="Checks left: White 3, Black 2", hands={"white": "NPP", "black": ""})
    lay = render.layout(8, 8)
    assert png(quiet).size == lay.size
    assert png(said).width > lay.size[0] and png(said).height > lay.size[1]
    assert png(said).crop((0, 0, *lay.size)).tobytes() == png(quiet).crop((0, 0, *lay.size)).tobytes()
    below = png(said).crop((lay.margin, lay.size[1], lay.size[0] - lay.margin, png(said).height))
    assert THEME.coords in colours(below)
    assert colours(top_frame(png(said), said)) == {THEME.frame}


def test_alt_text_says_hands_owners_parts_and_arrows():
    view = BoardView(8, 8, {"a1": "r"}, hands={"white": "NPP", "black": ""}, owners={"a1": "white"},
                     parts=(("b8", "c6"), ("f8", "g7")), arrows=(("e2", "e4"),), caption="A caption.")
    text = render.alt_text(view)
    assert "White holds white knight, 2 white pawns in hand." in text
    assert "Black holds nothing in hand." in text
    assert "White owns the men on a1." in text
    assert "Last move b8-c6, then f8-g7." in text
    assert "Arrows e2 to e4." in text
    assert "A caption." in text


def test_existing_variants_caption_their_hidden_state():
    moderation = rules.new_game("moderation")
    assert moderation.view().caption == "Checks left: White 3, Black 3"
    zoo = rules.new_game("zoo")
    assert "White has captured nothing" in zoo.view().caption
    spartan = rules.new_game("spartan")
    assert "60 moves to go" in spartan.view().caption
    kingmaker = rules.new_game("kingmaker")
    assert "White has no King yet" in kingmaker.view().caption
    assert moderation.view().caption in moderation.describe()


def test_reentrant_shows_hands_and_owners():
    game = rules.new_game("reentrant", fen="4k3/8/8/8/8/8/8/r3K3[p,N] w - - 0 1")
    view = game.view()
    assert view.hands == {"white": "p", "black": "N"}
    assert view.owners["a1"] == "white"
    # the first player holds a black pawn: the colour is said even when the hand holds one colour
    assert "White holds black pawn in hand. Black holds white knight in hand." in render.alt_text(view)
    image = png(view, orientation="white")
    assert corner(image, view, "a1", inset=6, right=True) == THEME.white_disc
