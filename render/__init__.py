"""Kibitz board pictures: a BoardView in, PNG/GIF bytes or alt text out. Pure: Pillow only.

    import render
    render.board_png(view)                         # PNG bytes; orientation None = side to move
    render.board_png(view, orientation="black")
    render.game_gif([view1, view2, ...])           # animated GIF, last frame held longer
    render.alt_text(view, "Standard chess")        # words for screen readers

The art (data/pieces/*.png, data/fonts/*.ttf) is read once, on first use, from the repo's
data/ folder; `Renderer(data_dir)` draws with art from another folder. Rendering is CPU-bound
and blocking: call it with `asyncio.to_thread`.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence

from rules.core import BoardView, describe_view

from .assets import DEFAULT_DATA, check as check_assets, required_files
from .board import Renderer
from .theme import THEME, Layout, Theme

_default: Renderer | None = None
_default_lock = threading.Lock()


def default_renderer() -> Renderer:
    """The shared renderer using the repo's data/ folder (created on first use)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = Renderer(DEFAULT_DATA)
    return _default


def board_png(view: BoardView, *, orientation: str | None = None, square: int | None = None) -> bytes:
    """The position as PNG bytes.

    orientation: "white" (a1 bottom left) or "black" (a1 top right); None = view.turn's side.
    square: square size in pixels; None picks it from the board size (8x8: 60 px, 5x5: 88 px).
    """
    return default_renderer().board_png(view, orientation=orientation, square=square)


def game_gif(views, *, orientation: str | None = "white", frame_ms: int = 900, title: str = "",
             labels: Sequence[str] = (), result: str = "") -> bytes:
    """An animated GIF of positions in order, one frame each; the last is held longer.

    All views must share one board size. orientation None = the first view's side to move.
    Under every frame: `title` (e.g. the players) and its line of `labels` (one per view, e.g. the
    move that led to it); `result` adds a last frame with the final position and the result."""
    return default_renderer().game_gif(views, orientation=orientation, frame_ms=frame_ms, title=title,
                                       labels=labels, result=result)


def alt_text(view: BoardView, title: str = "") -> str:
    """A short description of the position for alt text (the men of each side, highlights)."""
    return describe_view(view, title)


def layout(files: int, ranks: int, square: int | None = None) -> Layout:
    """Pixel geometry of a board image: .size, .square, .margin, .box("e4", orientation)."""
    return Layout.for_board(files, ranks, square)


__all__ = ["board_png", "game_gif", "alt_text", "layout", "Renderer", "Layout", "Theme", "THEME",
           "check_assets", "required_files", "default_renderer"]
