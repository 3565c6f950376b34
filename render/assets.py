"""The art render needs, read once from a data folder: piece sprites and the coordinate font."""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageFont

def _shipped_data() -> Path:
    """The art shipped with Kibitz: the installed package kibitz_data, else the checkout's data/."""
    try:
        from kibitz_data import DATA_DIR
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[1] / "data"
    return DATA_DIR


DEFAULT_DATA = _shipped_data()

PIECE_LETTERS = "KQRBNP"
FONT_FILE = "fonts/DejaVuSans-Bold.ttf"


def piece_file(letter: str) -> str:
    """"K" -> "pieces/wK.png", "k" -> "pieces/bK.png"."""
    return f"pieces/{'w' if letter.isupper() else 'b'}{letter.upper()}.png"


def required_files() -> list[str]:
    """Every file under the data folder that render needs, relative to it."""
    return [piece_file(c) for c in PIECE_LETTERS + PIECE_LETTERS.lower()] + [FONT_FILE]


@dataclass
class Assets:
    """Piece sprites (RGBA, full art size) by letter, and the font file's bytes."""

    pieces: dict[str, Image.Image]
    font_bytes: bytes
    _fonts: dict[int, ImageFont.FreeTypeFont] = field(default_factory=dict, repr=False)

    @staticmethod
    def load(data_dir: Path | str | None = None) -> "Assets":
        """Read every sprite and the font; raises FileNotFoundError/OSError listing all problems."""
        root = Path(data_dir) if data_dir is not None else DEFAULT_DATA
        problems = check(root)
        if problems:
            raise FileNotFoundError("Render art missing or broken in " + str(root) + ": " + "; ".join(problems))
        pieces = {}
        for letter in PIECE_LETTERS + PIECE_LETTERS.lower():
            with Image.open(root / piece_file(letter)) as im:
                pieces[letter] = im.convert("RGBA")
        return Assets(pieces, (root / FONT_FILE).read_bytes())

    def font(self, px: int) -> ImageFont.FreeTypeFont:
        if px not in self._fonts:
            self._fonts[px] = ImageFont.truetype(io.BytesIO(self.font_bytes), px)
        return self._fonts[px]


def check(root: Path | str | None = None) -> list[str]:
    """Every missing or unreadable art file under `root`, as readable problem lines (empty if fine)."""
    root = Path(root) if root is not None else DEFAULT_DATA
    problems = []
    for rel in required_files():
        path = root / rel
        if not path.is_file():
            problems.append(f"{rel}: missing")
            continue
        try:
            if rel.endswith(".png"):
                with Image.open(path) as im:
                    im.load()
                    if im.mode not in ("RGBA", "LA", "P") or im.width < 32 or im.width != im.height:
                        problems.append(f"{rel}: expected a square image with alpha, got {im.mode} {im.size}")
                    elif im.convert("RGBA").getchannel("A").getbbox() is None:
                        problems.append(f"{rel}: fully transparent")
            else:
                ImageFont.truetype(str(path), 12).getbbox("a8")
        except Exception as exc:  # noqa: BLE001 - we report every broken file, whatever the cause
            problems.append(f"{rel}: cannot be read ({exc.__class__.__name__}: {exc})")
    return problems
