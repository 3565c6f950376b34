"""Drawing: a BoardView in, a paletted image out.

Speed and size come from doing the work once. Every square is a *tile*: its colour, its
highlights (last move, goal mark, check) and the man on it, composited in RGBA once per square
size, then mapped to one shared 256-colour palette and cached. The frame with its coordinates and
empty squares is cached per board size and orientation. A board is then a copy of the frame plus
one paste per occupied or highlighted square, all in palette mode, so PNG encoding is cheap, the
file small, and GIF frames share one palette. `board_png` goes further: it keeps each rank's
compressed scanlines (render/png.py) and compresses only the ranks a picture has not shown before.

What a variant shows beyond men and highlights is drawn over that, in fixed palette colours:
a turn of one step is tinted like a chess move; a turn of several parts (or a drop) is drawn part
by part (`view.parts`, `view.part_kinds`), numbered in order: an arrow for a step, a two-headed
arrow for a swap, an arrow crossed by a bar for a mirror, a ring under the man for a drop (in
its tile), each number in a disc on a corner of its square, clear of the men. Then a small disc in
the owner's colour in a corner of each square whose man's owner differs from its colour
(`view.owners`), arrows (`view.arrows`), a line between half-boards (`view.split_file`). The
state beside the board makes the image grow, never cut: men in hand as pockets of piece pictures
with counts in a column right of the board, each side's beside its own half (`view.hands`), and
the caption wrapped onto as many lines as it needs below the board (`view.caption`). The board
itself always keeps its place: `Layout.box` finds a square in any picture.
"""
from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from rules.core import BLACK, WHITE, BoardView

from . import png
from .assets import Assets
from .theme import THEME, Layout, Theme, parse_square

Flags = tuple[bool, bool, bool, bool]   # (last move, mark, check, drop: a man put there)
NO_FLAGS: Flags = (False, False, False, False)
EMPTY: tuple[Flags, str] = (NO_FLAGS, "")
PALETTE_SQUARE = 60               # the square size whose tiles choose the shared palette
# zlib level of board PNGs, chosen by benchmarks/picture_sizes.py: level 3 encodes 8x8 boards in
# a fifth of level 6's time and stays under 20 KB; smaller boards have bigger squares, and at
# level 3 a 5x5 board can pass 30 KB, so they keep level 6.
PNG_LEVEL, PNG_LEVEL_SMALL_BOARD = 3, 6
# Bands (render/png.py) cost 3-4% in size; a board that comes out over MAX_PNG_BYTES anyway is
# encoded again whole at PNG_LEVEL_TIGHT (8x8 and larger; smaller boards have bigger squares).
MAX_PNG_BYTES, PNG_LEVEL_TIGHT = 20 * 1024, 6
# compressed bands kept (render/png.py): about 2 KB each for an 8x8 board, so about 8 MB; a
# game in play needs its 10 bands of the last picture, so 400 games moving at once still hit
BAND_CACHE = 4096
GIF_SQUARE = 48                   # largest square of replay GIFs, chosen by benchmarks/picture_sizes.py
GIF_COLOURS = 48                  # colours (at most 255) of replay GIFs, chosen by benchmarks/picture_sizes.py
GIF_SMALLER_SQUARES = (42, 36, 32, 28)   # squares a replay over its byte budget may be drawn on instead
GIF_FIRST_FRAME_BYTES = 16 * 1024        # a replay's budget: its first, whole frame ...
GIF_BYTES_PER_TURN = 84 * 1024 // 40     # ... and each turn's changes: a 40-ply replay within 100 KB


def gif_budget(frames: int) -> int:
    """The bytes a replay of `frames` positions should fit in (a 40-ply one: 100 KB), the text
    under its frames and its result's frame included."""
    return GIF_FIRST_FRAME_BYTES + GIF_BYTES_PER_TURN * max(0, frames - 1)


