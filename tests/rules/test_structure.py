"""How rules/ is put together: imports point down (no cycle, imports inside functions counted), no
variant imports another, everything directly in rules/variants/ is a variant, the wheel lists every package."""
import ast
import importlib
import pkgutil
import re
import tomllib
from pathlib import Path

import pytest

import rules.variants

ROOT = Path(__file__).resolve().parents[2]


def module_names() -> dict[str, Path]:
    """rules' modules by dotted name (a package by its own name) -> file."""
    found = {}
    for path in sorted((ROOT / "rules").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the rules modules it imports anywhere in its text (inside functions too). `from p
    import x` counts p.x when that is a module, else p itself."""
    modules = module_names()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    base = f"{up}.{base}" if base else up
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (its modules in order), or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for target in sorted(graph[name]):
            found = visit(target, path + [name])
            if found:
                return found
        done.add(name)
        return None

    return next((c for c in (visit(name, []) for name in sorted(graph)) if c), None)


def variant_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["rules", "variants"] and len(parts) > 2 else None


def test_no_import_cycle_in_rules_counting_imports_inside_functions():
    cycle = a_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_variant_imports_another_variant():
    crossing = sorted(f"{m} -> {t}" for m, targets in import_graph().items() for t in targets
                      if variant_of(m) and variant_of(t) and variant_of(m) != variant_of(t))
    assert crossing == []


def test_every_module_or_package_directly_in_variants_is_a_variant():
    helpers = [m.name for m in pkgutil.iter_modules(rules.variants.__path__)
               if not {"VARIANT", "VARIANTS"} & set(vars(importlib.import_module(f"rules.variants.{m.name}")))]
    assert helpers == []


def test_the_wheel_lists_every_package():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    packages = {".".join(p.parent.relative_to(ROOT).parts) for top in ("bot", "rules", "render")
                for p in (ROOT / top).rglob("__init__.py")}
    assert packages - listed == set()


def outcomes_made(path: Path) -> list[tuple[int, bool]]:
    """Each `Outcome(...)`, `Outcome.win(...)`, `Outcome.draw(...)` in a module: (line, names its kind)."""
    kind_at = {"Outcome": 3, "win": 2, "draw": 1}   # the kind's place among positional arguments
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) and func.id == "Outcome" else (
            func.attr if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "Outcome" and func.attr in ("win", "draw") else None)
        if name is not None:
            found.append((node.lineno, len(node.args) > kind_at[name] or any(k.arg == "kind" for k in node.keywords)))
    return found


def test_every_outcome_the_rules_make_says_how_the_game_ended():
    made = {f"{path.relative_to(ROOT)}:{line}": named for path in module_names().values()
            for line, named in outcomes_made(path)}
    assert len(made) > 40
    assert [where for where, named in made.items() if not named] == []


def test_the_outcome_finder_tells_a_kind_left_out(tmp_path):
    source = tmp_path / "m.py"
    source.write_text('Outcome.win(c, "checkmate")\nOutcome.draw("x", kind=k)\nOutcome("solved", "y", 0, k)\n'
                      'Outcome("failed", "z", 3)\n')
    assert outcomes_made(source) == [(1, False), (2, True), (3, True), (4, False)]


def citations_outside(path: Path) -> list[int]:
    """Lines of a file that cite a rulings file or a numbered ruling, which a reader of the repository
    does not have (the rules card, data/rules/<slug>.md, is what comments cite)."""
    return [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if "rulings/" in line.lower() or re.search(r"\bruling \d", line, re.IGNORECASE)]


def test_comments_in_rules_cite_the_rules_card_not_rulings_outside_the_repository():
    cited = {f"{path.relative_to(ROOT)}:{line}" for path in (ROOT / "rules").rglob("*.py")
             for line in citations_outside(path)}
    assert cited == set()


def test_the_citation_finder_tells_a_ruling(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("# see ../shared/rulings/zoo.md\nx = 1   # Ruling 3: no castling\n# rules card\n# overruling 2\n")
    assert citations_outside(source) == [1, 2]


@pytest.mark.parametrize("by_hand", ["clean_castling_rights", "royal_king ="])
def test_no_variant_writes_castling_or_royalty_by_hand(by_hand):
    # Castling and royalty are data (rules.castling.Castling, rules.men.Royalty): a variant names
    # its mode and its royal men, never the castling rights or the base's derived switch.
    found = [str(p.relative_to(ROOT)) for p in (ROOT / "rules" / "variants").rglob("*.py")
             if by_hand in p.read_text(encoding="utf-8")]
    assert found == []


def boards_handled(path: Path) -> set[tuple[str, str]]:
    """(function, call) for each move pushed (`x.push(...)`) and each board copied (`x.copy(stack=...)`,
    as a list's copy takes no argument) in a module, by the function it is in."""
    found = set()

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                    and (child.func.attr == "push" or child.func.attr == "copy" and child.keywords)):
                found.add((function, child.func.attr))
            visit(child, function)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_variants_look_ahead_only_through_rules_lookahead():
    # Look-ahead (after, pushed, each_after, kept, scratch, passed, earlier) lives in rules.lookahead; a variant pushes
    # or copies a board itself only to make its own move (a ChessVariant's `push` hook, a
    # PartsVariant's `after`, Deadline's `played` behind it) or, in Reentrant, to recolour a copy for SAN.
    found = {(path.stem, function, call) for path in (ROOT / "rules" / "variants").rglob("*.py")
             for function, call in boards_handled(path)}
    assert {(stem, function) for stem, function, _ in found} <= {
        ("balanced_swap", "after"), ("concurrent", "after"), ("donnybrook", "after"), ("deadline", "played"),
        ("dynastic", "push"), ("contravention", "push"), ("reentrant", "by_owner")}


def test_the_board_handling_finder_tells_a_push_and_a_board_copy(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f(b):\n    b.push(m)\n\ndef g(b):\n    w = b.copy(stack=False)\n    k = kinds.copy()\n")
    assert boards_handled(source) == {("f", "push"), ("g", "copy")}


def class_bases(path: Path) -> set[str]:
    """The base classes (by name) of every class in a module."""
    return {ast.unparse(base).split("[")[0] for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef) for base in node.bases}


def test_every_class_in_variants_derives_from_one_of_the_two_variant_bases():
    # A board variant is a ChessVariant (a python-chess board) or a PartsVariant (men as data, turns of
    # parts); helper classes are plain dataclasses or enums' values. A solo puzzle keeps its own Game.
    found = {(path.relative_to(ROOT / "rules" / "variants").parts[0], base)
             for path in (ROOT / "rules" / "variants").rglob("*.py") for base in class_bases(path)}
    puzzles = {"kingswap", "solitary_patience"}
    assert {base for package, base in found if package not in puzzles} <= {"ChessVariant", "PartsVariant"}
    assert {base for package, base in found if package in puzzles} <= {"ChessVariant", "PartsVariant", "Game"}


def test_the_base_finder_tells_a_helper_class_base(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("class A(ChessVariant[int]):\n    pass\n\nclass B(NamedTuple):\n    x: int\n")
    assert class_bases(source) == {"ChessVariant", "NamedTuple"}
