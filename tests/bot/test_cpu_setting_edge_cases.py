"""KIBITZ_CPU at the edges (bot/process.py): digit signs that are not a CPU number are refused in
one sentence, as any other wrong value is; a machine that allows one CPU, a platform without
sched_setaffinity, or one that refuses it, is left as it is."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot import process
from bot.config import ConfigError, load

NO_DOTENV = Path("/nonexistent")


@pytest.mark.parametrize("text", ["²", "1²", "½"])
def test_a_kibitz_cpu_of_digit_signs_that_are_no_number_is_refused_in_one_sentence(text):
    with pytest.raises(ConfigError, match="KIBITZ_CPU must be auto, all or a CPU number"):
        load({"KIBITZ_CPU": text}, dotenv=NO_DOTENV)


@pytest.mark.parametrize("setting", ["auto", 0])
def test_a_process_allowed_one_cpu_is_left_as_it_is(monkeypatch, setting):
    placed: list[set[int]] = []
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cpus: placed.append(cpus), raising=False)
    assert process.keep_to_one_cpu(setting, shard_ids=(3,)) is None
    assert placed == []


def test_without_sched_setaffinity_nothing_changes(monkeypatch):
    monkeypatch.delattr(os, "sched_setaffinity", raising=False)
    assert process.keep_to_one_cpu("auto") is None
    assert process.keep_to_one_cpu(7) is None


def test_a_platform_that_refuses_to_place_the_process_lets_the_bot_start_where_it_is(monkeypatch):
    def refused(pid, cpus):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "sched_setaffinity", refused, raising=False)
    assert process.keep_to_one_cpu("auto") is None