class Renderer:
    """Draws boards with one set of art and one theme; keeps its caches between calls.

    Safe to share between threads (asyncio.to_thread): caches only ever gain entries, and an
    entry computed twice is computed the same way.
    """

    def __init__(self, data_dir: Path | str | None = None, theme: Theme = THEME) -> None:
        self.assets = Assets.load(data_dir)
        self.theme = theme
        self._sprites: dict[tuple[str, int], Image.Image] = {}
        self._overlays: dict[tuple[str, int], Image.Image] = {}
        self._tiles: dict[tuple[int, int, Flags, str], Image.Image] = {}
        self._frames: dict[tuple[Layout, bool], Image.Image] = {}
        self._bands = _Recent(BAND_CACHE)
        self._headers: dict[tuple[Layout, bool], bytes] = {}
        self._wide_frames: dict[tuple[Layout, bool], Image.Image] = {}
        self._palette: Image.Image | None = None
        self._gif_palette: tuple[list[int], list[int]] | None = None
        self._fixed_count = 0
        self._lock = threading.Lock()

    # -- public ------------------------------------------------------------------------------
    def board_image(self, view: BoardView, *, orientation: str | None = None,
                    square: int | None = None) -> Image.Image:
        """The board as a palette ("P") image."""
        layout = Layout.for_board(view.files, view.ranks, square)
        flipped = _orientation(orientation, view.turn) == BLACK
        image = self._frame(layout, flipped).copy()
        for (file, rank), (flags, letter) in _squares(view).items():
            tile = self._tile(layout.square, (file + rank) % 2, flags, letter)
            image.paste(tile, layout.cell(file, rank, flipped))
        if has_extras(view):
            self._overlay_extras(image, view, layout, flipped)
        if view.hands or view.caption:
            image = self._with_state(image, view, layout, flipped)
        return image

    def _index(self, colour: tuple[int, int, int]) -> int:
        """The palette index of one of the fixed colours."""
        flat = self.palette().getpalette() or []
        for i in range(0, len(flat), 3):
            if tuple(flat[i:i + 3]) == tuple(colour):
                return i // 3
        return 0

    def _overlay_extras(self, image: Image.Image, view: BoardView, layout, flipped: bool) -> None:
        t, sq = self.theme, layout.square
        draw = ImageDraw.Draw(image)
        white, black, edge = self._index(t.white_disc), self._index(t.black_disc), self._index(t.disc_edge)
        for name, owner in (view.owners or {}).items():
            pos = parse_square(name, view.files, view.ranks)
            letter = view.pieces.get(name, "")
            if pos is None or not letter or (owner == WHITE) == letter.isupper():
                continue   # mark only men whose owner differs from their colour
            x, y = layout.cell(*pos, flipped)
            r = max(3, sq // 9)
            box = (x + sq - 2 * r - 2, y + 2, x + sq - 2, y + 2 * r + 2)
            draw.ellipse(box, fill=white if owner == WHITE else black, outline=edge)
        ring = self._index(t.mark_ring[:3])
        for start, end in view.arrows or ():
            a, b = _centre(start, view, layout, flipped), _centre(end, view, layout, flipped)
            if a is not None and b is not None and a != b:
                _arrow(draw, a, b, sq, ring)
        if view.split_file:
            x = layout.cell(view.split_file - (1 if flipped else 0), 0, flipped)[0]
            top = layout.margin
            draw.rectangle((x - 1, top, x + 1, top + layout.ranks * sq - 1), fill=self._index(t.frame))
        if drawn_by_parts(view):
            self._draw_parts(draw, view, layout, flipped)

    def _draw_parts(self, draw: ImageDraw.ImageDraw, view: BoardView, layout: Layout, flipped: bool) -> None:
        """Each part of the last turn as what it is, numbered in order when there are several."""
        sq, ink, white = layout.square, self._index(self.theme.part), self._index((255, 255, 255))
        font = self.assets.font(max(9, round(sq * 0.2)))
        for number, (names, kind) in enumerate(zip(view.parts, _part_kinds(view)), 1):
            found = [_centre(name, view, layout, flipped) for name in names]
            centres = [c for c in found if c is not None]
            if not centres or len(centres) < len(found):
                continue
            a, b = centres[0], centres[-1]
            if kind != "drop" and a != b:   # a drop's ring is drawn under the man, in its tile
                _arrow(draw, a, b, sq, ink, both=kind == "swap")
                if kind == "mirror":   # a bar across the shaft's middle (clear of the head): the mirror
                    length = math.dist(a, b)
                    ux, uy, half = (b[0] - a[0]) / length, (b[1] - a[1]) / length, sq * 0.3
                    mx, my = a[0] + ux * (length - sq / 2) / 2, a[1] + uy * (length - sq / 2) / 2
                    draw.line((mx - uy * half, my + ux * half, mx + uy * half, my - ux * half),
                              fill=ink, width=max(3, sq // 10))
            if len(view.parts) > 1:   # its number in a disc on the top-left corner of its first square,
                x, y = a[0] - sq / 2, a[1] - sq / 2   # where no man reaches (on any of the four squares)
                r = max(5, round(sq * 0.12))
                draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
                draw.text((x, y), str(number), font=font, fill=white, anchor="mm")

    def _with_state(self, image: Image.Image, view: BoardView, layout: Layout, flipped: bool) -> Image.Image:
        """The board with its pockets to the right and its caption, wrapped, below."""
        pocket = self._pocket_width(layout) if view.hands else 0
        lines = self.wrapped(view.caption, layout, image.width + pocket)
        canvas = self._text_band(image, lines, layout, pocket)
        if view.hands:
            self._draw_pockets(canvas, view, layout, flipped, image.width)
        return canvas

    def wrapped(self, text: str, layout: Layout, width: int) -> list[str]:
        """`text` broken into lines that fit a picture `width` px wide (inside its margins); a word
        longer than a line is broken too. Nothing is left out."""
        font = self.assets.font(layout.font_px)
        room = width - 2 * layout.margin
        if " ".join(text.split()) == text and font.getlength(text) <= room:
            return [text] if text else []   # one line (most are): measured once, not word by word
        lines: list[str] = []
        for word in text.split():
            line = f"{lines[-1]} {word}" if lines else word
            if lines and font.getlength(line) <= room:
                lines[-1] = line
                continue
            while len(word) > 1 and font.getlength(word) > room:
                cut = len(word) - 1
                while cut > 1 and font.getlength(word[:cut]) > room:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            lines.append(word)
        return lines

    def _text_band(self, image: Image.Image, lines: list[str], layout: Layout, extra_width: int = 0,
                   extra_height: int = 0) -> Image.Image:
        """`image` on a frame wider by `extra_width` (and taller by `extra_height`) with `lines` of
        text written below it."""
        if not lines and not extra_width and not extra_height:
            return image
        step = round(layout.font_px * 1.45)
        height = image.height + extra_height + (len(lines) * step + layout.margin // 2 if lines else 0)
        canvas = Image.new("P", (image.width + extra_width, height), self._index(self.theme.frame))
        canvas.putpalette(image.getpalette() or [])
        canvas.paste(image, (0, 0))
        draw, font, ink = ImageDraw.Draw(canvas), self.assets.font(layout.font_px), self._index(self.theme.coords)
        for i, line in enumerate(lines):
            draw.text((layout.margin, image.height + i * step), line, font=font, fill=ink, anchor="la")
        return canvas

    @staticmethod
    def _pocket_cell(layout: Layout) -> int:
        return max(12, round(layout.square * 0.8))

    def _pocket_width(self, layout: Layout) -> int:
        return self._pocket_cell(layout) + 2 * layout.font_px + layout.margin // 2

    def _draw_pockets(self, canvas: Image.Image, view: BoardView, layout: Layout, flipped: bool, left: int) -> None:
        """Each side's men in hand, one picture per kind with its count, beside its own half of the
        board (as lichess draws Crazyhouse pockets): the side at the top from the top down, the
        side at the bottom from the bottom up; whose they are ("First", "Second": the side that
        moves first, White's hand) written in the frame beside its end of the board."""
        draw, font = ImageDraw.Draw(canvas), self.assets.font(layout.font_px)
        ink = self._index(self.theme.coords)
        half = layout.ranks * layout.square // 2
        for side in (WHITE, BLACK):
            kinds = _counted(view.hands.get(side, ""))
            if not kinds:
                continue
            cell = min(self._pocket_cell(layout), (half - 2) // len(kinds))
            on_top = (side == BLACK) != flipped
            edge = layout.margin // 2 if on_top else layout.margin * 3 // 2 + 2 * half
            draw.text((left, edge), "First" if side == WHITE else "Second", font=font, fill=ink, anchor="lm")
            for i, (letter, count) in enumerate(kinds):
                y = layout.margin + i * (cell + 2) if on_top else layout.margin + 2 * half - (i + 1) * (cell + 2) + 2
                canvas.paste(self._pocket_man(letter, cell), (left, y))
                draw.text((left + cell + 3, y + cell / 2), str(count), font=font, fill=ink, anchor="lm")

    def _pocket_man(self, letter: str, px: int) -> Image.Image:
        """One man in hand: its picture on a light square."""
        key = (letter, -px)   # apart from board tiles (px > 0)
        man = self._overlays.get(key)
        if man is None:
            tile = Image.new("RGBA", (px, px), self.theme.light + (255,))
            tile.alpha_composite(self._sprite(letter, px))
            man = self._overlays[key] = self._to_palette(tile.convert("RGB"))
        return man

    def board_png(self, view: BoardView, *, orientation: str | None = None, square: int | None = None) -> bytes:
        """The board as PNG bytes. A board with nothing drawn over its squares (no owner discs,
        arrows, caption or men in hand) is put together from cached bands (render/png.py):
        only the ranks not seen before, usually those the last two moves touched, are compressed."""
        level = png_level(view.files, view.ranks)
        if has_extras(view) or view.caption or view.hands:
            return _encode(self.board_image(view, orientation=orientation, square=square), level)
        layout = Layout.for_board(view.files, view.ranks, square)
        flipped = _orientation(orientation, view.turn) == BLACK
        squares = _squares(view)
        sq, margin, width = layout.square, layout.margin, layout.size[0]
        frame = self._scanline_frame(layout, flipped)
        files = range(layout.files - 1, -1, -1) if flipped else range(layout.files)
        bands = [self._frame_band(layout, flipped, "top", 0, margin, level)]
        for row in range(layout.ranks):
            rank = row if flipped else layout.ranks - 1 - row
            drawn = tuple(squares.get((file, rank), EMPTY) for file in files)
            key = (layout, flipped, rank, drawn)
            band = self._bands.get(key)
            if band is None:
                top = margin + row * sq
                strip = frame.crop((0, top, width + 1, top + sq))
                for column, (flags, letter) in enumerate(drawn):
                    if flags != NO_FLAGS or letter:
                        file = files[column]
                        strip.paste(self._tile(sq, (file + rank) % 2, flags, letter), (1 + margin + column * sq, 0))
                band = png.compress_scanlines(strip.tobytes(), level)
                self._bands.put(key, band)
            bands.append(band)
        bottom = margin + layout.ranks * sq
        bands.append(self._frame_band(layout, flipped, "bottom", bottom, layout.size[1], level))
        data = png.assemble(self._png_header(layout, flipped), bands, level)
        if len(data) > MAX_PNG_BYTES and layout.files * layout.ranks >= 64:
            # about 1 position in 100 of random play: worth the slow, tight encode of the whole
            return _encode(self.board_image(view, orientation=orientation, square=square), PNG_LEVEL_TIGHT)
        return data

    def _frame_band(self, layout: Layout, flipped: bool, edge: str, top: int, bottom: int, level: int) -> png.Band:
        """The top or bottom frame of every board picture of this layout, compressed once."""
        key = (layout, flipped, edge)
        band = self._bands.get(key)
        if band is None:
            strip = self._scanline_frame(layout, flipped).crop((0, top, layout.size[0] + 1, bottom))
            band = png.compress_scanlines(strip.tobytes(), level)
            self._bands.put(key, band)
        return band

    def _scanline_frame(self, layout: Layout, flipped: bool) -> Image.Image:
        """The frame with one more column on the left, all 0: a PNG scanline's filter byte
        ("none"), so the rows of any crop of it are scanlines as they are."""
        key = (layout, flipped)
        wide = self._wide_frames.get(key)
        if wide is None:
            frame = self._frame(layout, flipped)
            wide = Image.new("P", (frame.width + 1, frame.height), 0)
            wide.putpalette(frame.getpalette() or [])
            wide.paste(frame, (1, 0))
            self._wide_frames[key] = wide
        return wide

    def _png_header(self, layout: Layout, flipped: bool) -> bytes:
        """Signature, IHDR and PLTE of every picture of this layout, taken from Pillow's own file."""
        key = (layout, flipped)
        header = self._headers.get(key)
        if header is None:
            header = self._headers[key] = png.header_of(_encode(self._frame(layout, flipped), 1))
        return header

    def game_gif(self, views, *, orientation: str | None = WHITE, frame_ms: int = 900,
                 square: int | None = None, title: str = "", labels: Sequence[str] = (), result: str = "") -> bytes:
        """Replay GIF; square None = the chat size capped at GIF_SQUARE px (a replay is watched,
        not studied, and each square fewer pixels keeps a 40-ply game near 100 KB). Written under
        every frame: `title` (the players), the frame's line of `labels` (one per view: its move);
        `result` adds a last frame, the final position held with the result under it."""
        views = list(views)
        if not views:
            raise ValueError("game_gif needs at least one position")
        if len({(v.files, v.ranks) for v in views}) != 1:
            raise ValueError("All positions of a GIF must have the same board size")
        if frame_ms <= 0:
            raise ValueError("frame_ms must be positive")
        if labels and len(labels) != len(views):
            raise ValueError("game_gif needs one label per position")
        texts = [[line for line in (title, label) if line] for label in (labels or [""] * len(views))]
        budget = gif_budget(len(views))   # counted before the result's frame: it shares the budget
        if result:
            views, texts = views + views[-1:], texts + [[line for line in (title, result) if line]]
        side = _orientation(orientation, views[0].turn)
        if square is not None:
            return self._gif(views, texts, side, frame_ms, square)
        # Games whose turns change many squares (swaps, two men a turn) come out bigger: such a
        # replay is drawn again on smaller squares until it fits its budget (or the smallest is reached).
        # A replay's bytes shrink a little faster than its squares' width (measured), so the square
        # predicted from the first drawing usually fits at the second.
        largest = min(GIF_SQUARE, Layout.for_board(views[0].files, views[0].ranks).square)
        data = self._gif(views, texts, side, frame_ms, largest)
        first = len(data)
        for size in (s for s in GIF_SMALLER_SQUARES if s < largest):
            if len(data) <= budget:
                break
            if first * size / largest > budget and size != GIF_SMALLER_SQUARES[-1]:
                continue   # predicted over budget: skip to a smaller square
            data = self._gif(views, texts, side, frame_ms, size)
        return data

    def _gif(self, views: list[BoardView], texts: list[list[str]], side: str, frame_ms: int, square: int) -> bytes:
        layout = Layout.for_board(views[0].files, views[0].ranks, square)
        frames = []
        for view, lines in zip(views, texts):
            image = self.board_image(view, orientation=side, square=square)
            frames.append(self._text_band(image, [w for line in lines for w in self.wrapped(line, layout, image.width)],
                                          layout))
        size = (max(f.width for f in frames), max(f.height for f in frames))   # captions may wrap differently
        frames = [f if f.size == size else self._text_band(f, [], layout, size[0] - f.width, size[1] - f.height)
                  for f in frames]
        durations = [frame_ms] * (len(frames) - 1) + [max(3 * frame_ms, 2500)]
        buf = io.BytesIO()
        # As lila-gif does: one shared palette (the board palette cut to GIF_COLOURS, plus one
        # entry for "unchanged"), and each frame after the first only what changed, the rest
        # transparent; Pillow then writes each frame as the box that changed.
        lut, palette = self.gif_palette()
        clear = len(palette) // 3
        palette = palette + [255, 0, 255]
        frames = [frame.point(lut) for frame in frames]
        for frame in frames:
            frame.putpalette(palette)
        frames = frames[:1] + [_changes(before, after, clear) for before, after in zip(frames, frames[1:])]
        options = {"save_all": True, "duration": durations, "loop": 0, "disposal": 1, "optimize": False,
                   "transparency": clear}
        frames[0].save(buf, "GIF", append_images=frames[1:], **options)
        return buf.getvalue()

    # -- cached pieces of a picture -----------------------------------------------------------
    def palette(self) -> Image.Image:
        """The shared palette, chosen once from every standard tile at PALETTE_SQUARE px."""
        if self._palette is None:
            with self._lock:
                if self._palette is None:
                    self._palette = self._build_palette()
        return self._palette

    def _build_palette(self) -> Image.Image:
        t, px = self.theme, PALETTE_SQUARE
        kinds = [(last, mark, check, False) for last in (False, True) for mark in (False, True) for check in (False, True)]
        letters = [""] + list(self.assets.pieces)
        swatch = Image.new("RGB", (px * len(letters), px * 2 * len(kinds) + px))
        for i, letter in enumerate(letters):
            for j, flags in enumerate(kinds):
                for parity in (0, 1):
                    swatch.paste(self._tile_rgb(px, parity, flags, letter), (i * px, (2 * j + parity) * px))
        # coordinates on the frame, so their anti-aliasing gets colours too
        strip = Image.new("RGB", (swatch.width, px), t.frame)
        draw = ImageDraw.Draw(strip)
        draw.text((4, 4), "abcdefgh 12345678", font=self.assets.font(20), fill=t.coords)
        swatch.paste(strip, (0, swatch.height - px))
        fixed = [t.light, t.dark, t.frame, t.coords, (0, 0, 0), (255, 255, 255),
                 t.white_disc, t.black_disc, t.check_inner]
        fixed += [_blend(base, t.last_move) for base in (t.light, t.dark)]
        fixed += [_blend(base, t.mark) for base in (t.light, t.dark)]
        fixed += [_blend(_blend(base, t.last_move), t.mark) for base in (t.light, t.dark)]
        fixed += [t.mark_ring[:3], t.part]
        fixed = list(dict.fromkeys(fixed))
        self._fixed_count = len(fixed)   # the palette's first entries, kept exact in replay GIFs
        chosen = swatch.quantize(256 - len(fixed), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        flat = (chosen.getpalette() or [])[: 3 * (256 - len(fixed))]
        # Pillow maps colours to a palette through a 6-bit-per-channel cache, so a near twin of a
        # fixed colour could steal its pixels; keep the chosen colours clear of the fixed ones.
        found = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]
        colours = fixed + [c for c in found if min(_distance(c, f) for f in fixed) > 11]
        colours = list(dict.fromkeys(colours))
        colours += [colours[-1]] * (256 - len(colours))
        pal = Image.new("P", (1, 1))
        pal.putpalette([c for rgb in colours for c in rgb])
        return pal

    def gif_palette(self) -> tuple[list[int], list[int]]:
        """(index map, palette): the shared palette cut to GIF_COLOURS colours for replays. The
        fixed colours (squares, highlights, discs, text) keep their own entries; the rest is a
        median cut of the others; every index maps to its nearest kept colour."""
        if self._gif_palette is None:
            flat = (self.palette().getpalette() or [])[:768]
            colours = [tuple(flat[i:i + 3]) for i in range(0, len(flat) - 2, 3)]
            fixed = list(dict.fromkeys(colours[:self._fixed_count]))
            strip = Image.new("RGB", (len(colours), 1))
            strip.putdata(colours)   # type: ignore[arg-type]
            cut = strip.quantize(GIF_COLOURS - len(fixed), method=Image.Quantize.MEDIANCUT,
                                 dither=Image.Dither.NONE).getpalette() or []
            kept = fixed + [tuple(cut[i:i + 3]) for i in range(0, 3 * (GIF_COLOURS - len(fixed)), 3)]
            lut = [min(range(len(kept)), key=lambda k: _distance(c, kept[k])) for c in colours]  # type: ignore[arg-type]
            lut += [0] * (256 - len(lut))
            self._gif_palette = (lut, [v for rgb in kept for v in rgb])
        return self._gif_palette

    def _to_palette(self, rgb: Image.Image) -> Image.Image:
        return rgb.quantize(palette=self.palette(), dither=Image.Dither.NONE)

    def _frame(self, layout: Layout, flipped: bool) -> Image.Image:
        key = (layout, flipped)
        frame = self._frames.get(key)
        if frame is None:
            frame = self._frames[key] = self._to_palette(self._frame_rgb(layout, flipped))
        return frame

    def _frame_rgb(self, layout: Layout, flipped: bool) -> Image.Image:
        t, sq, m = self.theme, layout.square, layout.margin
        image = Image.new("RGB", layout.size, t.frame)
        draw = ImageDraw.Draw(image)
        for file in range(layout.files):
            for rank in range(layout.ranks):
                x, y = layout.cell(file, rank, flipped)
                draw.rectangle((x, y, x + sq - 1, y + sq - 1), fill=t.dark if (file + rank) % 2 == 0 else t.light)
        font = self.assets.font(layout.font_px)
        bottom: float = m + layout.ranks * sq + m / 2
        for file in range(layout.files):
            cx: float = layout.cell(file, 0, flipped)[0] + sq / 2
            draw.text((cx, bottom), chr(ord("a") + file), font=font, fill=t.coords, anchor="mm")
        for rank in range(layout.ranks):
            cy: float = layout.cell(0, rank, flipped)[1] + sq / 2
            draw.text((m / 2, cy), str(rank + 1), font=font, fill=t.coords, anchor="mm")
        return image

    def _tile(self, px: int, parity: int, flags: Flags, letter: str) -> Image.Image:
        key = (px, parity, flags, letter)
        tile = self._tiles.get(key)
        if tile is None:
            tile = self._tiles[key] = self._to_palette(self._tile_rgb(px, parity, flags, letter))
        return tile

    def _tile_rgb(self, px: int, parity: int, flags: Flags, letter: str) -> Image.Image:
        """One square, RGB. parity 0 is a dark square (a1), 1 a light one."""
        t = self.theme
        last, mark, check, drop = flags
        tile = Image.new("RGBA", (px, px), (t.dark if parity == 0 else t.light) + (255,))
        if last:
            tile.alpha_composite(Image.new("RGBA", (px, px), t.last_move))
        if mark and not last:   # a goal square that was just played on keeps the move's wash inside its ring
            tile.alpha_composite(Image.new("RGBA", (px, px), t.mark))
        if mark:
            width = max(2, round(px / 22))
            inset = max(1, round(px / 30))
            ImageDraw.Draw(tile).rectangle((inset, inset, px - 1 - inset, px - 1 - inset),
                                           outline=t.mark_ring, width=width)
        if check:
            tile.alpha_composite(self._overlay("check", px))
        if drop:   # a ring under the man put there, wide enough to show round him
            r = px * 0.45
            ImageDraw.Draw(tile).ellipse((px / 2 - r, px / 2 - r, px / 2 + r, px / 2 + r), outline=t.part,
                                         width=max(2, round(px / 13)))
        if letter:
            tile.alpha_composite(self._sprite(letter, px))
        return tile.convert("RGB")

    def _overlay(self, name: str, px: int) -> Image.Image:
        key = (name, px)
        if key not in self._overlays:
            self._overlays[key] = _check_glow(px, self.theme)
        return self._overlays[key]

    def _sprite(self, letter: str, px: int) -> Image.Image:
        key = (letter, px)
        sprite = self._sprites.get(key)
        if sprite is None:
            art = self.assets.pieces.get(letter)
            if art is not None:
                sprite = art.resize((px, px), Image.Resampling.LANCZOS)
            else:
                sprite = self._disc(letter, px)
            self._sprites[key] = sprite
        return sprite

    def _disc(self, letter: str, px: int) -> Image.Image:
        """A man we have no art for: a disc in its side's colour, labelled with its letter."""
        t, scale = self.theme, 4
        big = px * scale
        white = not letter.islower()
        fill, ink = (t.white_disc, t.black_disc) if white else (t.black_disc, t.white_disc)
        image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        pad = round(big * 0.15)
        draw.ellipse((pad, pad, big - pad, big - pad), fill=fill + (255,), outline=t.disc_edge + (255,),
                     width=max(scale, round(big * 0.035)))
        label = letter.upper()[:2] or "?"
        size = round(big * (0.42 if len(label) == 1 else 0.32))
        draw.text((big / 2, big / 2), label, font=self.assets.font(size), fill=ink + (255,), anchor="mm")
        return image.resize((px, px), Image.Resampling.LANCZOS)


def _encode(image: Image.Image, level: int) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=level)
    return buf.getvalue()


def png_level(files: int, ranks: int) -> int:
    return PNG_LEVEL if files * ranks >= 64 else PNG_LEVEL_SMALL_BOARD


class _Recent:
    """A dict that keeps its `size` most recently used entries; safe to share between threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple, png.Band] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> png.Band | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple, value: png.Band) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def _changes(before: Image.Image, after: Image.Image, clear: int) -> Image.Image:
    """`after` where it differs from `before` (same palette), index `clear` elsewhere."""
    unchanged = ImageChops.subtract_modulo(after, before).point([255] + [0] * 255, "1")
    frame = after.copy()
    frame.paste(clear, mask=unchanged)
    return frame


def _orientation(orientation: str | None, turn: str) -> str:
    side = turn if orientation is None else orientation
    if side not in (WHITE, BLACK):
        raise ValueError(f"orientation must be 'white', 'black' or None, not {orientation!r}")
    return side


def drawn_by_parts(view: BoardView) -> bool:
    """Whether the last turn is drawn part by part (several parts, or one that is not a step)
    rather than tinted like a chess move."""
    return len(view.parts) > 1 or any(kind != "step" for kind in view.part_kinds)


def _part_kinds(view: BoardView) -> tuple[str, ...]:
    """What each of `view.parts` is, a step where the view does not say."""
    return tuple(view.part_kinds) + ("step",) * (len(view.parts) - len(view.part_kinds))


def has_extras(view: BoardView) -> bool:
    """Whether anything is drawn over the squares (owner discs, arrows, a half-board line, parts)."""
    return bool(view.owners or view.arrows or view.split_file or drawn_by_parts(view))


def _counted(letters: str) -> list[tuple[str, int]]:
    """"RNPP" -> [("R", 1), ("N", 1), ("P", 2)], in the order of the hand."""
    counts: dict[str, int] = {}
    for letter in letters:
        counts[letter] = counts.get(letter, 0) + 1
    return list(counts.items())


def _centre(name: str, view: BoardView, layout: Layout, flipped: bool) -> tuple[float, float] | None:
    pos = parse_square(name, view.files, view.ranks)
    if pos is None:
        return None
    x, y = layout.cell(*pos, flipped)
    return x + layout.square / 2, y + layout.square / 2


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], sq: int, fill: int,
           both: bool = False) -> None:
    """An arrow from centre `a` to near centre `b`; `both`: a head at each end."""
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    head = sq * 0.35
    ends = []
    for (px, py), sign in ((b, 1), (a, -1)) if both else ((b, 1),):
        tip = (px - sign * ux * sq * 0.15, py - sign * uy * sq * 0.15)
        base = (tip[0] - sign * ux * head, tip[1] - sign * uy * head)
        draw.polygon([tip, (base[0] - uy * head / 2, base[1] + ux * head / 2),
                      (base[0] + uy * head / 2, base[1] - ux * head / 2)], fill=fill)
        ends.append(base)
    start = ends[1] if both else a
    draw.line((start[0], start[1], ends[0][0], ends[0][1]), fill=fill, width=max(3, sq // 10))


def _squares(view: BoardView) -> dict[tuple[int, int], tuple[Flags, str]]:
    """Every square that differs from an empty one: its highlights and its man ('' for none).

    Squares off the board are ignored: a view is drawn as well as it can be, never refused."""
    files, ranks = view.files, view.ranks
    out: dict[tuple[int, int], tuple[Flags, str]] = {}

    def at(name: str) -> tuple[int, int] | None:
        return parse_square(name, files, ranks)

    for name, letter in view.pieces.items():
        pos = at(name)
        if pos is not None and letter:
            out[pos] = (NO_FLAGS, str(letter))
    by_parts = drawn_by_parts(view)
    last = () if by_parts else tuple(view.last_move) + tuple(name for part in view.parts for name in part)
    drops = [part[0] for part, kind in zip(view.parts, _part_kinds(view))
             if by_parts and part and (kind == "drop" or len(set(part)) == 1)]
    for index, names in enumerate((last, view.marks, view.checks, drops)):
        for name in names:
            pos = at(name)
            if pos is None:
                continue
            flags, letter = out.get(pos, (NO_FLAGS, ""))
            flags = (flags[0] or index == 0, flags[1] or index == 1, flags[2] or index == 2, flags[3] or index == 3)
            out[pos] = (flags, letter)
    return out


def _blend(base: tuple[int, int, int], over: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """`over` composited on `base` exactly as Pillow does it for a tile."""
    pixel = Image.new("RGBA", (1, 1), base + (255,))
    pixel.alpha_composite(Image.new("RGBA", (1, 1), over))
    r, g, b, _ = pixel.getpixel((0, 0))  # type: ignore[misc]
    return r, g, b


def _distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return math.dist(a, b)


def _check_glow(px: int, theme: Theme) -> Image.Image:
    """Red radial glow under a king in check (lichess's gradient: solid red centre, fading out)."""
    stops = [(0.0, theme.check_inner, 1.0), (0.25, (231, 0, 0), 1.0),
             (0.89, (169, 0, 0), 0.0), (1.0, theme.check_outer, 0.0)]
    reach = px / 2 * math.sqrt(2)
    data = []
    for y in range(px):
        for x in range(px):
            d = math.hypot(x + 0.5 - px / 2, y + 0.5 - px / 2) / reach
            for (t0, c0, a0), (t1, c1, a1) in zip(stops, stops[1:]):
                if d <= t1:
                    k = (d - t0) / (t1 - t0)
                    break
            else:
                (t0, c0, a0), (t1, c1, a1), k = stops[-2], stops[-1], 1.0
            rgb = tuple(round(u + (v - u) * k) for u, v in zip(c0, c1))
            data.append(rgb + (round(255 * (a0 + (a1 - a0) * k)),))
    image = Image.new("RGBA", (px, px))
    image.putdata(data)
    return image
