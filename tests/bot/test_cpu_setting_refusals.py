"""KIBITZ_CPU written with digits that are not a CPU number is refused in one sentence, as any
other wrong value is (bot/process.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load

NO_DOTENV = Path("/nonexistent")


@pytest.mark.parametrize("text", ["²", "1²", "½"])
def test_a_kibitz_cpu_of_digit_signs_that_are_no_number_is_refused_in_one_sentence(text):
    with pytest.raises(ConfigError, match="KIBITZ_CPU must be auto, all or a CPU number"):
        load({"KIBITZ_CPU": text}, dotenv=NO_DOTENV)
