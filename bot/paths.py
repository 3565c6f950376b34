"""Where the shipped data (migrations, rules cards) lives: the installed package `kibitz_data`
(the repo's data/ folder, mapped by pyproject), else the checkout's data/ folder."""
from __future__ import annotations

from pathlib import Path


def data_dir() -> Path:
    try:
        from kibitz_data import DATA_DIR
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "data"
    return DATA_DIR
