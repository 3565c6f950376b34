"""The wheel is the whole product: built, installed in a fresh virtualenv with nothing else of the
project, and played from a folder that has no checkout in it (migrations, rules cards and art come
along)."""
import ast
import importlib.metadata
import os
import re
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GAME = """/variants
/rules zoo
/challenge @bob standard colour:white
/as bob
/accept
/as you
/move e4
/as bob
/move e5
/board
/quit
"""


def test_the_wheel_installs_alone_and_plays_a_console_game_from_any_folder(tmp_path):
    # built from a copy: a build writes build/ and *.egg-info beside the sources, and the checkout's
    # own build/ may hold files deleted since (tests/conftest.py: nothing is written in the checkout);
    # tools' caches stay out (`make test` runs mypy beside the tests: its cache changes as it is copied)
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "out",
        ".mypy_cache", ".ruff_cache"))
    wheels = tmp_path / "wheels"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps", "-w", str(wheels),
                            str(source)], check=True, capture_output=True, text=True, timeout=300)
    # a data folder setuptools does not know as a package draws a warning at every install (`make run`)
    assert "would be ignored" not in build.stdout + build.stderr, "a data folder is missing from pyproject's packages"
    (wheel,) = wheels.glob("kibitz-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    data = [path.relative_to(source / "data") for path in (source / "data").rglob("*")
            if path.is_file() and "__pycache__" not in path.parts]
    assert sorted(str(p) for p in data if f"kibitz_data/{p}" not in shipped) == [], "data files left out of the wheel"
    assert undeclared(source, wheel) == [], "imported but not among the wheel's dependencies"
    env_dir = tmp_path / "venv"
    venv.create(env_dir)   # without a pip of its own (installing one takes seconds): ours installs into it
    python = env_dir / "bin" / "python"
    # the dependencies are those this interpreter has (installing them again takes most of the time):
    # its site-packages go after the venv's own, as bare paths, so no .pth file of theirs runs (an
    # editable install of the checkout stays out); the project's packages come from the wheel alone
    (own,) = subprocess.run([str(python), "-c", "import site; print(*site.getsitepackages())"],
                            capture_output=True, text=True, check=True).stdout.split()
    Path(own, "dependencies.pth").write_text("".join(f"{path}\n" for path in site.getsitepackages()))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)],
                   check=True, capture_output=True, timeout=600)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DISCORD_TOKEN", "KIBITZ_DB")}
    result = subprocess.run([str(python), "-m", "bot", "console"], input=GAME, capture_output=True, text=True,
                            cwd=elsewhere, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Zoo Chess" in out and "no such table" not in out + result.stderr
    assert "1… bob plays e5." in out
    assert "Traceback" not in result.stderr
    assert (elsewhere / "kibitz.sqlite3").is_file()
    assert list((elsewhere / "out").glob("kibitz-*.png")), "board images are drawn from the shipped art"
    installed = subprocess.run([str(python), "-c", "import bot, engine, rules, render, kibitz_data; print(bot.__file__, "
                                "engine.__file__, rules.__file__, render.__file__, kibitz_data.DATA_DIR)"],
                               capture_output=True, text=True, cwd=elsewhere, env=env, check=True).stdout
    assert str(ROOT) not in installed and str(source) not in installed   # nothing is read from the checkout
    assert all(path.startswith(own) for path in installed.split()), installed   # every package from the wheel


def undeclared(source: Path, wheel: Path) -> list[str]:
    """The distributions whose modules the shipped packages import (anywhere, inside functions too)
    that the wheel's metadata does not name as a dependency (an optional one counts): the venv the
    test plays in borrows this interpreter's dependencies, so only this check sees one left out."""
    with zipfile.ZipFile(wheel) as shipped:
        metadata = next(shipped.read(n).decode() for n in shipped.namelist() if n.endswith(".dist-info/METADATA"))
    declared = {normal(re.split(r"[\s;<>=!~\[(]", line.split(":", 1)[1].strip())[0])
                for line in metadata.splitlines() if line.startswith("Requires-Dist:")}
    ours = {"bot", "engine", "rules", "render", "kibitz_data"}
    imported = {alias.name.split(".")[0] if isinstance(node, ast.Import) else (node.module or "").split(".")[0]
                for package in ("bot", "engine", "rules", "render") for path in (source / package).rglob("*.py")
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0)
                for alias in node.names}
    providers = importlib.metadata.packages_distributions()
    return sorted(name for name in imported - ours - set(sys.stdlib_module_names) - {""}
                  if not {normal(d) for d in providers.get(name, [name])} & declared)


def normal(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def test_the_dependency_check_tells_a_module_no_dependency_brings(tmp_path):
    source = tmp_path / "source"
    for package in ("bot", "engine", "rules", "render"):
        (source / package).mkdir(parents=True)
    (source / "bot" / "a.py").write_text("import chess\nimport json\nfrom . import b\n\ndef f():\n    import asyncpg\n")
    (source / "rules" / "b.py").write_text("from PIL import Image\nimport discord.ext.commands\n")
    wheel = tmp_path / "kibitz-0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as made:
        made.writestr("kibitz-0.dist-info/METADATA", "Name: kibitz\nRequires-Dist: chess>=1.10\n"
                      "Requires-Dist: Pillow>=10\nRequires-Dist: asyncpg>=0.29; extra == \"postgres\"\n")
    assert undeclared(source, wheel) == ["discord"]
