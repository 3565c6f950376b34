"""Board pictures: sizes, file formats, a few pixel probes, and the shipped art."""
import io

import pytest
from PIL import Image, ImageChops, ImageStat

import render
import rules
from render import THEME, board
from rules.core import BoardView

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png(view, **kwargs) -> Image.Image:
    data = render.board_png(view, **kwargs)
    assert data.startswith(PNG_SIGNATURE)
    return Image.open(io.BytesIO(data)).convert("RGB")


def crop(image, view, square, orientation="white"):
    return image.crop(render.layout(view.files, view.ranks).box(square, orientation))


def corner(image, view, square, orientation="white", inset=3):
    left, top, _, _ = render.layout(view.files, view.ranks).box(square, orientation)
    return image.getpixel((left + inset, top + inset))


def differing_share(a: Image.Image, b: Image.Image) -> float:
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return ImageStat.Stat(diff).mean[0] / 255


def empty(files=8, ranks=8, **kwargs) -> BoardView:
    return BoardView(files, ranks, {}, **kwargs)


START = rules.new_game("standard").view()


# -- sizes and formats ----------------------------------------------------------------------
def test_standard_board_size_fits_a_phone_preview():
    image = png(START)
    lay = render.layout(8, 8)
    assert image.size == lay.size
    assert 480 <= image.width <= 560 and image.width == image.height
    assert lay.square * 8 + 2 * lay.margin == image.width


def test_kingswap_board_is_5x5_with_bigger_squares():
    view = rules.new_game("kingswap", seed=1).view()
    image = png(view)
    assert image.width == render.layout(5, 5).size[0] and image.height >= render.layout(5, 5).size[1]
    assert render.layout(5, 5).square > render.layout(8, 8).square
    assert 400 <= image.width <= 560


@pytest.mark.parametrize("files,ranks", [(6, 6), (4, 7), (8, 5)])
def test_other_sizes_render_at_their_own_geometry(files, ranks):
    assert png(empty(files, ranks)).size == render.layout(files, ranks).size


def test_square_size_can_be_chosen():
    assert png(START, square=40).size == render.layout(8, 8, 40).size


def test_8x8_png_stays_small():
    assert len(render.board_png(START)) < 40_000


# -- pixel probes ---------------------------------------------------------------------------
def test_light_and_dark_squares_have_the_theme_colours():
    image = png(empty())
    assert corner(image, empty(), "a1") == THEME.dark
    assert corner(image, empty(), "h1") == THEME.light
    assert corner(image, empty(), "a8") == THEME.light
    assert crop(image, empty(), "d5").getcolors() == [(60 * 60, THEME.light)]


def test_frame_carries_coordinates():
    image = png(empty())
    lay = render.layout(8, 8)
    below = image.crop((lay.margin, lay.size[1] - lay.margin, lay.size[0] - lay.margin, lay.size[1]))
    left = image.crop((0, lay.margin, lay.margin, lay.size[1] - lay.margin))
    for strip in (below, left):
        colours = {c for _, c in strip.getcolors(4096)}
        assert THEME.frame in colours and len(colours) > 2, "labels drawn on the frame"


def test_last_move_tints_both_squares():
    game = rules.new_game("standard")
    game.play("Nf3")
    view = game.view()
    image = png(view, orientation="white")
    assert corner(image, view, "g1") not in (THEME.light, THEME.dark)
    assert corner(image, view, "f3") not in (THEME.light, THEME.dark)
    assert corner(image, view, "g1") != corner(image, view, "f3"), "g1 dark, f3 light: both tinted"
    assert corner(image, view, "f1") == THEME.light
    assert corner(image, view, "e3") == THEME.dark


