"""What a board picture holds beyond the squares: the state in words, never cut; men in hand as
pockets; each part of a turn of several drawn as what it is; Reentrant's half-boards."""
import io
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

import render
import rules
from render import THEME
from rules.core import BoardView


def png(view, **kwargs) -> Image.Image:
    return Image.open(io.BytesIO(render.board_png(view, **kwargs))).convert("RGB")


def centre(view, square, orientation="white"):
    left, top, right, bottom = render.layout(view.files, view.ranks).box(square, orientation)
    return (left + right) // 2, (top + bottom) // 2


def between(view, a, b, share=0.5):
    (ax, ay), (bx, by) = centre(view, a), centre(view, b)
    return round(ax + (bx - ax) * share), round(ay + (by - ay) * share)


def colours(image, box):
    return {colour for _, colour in image.crop(box).getcolors(1 << 16)}


def played(slug: str, fen: str, move: str):
    game = rules.new_game(slug, fen=fen)
    game.play(move)
    return game.view()


def random_views(slug: str, seed: int = 3, plies: int = 60, every: int = 15) -> list[BoardView]:
    rng, game = random.Random(seed), rules.new_game(slug, seed=seed)
    views = [game.view()]
    for ply in range(1, plies + 1):
        moves = game.legal_moves()
        if not moves:
            break
        game.play(rng.choice(moves))
        if ply % every == 0 or not game.legal_moves():
            views.append(game.view())
    return views


# -- the state, never cut ---------------------------------------------------------------------
def caption_rows(image, view) -> list[int]:
    """y of each row of pixels below the board that holds caption text."""
    lay = render.layout(view.files, view.ranks)
    band = image.crop((0, lay.size[1], image.width, image.height))
    return [y for y in range(band.height)
            if THEME.coords in {band.getpixel((x, y)) for x in range(band.width)}]


