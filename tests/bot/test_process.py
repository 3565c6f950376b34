"""How the bot's process runs: kept to one CPU unless KIBITZ_CPU says otherwise, and with a
garbage collector that leaves start-up objects alone (bot/process.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load
from bot.process import CpuSettingError, choose, parse, shard_cpus

ROOT = Path(__file__).resolve().parents[2]
NO_DOTENV = Path("/nonexistent")


@pytest.mark.parametrize("text, setting", [("", "auto"), ("auto", "auto"), (" ALL ", "all"), ("3", 3)])
def test_kibitz_cpu_reads_auto_all_or_a_number(text, setting):
    assert parse(text) == setting
    assert load({"KIBITZ_CPU": text}, dotenv=NO_DOTENV).cpu == setting


@pytest.mark.parametrize("text", ["two", "-1", "0,1"])
def test_a_kibitz_cpu_that_is_not_a_cpu_is_refused_in_one_sentence(text):
    with pytest.raises(ConfigError, match="KIBITZ_CPU must be auto, all or a CPU number"):
        load({"KIBITZ_CPU": text}, dotenv=NO_DOTENV)


def test_auto_keeps_to_the_cpu_the_process_is_on():
    assert choose("auto", {0, 1, 2, 3}, current=2) == 2
    assert choose("auto", {0, 1, 2, 3}, current=None) == 0   # unknown: the first allowed
    assert choose("auto", {4, 5}, current=0) == 4             # not an allowed one: the first allowed


def test_auto_spreads_shard_processes_over_the_cpus():
    cpus = {0, 1, 2, 3}
    assert [choose("auto", cpus, current=0, shard_ids=(shard,)) for shard in range(6)] == [0, 1, 2, 3, 0, 1]
    # 4 shards in 2 processes, as the README's example: one CPU each
    assert [choose("auto", {0, 1}, current=0, shard_ids=ids) for ids in [(0, 1), (2, 3)]] == [0, 1]
    assert [choose("auto", cpus, current=3, shard_ids=ids) for ids in [(0, 1, 2), (3, 4, 5), (6, 7, 8)]] == [0, 1, 2]
    assert choose("auto", {2, 6}, current=2, shard_ids=(1,)) == 6


def test_the_cpus_of_every_shard_process_on_the_host_are_known():
    assert shard_cpus({0, 1, 2, 3}, (2, 3), 4) == {0, 1}         # two processes of two shards
    assert shard_cpus({0, 1, 2, 3}, (0,), 4) == {0, 1, 2, 3}     # four processes of one: every CPU
    assert shard_cpus({4, 5, 6, 7, 8}, (0, 1, 2), 8) == {4, 5, 6}   # runs of three: 0-2, 3-5, 6-7
    assert shard_cpus({0, 1, 2, 3}, None, None) == set() and shard_cpus({0}, (0,), 2) == set()


def test_all_and_a_single_allowed_cpu_leave_the_placement_alone():
    assert choose("all", {0, 1}, current=0) is None
    assert choose("auto", {3}, current=3) is None
    assert choose(3, {3}, current=3) is None


def test_a_cpu_the_process_may_not_use_is_refused():
    assert choose(1, {0, 1}, current=0) == 1
    with pytest.raises(CpuSettingError, match="KIBITZ_CPU=5 is not among the CPUs this process may use"):
        choose(5, {0, 1}, current=0)


def _run(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs a process allowed on two CPUs or more")
def test_the_process_and_the_threads_it_starts_keep_to_the_one_cpu():
    out = _run("import os, threading\n"
               "from bot.process import keep_to_one_cpu\n"
               "cpu = keep_to_one_cpu('auto')\n"
               "seen = []\n"
               "t = threading.Thread(target=lambda: seen.append(sorted(os.sched_getaffinity(0)))); t.start(); t.join()\n"
               "print(cpu, sorted(os.sched_getaffinity(0)), seen[0])")
    cpu, rest = out.split(" ", 1)
    assert rest == f"[{cpu}] [{cpu}]"
    allowed = sorted(os.sched_getaffinity(0))
    assert _run("import os\nfrom bot.process import keep_to_one_cpu\n"
                "print(keep_to_one_cpu('all'), sorted(os.sched_getaffinity(0)))") == f"None {allowed}"


def test_after_start_up_the_collector_leaves_the_old_objects_alone_and_runs_less_often():
    out = _run("import gc\nfrom bot.process import GC_THRESHOLD, collect_garbage_less\n"
               "before = gc.get_threshold()[0]\ncollect_garbage_less()\n"
               "print(before, gc.get_threshold()[0] == GC_THRESHOLD, gc.get_freeze_count() > 1000)")
    assert out == "700 True True"


def test_the_bot_refuses_a_bad_kibitz_cpu_before_it_connects(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIBITZ_", "DISCORD_"))}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**env, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "token", "KIBITZ_CPU": "seven",
                               "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"})
    assert done.returncode == 2
    assert "KIBITZ_CPU must be auto, all or a CPU number (not 'seven')." in done.stderr