def test_check_square_is_tinted_red():
    pieces = {"e1": "K", "e8": "k", "e2": "r"}
    quiet = BoardView(8, 8, pieces)
    checked = BoardView(8, 8, pieces, checks=("e1",))
    r_quiet, g_quiet, _ = ImageStat.Stat(crop(png(quiet), quiet, "e1")).mean
    r_check, g_check, _ = ImageStat.Stat(crop(png(checked), checked, "e1")).mean
    assert r_check - g_check > (r_quiet - g_quiet) + 30
    assert crop(png(checked), checked, "e8") == crop(png(quiet), quiet, "e8")


def test_marks_are_tinted():
    view = BoardView(5, 5, {"e1": "K"}, marks=("a5",))
    image = png(view)
    assert corner(image, view, "a5", inset=8) not in (THEME.light, THEME.dark)
    assert corner(image, view, "b5", inset=8) in (THEME.light, THEME.dark)


def test_a_piece_changes_its_square():
    with_king = BoardView(8, 8, {"e1": "K"})
    assert differing_share(crop(png(with_king), with_king, "e1"), crop(png(empty()), empty(), "e1")) > 0.15


def test_white_and_black_men_look_different():
    view = BoardView(8, 8, {"c3": "Q", "e3": "q"})  # both on dark squares
    image = png(view)
    assert differing_share(crop(image, view, "c3"), crop(image, view, "e3")) > 0.15


def test_black_orientation_puts_a1_top_right():
    lay = render.layout(8, 8)
    left, top, right, bottom = lay.box("a1", "black")
    assert (left, top) == (lay.margin + 7 * lay.square, lay.margin)
    view = BoardView(8, 8, {"a1": "R"})
    image = png(view, orientation="black")
    top_right = image.crop((left, top, right, bottom))
    bottom_left = image.crop(lay.box("a1", "white"))
    assert differing_share(top_right, crop(png(empty()), empty(), "a1")) > 0.15
    assert bottom_left.getcolors() == [(60 * 60, THEME.dark)], "h8 is empty (and dark)"


def test_orientation_defaults_to_the_side_to_move():
    view = BoardView(8, 8, {"a1": "R", "h8": "k"}, turn="black")
    assert render.board_png(view) == render.board_png(view, orientation="black")
    assert render.board_png(view) != render.board_png(view, orientation="white")


def test_bad_orientation_is_refused():
    with pytest.raises(ValueError):
        render.board_png(START, orientation="sideways")


# -- awkward boards -------------------------------------------------------------------------
def test_board_without_kings_renders():
    view = BoardView(8, 8, {"a1": "R", "h8": "q", "d4": "P"})
    assert png(view).size == render.layout(8, 8).size


def test_several_kings_and_checks_render():
    view = BoardView(8, 8, {"a1": "K", "h1": "K", "a8": "k", "h8": "k"}, checks=("a1", "h8"))
    quiet = BoardView(8, 8, view.pieces)

    def redness(board, square):
        r, g, _ = ImageStat.Stat(crop(png(board), board, square)).mean
        return r - g

    for square in ("a1", "h8"):
        assert redness(view, square) > redness(quiet, square) + 30
    for square in ("h1", "a8"):
        assert redness(view, square) == redness(quiet, square)


def test_unknown_letters_are_drawn_as_labelled_discs():
    view = BoardView(6, 6, {"c3": "Z", "d4": "x", "a1": "K", "f6": "AM"})
    image = png(view)
    for square in ("c3", "d4", "f6"):
        assert differing_share(crop(image, view, square), crop(png(empty(6, 6)), empty(6, 6), square)) > 0.1


def test_empty_board_and_off_board_squares_are_harmless():
    view = BoardView(5, 5, {"h8": "K", "zz": "Q", "a1": "N"}, last_move=("a9", "b2"), checks=("k1",))
    assert png(view).size == render.layout(5, 5).size
    assert png(empty(5, 5)).size == render.layout(5, 5).size