@pytest.mark.parametrize("slug", sorted(rules.VARIANTS))
def test_no_variant_caption_is_cut(slug):
    renderer = render.default_renderer()
    for view in random_views(slug):
        lay = render.layout(view.files, view.ranks)
        image = png(view, orientation="white")
        bare = png(replace(view, caption="", hands={}), orientation="white")
        # the board keeps its place and its pixels: the state is drawn beside and below it
        assert image.crop((0, 0, *lay.size)).tobytes() == bare.crop((0, 0, *lay.size)).tobytes()
        if not view.caption:
            assert image.height == lay.size[1]
            continue
        lines = renderer.wrapped(view.caption, lay, image.width)
        assert " ".join(lines).split() == view.caption.split()   # every word is drawn
        font = renderer.assets.font(lay.font_px)
        assert all(font.getlength(line) <= image.width - 2 * lay.margin for line in lines)
        rows = caption_rows(image, view)
        assert rows, f"{slug}: no caption drawn for {view.caption!r}"
        step = round(lay.font_px * 1.45)
        assert {(y // step) for y in rows} == set(range(len(lines)))   # one row of text per line
        band = image.crop((image.width - lay.margin + 1, lay.size[1], image.width, image.height))
        assert THEME.coords not in {c for _, c in band.getcolors(1 << 16)}, "text runs into the right edge"


def test_a_long_caption_wraps_onto_more_lines_and_the_picture_grows():
    short = BoardView(8, 8, {"e1": "K"}, caption="Checks left: White 3, Black 2")
    words = "White has captured pawn, bishop, rook; Black has captured pawn, knight, queen (four kinds win)"
    long = replace(short, caption=words + ". " + words)
    lay = render.layout(8, 8)
    one, three = png(short), png(long)
    assert one.width == three.width == lay.size[0]
    assert lay.size[1] < one.height < three.height
    step = round(lay.font_px * 1.45)
    assert len({y // step for y in caption_rows(three, long)}) >= 3


def test_zoo_and_kingmaker_captions_are_whole_on_the_board():
    zoo = played("zoo", "4k3/8/8/8/8/8/1p6/R3K3 w - - 0 1", "a1a8")   # any position: the caption is long
    for view in (zoo, rules.new_game("kingmaker").view()):
        lines = render.default_renderer().wrapped(view.caption, render.layout(8, 8), png(view).width)
        assert " ".join(lines) == " ".join(view.caption.split()) and len(lines) >= 2
        assert len(caption_rows(png(view), view)) > 0


def test_reentrant_caption_says_who_moves_not_only_a_legend():
    game = rules.new_game("reentrant")
    assert game.view().caption.startswith("First player to move")
    game.play(game.legal_moves()[0])
    assert game.view().caption.startswith("Second player to move")


# -- men in hand: pockets -----------------------------------------------------------------------
def pocket_box(view, side, orientation="white"):
    """The half of the pocket column beside `side`'s half of the board."""
    lay = render.layout(view.files, view.ranks)
    half = lay.margin + lay.ranks * lay.square // 2
    on_top = (side == "black") == (orientation == "white")
    return (lay.size[0], lay.margin if on_top else half, 10_000, half if on_top else lay.margin + lay.ranks * lay.square)


def men_in(image, box):
    """How many dark men (black bodies) and light squares the box holds: pocket pictures."""
    found = colours(image, (box[0], box[1], min(box[2], image.width), box[3]))
    return THEME.light in found, any(sum(c) < 60 for c in found)


def test_men_in_hand_are_drawn_as_pockets_on_their_sides_with_counts():
    view = BoardView(8, 8, {"e1": "K", "e8": "k"}, hands={"white": "NPP", "black": ""})
    image = png(view, orientation="white")
    lay = render.layout(8, 8)
    assert image.width > lay.size[0]
    assert men_in(image, pocket_box(view, "white")) == (True, True)     # white's, beside White's half
    assert men_in(image, pocket_box(view, "black"))[0] is False         # black holds nothing
    flipped = png(view, orientation="black")
    assert men_in(flipped, pocket_box(view, "white", "black")) == (True, True)   # White is now on top
    assert men_in(flipped, pocket_box(view, "black", "black"))[0] is False
    # two kinds, two pictures: the count is written beside, not drawn as a second man
    box = pocket_box(view, "white")
    rows = [y for y in range(box[1], box[3]) if image.getpixel((lay.size[0] + 2, y)) == THEME.light]
    runs = sum(1 for y in rows if y - 1 not in rows)
    assert runs == 2
    assert THEME.coords in colours(image, (lay.size[0], box[1], image.width, box[3]))   # the counts


def test_reentrant_and_donnybrook_hands_are_pockets():
    reentrant = played("reentrant", "PR2k2r/2PQp1pp/2PP2Rn/N7/2p5/4PP2/ppp2P1P/r1qnK1N1[p,] w - - 0 23", "P@d8")
    assert reentrant.hands == {"white": "", "black": ""} and reentrant.part_kinds == ("drop",)
    held = rules.new_game("reentrant", fen="4k3/8/8/8/8/8/8/r3K3[p,N] w - - 0 1").view()
    image = png(held, orientation="white")
    assert men_in(image, pocket_box(held, "white")) == (True, True)   # a black pawn in the first player's hand
    assert men_in(image, pocket_box(held, "black"))[0] is True
    donnybrook = rules.new_game("donnybrook", fen="1r1qB1n1/1p2pkb1/p2p1p1r/5b1p/1P1P1PpP/2PK1NP1/1P1B3R/RNQ5[n] b - - 0 23").view()
    assert donnybrook.hands["black"] == "n"
    image = png(donnybrook, orientation="white")
    assert men_in(image, pocket_box(donnybrook, "black")) == (True, True)
    assert men_in(image, pocket_box(donnybrook, "white"))[0] is False


def test_reentrant_draws_the_line_between_its_half_boards():
    view = rules.new_game("reentrant").view()
    assert view.split_file == 4
    lay = render.layout(8, 8)
    for orientation in ("white", "black"):
        image = png(view, orientation=orientation)
        left = lay.box("d4" if orientation == "white" else "e4", orientation)
        assert image.getpixel((left[2], (left[1] + left[3]) // 2)) == THEME.frame
        assert image.getpixel((left[2] - lay.square // 2, (left[1] + left[3]) // 2)) != THEME.frame
    plain = png(rules.new_game("standard").view(), orientation="white")
    d4 = lay.box("d4")
    assert plain.getpixel((d4[2], (d4[1] + d4[3]) // 2)) != THEME.frame


# -- a turn of several parts, drawn as parts ------------------------------------------------------
def test_balanced_swap_turn_is_an_arrow_and_a_swap_mark_numbered_not_four_tints():
    game = rules.new_game("balanced-swap")
    game.play("d4")
    game.play("Nc6 f8/g7")
    view = game.view()
    assert view.parts == (("b8", "c6"), ("f8", "g7")) and view.part_kinds == ("step", "swap")
    image = png(view, orientation="white")
    ink = THEME.part
    assert image.getpixel(between(view, "b8", "c6")) == ink      # the step's arrow
    assert image.getpixel(between(view, "f8", "g7")) == ink      # the swap's mark
    for square in ("b8", "c6", "f8", "g7"):                       # no square tinted like a move
        _, top, right, _ = render.layout(8, 8).box(square)
        assert image.getpixel((right - 4, top + 4)) in (THEME.light, THEME.dark), square
    # numbered in order: a disc with a white digit in the first square of each part
    for square in ("b8", "f8"):
        left, top, _, _ = render.layout(8, 8).box(square)
        found = colours(image, (left, top, left + 20, top + 20))
        assert ink in found and (255, 255, 255) in found, square


def swap_heads(image, view, a, b):
    """Pixels of part ink across the line a-b near each end, where a head would be (a head is
    wider than the shaft)."""
    (ax, ay), (bx, by) = centre(view, a), centre(view, b)
    near = 0.45 * render.layout(8, 8).square / ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    widths = []
    for share in (near, 1 - near):
        x, y = ax + (bx - ax) * share, ay + (by - ay) * share
        dx, dy = -(by - ay), bx - ax
        norm = (dx * dx + dy * dy) ** 0.5
        widths.append(sum(1 for t in range(-20, 21)
                          if image.getpixel((round(x + dx / norm * t), round(y + dy / norm * t))) == THEME.part))
    return widths


def test_a_swap_has_two_heads_and_a_step_one():
    view = BoardView(8, 8, {}, parts=(("b2", "e2"), ("b6", "e6")), part_kinds=("step", "swap"))
    image = png(view)
    start, end = swap_heads(image, view, "b2", "e2")
    shaft = swap_heads(image, replace(view, parts=(("b2", "h2"), ("b6", "e6"))), "b2", "h2")[0]
    assert end > 2 * shaft and start <= shaft + 1
    near_b6, near_e6 = swap_heads(image, view, "b6", "e6")
    assert near_b6 > 2 * shaft and near_e6 > 2 * shaft


def test_concurrent_mirror_and_tyrant_placement_are_marked_as_such():
    concurrent = played("concurrent", "rnbqkbnr/ppp1pppp/2p5/8/8/6P1/PPPPPPP1/RNBQKBNR w - - 0 2", "a2|h2 e2f3")
    assert concurrent.part_kinds == ("mirror", "step")
    image = png(concurrent, orientation="white")
    mid = between(concurrent, "a2", "h2", (7 - 0.5) / 2 / 7)   # the middle of the shaft (the head: its last half square)
    assert image.getpixel(mid) == THEME.part
    assert image.getpixel((mid[0], mid[1] - render.layout(8, 8).square // 5)) == THEME.part   # the mirror's bar
    tyrant = played("tyrant", "br1r1Nn1/p3k2p/P1p2ppP/1p1pp1N1/1PPPP3/B4P2/1Q4q1/1R1K1B1R b - - 2 43", "g2b2 Q@d3")
    assert tyrant.parts == (("g2", "b2"), ("d3",)) and tyrant.part_kinds == ("step", "drop")
    image = png(tyrant, orientation="white")
    left, top, right, bottom = render.layout(8, 8).box("d3")
    ring = [image.getpixel(((left + right) // 2, y)) for y in range(top, bottom)]
    assert THEME.part in ring and image.getpixel(centre(tyrant, "d3")) != THEME.part   # a ring, round the Queen
    assert image.getpixel(between(tyrant, "g2", "b2")) == THEME.part


@pytest.mark.parametrize("square", [60, 40])
def test_a_drop_mark_and_the_parts_numbers_leave_every_man_whole(square):
    # a man put on the board is ringed under him, and the numbers sit on the squares' corners:
    # not one pixel of any man's body, marked or beside a mark, is covered
    names, letters = [f + r for r in "3456" for f in "cdef"], "QNKRBPqnkrbpNQnq"
    men = BoardView(8, 8, dict(zip(names, letters)))
    moved = BoardView(8, 8, {chr(ord(n[0]) + 1) + n[1]: letter for n, letter in zip(names, letters)})
    marked = replace(men, parts=(("d4",), ("e5",)), part_kinds=("drop", "drop"))
    drawn, plain, other = png(marked, square=square), png(men, square=square), png(moved, square=square)
    empty = png(BoardView(8, 8, {}), square=square)
    lay = render.layout(8, 8, square)
    left, top, _, _ = lay.box("c6")
    _, _, right, bottom = lay.box("f3")
    # a man's body: what is the same whatever the square's colour (each man one file on, in `moved`)
    body = [(x, y) for x in range(left, right) for y in range(top, bottom)
            if plain.getpixel((x, y)) != empty.getpixel((x, y)) and plain.getpixel((x, y)) == other.getpixel((x + square, y))]
    assert len(body) > 8 * square * square // 2 and all(drawn.getpixel(xy) == plain.getpixel(xy) for xy in body)
    for square_name in ("d4", "e5"):   # the ring shows round the man, and the part's number on a corner
        x0, y0, x1, y1 = lay.box(square_name)
        assert THEME.part in colours(drawn, (x0, (y0 + y1) // 2, x0 + square // 8, (y0 + y1) // 2 + 1))
        assert {THEME.part, (255, 255, 255)} <= colours(drawn, (x0 - 5, y0 - 5, x0 + 5, y0 + 5))


def test_a_mirror_between_neighbouring_squares_keeps_its_bar_off_the_arrowhead():
    view = BoardView(8, 8, {}, parts=(("d7", "e7"), ("a1", "a3")), part_kinds=("mirror", "step"))
    barred, arrow = png(view), png(replace(view, part_kinds=("step", "step")))
    bar = ImageChops.difference(barred, arrow).getbbox()
    head_base = centre(view, "e7")[0] - render.layout(8, 8).square // 2   # the head: the last half square
    assert bar is not None and centre(view, "d7")[0] < bar[0] and bar[2] <= head_base


def test_pockets_say_whose_they_are():
    # Reentrant's first player holds black men: each pocket has a word ("First", "Second") in the
    # frame at its end of the board, and the word goes with the pocket when the board is turned
    view = rules.new_game("reentrant", fen="4k3/8/8/8/8/8/8/r3K3[p,N] w - - 0 1").view()
    lay = render.layout(8, 8)

    def ends(orientation):
        image = png(view, orientation=orientation)
        return [image.crop((lay.size[0], y, image.width, y + lay.margin)) for y in (0, lay.size[1] - lay.margin)]

    (white_top, white_bottom), (black_top, black_bottom) = ends("white"), ends("black")
    assert THEME.coords in colours(white_top, (0, 0, *white_top.size)) & colours(white_bottom, (0, 0, *white_bottom.size))
    assert white_top.tobytes() != white_bottom.tobytes()
    assert white_top.tobytes() == black_bottom.tobytes() and white_bottom.tobytes() == black_top.tobytes()


def test_a_one_step_turn_is_still_tinted_like_a_move():
    game = rules.new_game("standard")
    game.play("e4")
    view = game.view()
    image = png(view, orientation="white")
    left, top, _, _ = render.layout(8, 8).box("e4")
    assert image.getpixel((left + 3, top + 3)) not in (THEME.light, THEME.dark)
    assert THEME.part not in colours(image, (0, 0, *image.size))


# -- replays: the players, each frame's move, the result ------------------------------------------
def frames_of(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    frames = []
    for i in range(gif.n_frames):
        gif.seek(i)
        frames.append(gif.convert("RGB"))
    return frames


def seeded_views(slug: str, plies: int, seed: int = 0) -> tuple[list[BoardView], list[str]]:
    rng, game = random.Random(seed), rules.new_game(slug, seed=seed)
    views, labels = [game.view()], ["Start"]
    while len(views) <= plies and game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
        views.append(game.view())
        labels.append(f"{len(labels)}. {game.last_move_label()}")
    return views, labels


def test_a_replay_writes_the_players_and_each_move_under_its_frame_and_ends_on_the_result():
    views, labels = seeded_views("standard", 4)
    plain = frames_of(render.game_gif(views))
    said = frames_of(render.game_gif(views, title="alice (White) v bob (Black)", labels=labels,
                                     result="alice wins (1-0): resignation"))
    assert len(said) == len(views) + 1                         # the result has a frame of its own
    lay = render.layout(8, 8, render.board.GIF_SQUARE)
    assert plain[0].size == lay.size and said[0].width == lay.size[0] and said[0].height > lay.size[1]
    board = (0, 0, *lay.size)
    band = (0, lay.size[1], lay.size[0], said[0].height)
    for before, after in zip(said, said[1:]):                 # each frame's line differs from the last
        assert before.crop(band).tobytes() != after.crop(band).tobytes()
    assert said[-1].crop(board).tobytes() == said[-2].crop(board).tobytes()   # the final position, held
    assert said[-1].crop(board).tobytes() == plain[-1].crop(board).tobytes()
    rows = [y for y in range(band[1], band[3]) if THEME.coords in {said[0].getpixel((x, y)) for x in range(lay.size[0])}]
    assert rows and rows[0] < lay.size[1] + lay.font_px * 1.45 < rows[-1]   # two lines: the players, the move
    with pytest.raises(ValueError):
        render.game_gif(views, labels=labels[:-1])


def test_every_two_player_replay_of_40_plies_with_names_moves_and_result_stays_within_100_kb():
    # the text under the frames and the result's frame count in the budget; variants whose random
    # play is the same as another's (standard chess with a different goal) replay the same bytes
    done: list[tuple[list[BoardView], list[str]]] = []
    for slug in sorted(slug for slug, info in rules.VARIANTS.items() if info.players == 2):
        views, labels = seeded_views(slug, 40, seed=1)
        if (views, labels) in done:
            continue
        done.append((views, labels))
        data = render.game_gif(views, title="alice (White) v bob (Black)", labels=labels,
                               result="alice wins (1-0): checkmate")
        assert len(data) <= render.board.gif_budget(len(views)) <= 100 * 1024, (slug, len(data))
        assert Image.open(io.BytesIO(data)).n_frames == len(views) + 1, slug
    assert len(done) > 20


# -- the solo puzzles' goals ------------------------------------------------------------------------
def washed(base, *washes):
    pixel = Image.new("RGBA", (1, 1), base + (255,))
    for wash in washes:
        pixel.alpha_composite(Image.new("RGBA", (1, 1), wash))
    return pixel.convert("RGB").getpixel((0, 0))


def test_solitary_patience_last_move_shows_on_its_gold_home_squares():
    game = rules.new_game("solitary-patience", seed=0)
    for move in ("b4a6", "e6g4", "d3c3", "e4f5", "h1g2"):
        game.play(move)
    view = game.view()
    assert "h1" in view.marks and view.last_move == ("h1", "g2")
    image = png(view, orientation="white")
    left, top, right, bottom = render.layout(8, 8).box("h1")
    inside = image.getpixel((left + 10, bottom - 10))          # h1 is a light square, empty now
    assert inside == washed(THEME.light, THEME.last_move)      # the move's wash, not buried under gold
    assert image.getpixel((left + 2, bottom - 10)) == THEME.mark_ring[:3]   # still ringed as a goal
    other = next(sq for sq in view.marks   # an empty light goal square the move did not touch
                 if sq not in view.last_move and sq not in view.pieces and (ord(sq[0]) + int(sq[1])) % 2 == 1)
    left, top, _, bottom = render.layout(8, 8).box(other)
    assert image.getpixel((left + 10, bottom - 10)) == washed(THEME.light, THEME.mark)   # other goals: gold


def test_safe_passage_says_who_moves_and_what_is_next_and_marks_the_next_goal():
    game = rules.new_game("safe-passage")
    view = game.view()
    assert view.caption.startswith("White to move") and "next: swap the kings" in view.caption
    assert sorted(view.marks) == ["e1", "e8"]
    game.play(game.legal_moves()[0])
    assert game.view().caption.startswith("Black to move")
    swapped = rules.new_game("safe-passage", fen="rnbqKbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQkBNR b - - 0 1 g2").view()
    assert "level 1 reached: kings swapped; next: the queens" in swapped.caption
    assert sorted(swapped.marks) == ["d1", "d8"]
    image = png(swapped, orientation="white")
    for square, marked in (("d8", True), ("e8", False)):
        left, top, _, _ = render.layout(8, 8).box(square)
        assert (image.getpixel((left + 2, top + 10)) == THEME.mark_ring[:3]) == marked, square
    whole = rules.new_game("safe-passage", fen="g3").view()   # level 3's far ranks: only the kings' squares marked next
    assert sorted(whole.marks) == ["e1", "e8"]


def test_alt_text_says_each_part_as_what_it_is():
    tyrant = played("tyrant", "br1r1Nn1/p3k2p/P1p2ppP/1p1pp1N1/1PPPP3/B4P2/1Q4q1/1R1K1B1R b - - 2 43", "g2b2 Q@d3")
    assert "Last move g2-b2, then a white queen put on d3." in render.alt_text(tyrant)
    concurrent = played("concurrent", "rnbqkbnr/ppp1pppp/2p5/8/8/6P1/PPPPPPP1/RNBQKBNR w - - 0 2", "a2|h2 e2f3")
    assert "Last move mirror a2 to h2, then e2-f3." in render.alt_text(concurrent)
    game = rules.new_game("balanced-swap")
    game.play("d4")
    game.play("Nc6 f8/g7")
    assert "Last move b8-c6, then swap f8 and g7." in render.alt_text(game.view())
