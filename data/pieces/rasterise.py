"""Dev-time tool: rasterise python-chess's cburnett SVG pieces into the PNGs shipped here.

Run once by hand when the art changes; the bot never runs it (at run time render/ only loads
the PNGs with Pillow). Needs `rsvg-convert` (Debian: `apt-get install librsvg2-bin`):

    .venv/bin/python data/pieces/rasterise.py [SIZE]

Writes wK.png ... bP.png (SIZE x SIZE, RGBA, default 128) beside this file.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import chess.svg

HERE = Path(__file__).resolve().parent


def main(size: int = 128) -> None:
    for letter, body in chess.svg.PIECES.items():
        name = ("w" if letter.isupper() else "b") + letter.upper()
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
               f'version="1.1" viewBox="0 0 45 45" width="{size}" height="{size}">{body}</svg>')
        out = HERE / f"{name}.png"
        subprocess.run(["rsvg-convert", "-w", str(size), "-h", str(size), "-f", "png", "-o", str(out)],
                       input=svg.encode(), check=True)
        print(out.name)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 128)
