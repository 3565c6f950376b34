"""How big the variants are and how rules/ is put together.

    python benchmarks/rules_measures.py

Prints the lines of each variant (a module directly in rules/variants/, or a package counted
whole), their median, the longest module in rules/, and the base classes that classes in
rules/variants/ derive from (a solo puzzle's own game class included).
"""
from __future__ import annotations

import ast
import statistics
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "rules" / "variants"


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def variant_lines() -> dict[str, int]:
    """Variant name -> its lines (a package: all its modules)."""
    found = {}
    for path in sorted(VARIANTS.iterdir()):
        if path.is_dir() and (path / "__init__.py").exists():
            found[path.name] = sum(lines(p) for p in path.rglob("*.py"))
        elif path.suffix == ".py" and path.name != "__init__.py":
            found[path.stem] = lines(path)
    return found


def base_classes() -> Counter[str]:
    """How many classes in rules/variants/ name each base (the text of the base expression)."""
    bases: Counter[str] = Counter()
    for path in VARIANTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases.update(ast.unparse(b).split("[")[0] for b in node.bases)
    return bases


def main() -> None:
    found = variant_lines()
    for name, count in sorted(found.items(), key=lambda kv: (kv[1], kv[0])):
        print(f"{name:<20} {count:>5}")
    print(f"variants {len(found)}, median {statistics.median(found.values())} lines, total {sum(found.values())}")
    longest = max((ROOT / "rules").rglob("*.py"), key=lines)
    print(f"longest module in rules/: {longest.relative_to(ROOT)} ({lines(longest)} lines)")
    print("bases in rules/variants/: " + ", ".join(f"{b} {n}" for b, n in base_classes().most_common()))


if __name__ == "__main__":
    main()