# -- GIF and alt text -----------------------------------------------------------------------
def test_gif_has_one_frame_per_position_and_holds_the_last():
    game = rules.new_game("standard")
    views = [game.view()]
    for move in ("e4", "e5", "Nf3", "Nc6"):
        game.play(move)
        views.append(game.view())
    data = render.game_gif(views, frame_ms=500)
    assert data[:6] in (b"GIF89a", b"GIF87a")
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == len(views)
    assert gif.size == render.layout(8, 8, board.GIF_SQUARE).size   # replays use a smaller square
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations[:-1] == [500] * 4 and durations[-1] > 500


def test_gif_refuses_mixed_sizes_and_nothing():
    with pytest.raises(ValueError):
        render.game_gif([])
    with pytest.raises(ValueError):
        render.game_gif([empty(8, 8), empty(5, 5)])


def test_alt_text_names_the_pieces():
    text = render.alt_text(START, "Standard chess")
    assert "Standard chess" in text
    assert "king e1" in text and "king e8" in text and "knight g1" in text
    assert "White" in text and "Black" in text


# -- shipped art ----------------------------------------------------------------------------
def test_every_piece_image_and_font_is_present_and_loads():
    problems = render.check_assets()
    assert not problems, "Render art missing or broken:\n" + "\n".join(problems)


def test_missing_art_is_reported_all_at_once(tmp_path):
    (tmp_path / "pieces").mkdir()
    (tmp_path / "pieces" / "wK.png").write_bytes(b"not a png")
    problems = render.check_assets(tmp_path)
    assert len(problems) == len(render.required_files())
    assert any("wK.png" in p and "cannot be read" in p for p in problems)
    with pytest.raises(FileNotFoundError, match="bQ.png"):
        render.Renderer(tmp_path)


def test_replay_gif_frames_after_the_first_change_only_what_moved():
    game = rules.new_game("standard")
    views = [game.view()]
    for move in ("e2e4", "e7e5", "g1f3"):
        game.play(move)
        views.append(game.view())
    gif = Image.open(io.BytesIO(render.game_gif(views)))
    assert gif.n_frames == 4
    gif.seek(2)   # (frame 1 differs from the full first frame everywhere, so it spans the board)
    left, top, right, bottom = gif.dispose_extent
    assert (right - left) * (bottom - top) < gif.width * gif.height / 2   # a box round e4..e5, not the board
    gif.seek(3)
    played = gif.convert("RGB")
    alone = Image.open(io.BytesIO(render.game_gif(views[-1:]))).convert("RGB")
    assert ImageChops.difference(played, alone).getbbox() is None   # the deltas add up to the position


def random_replay(slug: str, plies: int, seed: int) -> list:
    import random
    rng, game = random.Random(seed), rules.new_game(slug, seed=seed)
    views = [game.view()]
    while len(views) <= plies and game.legal_moves():
        game.play(rng.choice(game.legal_moves()))
        views.append(game.view())
    return views


def test_a_replay_whose_turns_change_many_squares_is_drawn_smaller_to_stay_within_its_budget():
    # Balanced Swap changes four squares a turn: at the usual square its 40-ply replay runs
    # past 100 KB, so it is drawn on smaller squares; every frame is still there.
    views = random_replay("balanced-swap", 40, 0)
    renderer = render.default_renderer()
    usual = renderer.game_gif(views, square=board.GIF_SQUARE)
    assert len(usual) > board.gif_budget(len(views)) and board.gif_budget(41) <= 100 * 1024
    data = render.game_gif(views)
    gif = Image.open(io.BytesIO(data))
    assert len(data) <= board.gif_budget(len(views)) and gif.n_frames == len(views)
    assert gif.size in {render.layout(8, 8, s).size for s in board.GIF_SMALLER_SQUARES}
    # a chess replay fits at the usual square and keeps it
    chess_views = random_replay("standard", 40, 0)
    assert Image.open(io.BytesIO(render.game_gif(chess_views))).size == render.layout(8, 8, board.GIF_SQUARE).size
