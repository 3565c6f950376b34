"""How bot/ is put together: no import cycle (imports inside functions counted), the Discord layer's
imports point down its layers, only the entry point reaches into it from outside, and every import
inside a function that names a project module is listed here with its reason."""
import ast
from pathlib import Path

from tests.rules.test_structure import a_cycle

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("bot", "rules", "render", "engine")

# The Discord layer, bottom first (bot/discord/__init__.py): a module imports only from lower
# layers, or from its own layer where the layer is a package (components, cogs).
LAYERS = [("limits",), ("context", "transport"), ("outbox", "interactions"), ("tree",), ("components",),
          ("answers",), ("deadlines",), ("cogs",), ("app",)]
PACKAGES = {"components", "cogs"}

# Imports inside functions that name a project module, and why each stays (none works round a cycle).
INSIDE_FUNCTIONS = {
    "bot.__main__.main -> bot.discord.app": "discord.py is loaded only to run the bot (not the console, copy-db, backup)",
    "bot.service.tables._default_renderer -> render": "Pillow and the piece art are loaded at the first board drawn",
    "bot.service.exports._gif_of -> render": "the same",
    "bot.service.exports._pgn_of -> bot.pgn": "python-chess's PGN writer is loaded at the first /export",
}


def module_names(top: str) -> dict[str, Path]:
    """A package's modules by dotted name (a package by its own name) -> file."""
    found = {}
    for path in sorted((ROOT / top).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(node: ast.Import | ast.ImportFrom, package: str, modules: set[str]) -> list[str]:
    """The modules an import statement names (`from p import x` is p.x when that is a module, else p)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        up = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        base = f"{up}.{base}" if base else up
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]


def import_graph(top: str) -> dict[str, set[str]]:
    """Module -> the modules of `top` it imports anywhere in its text (inside functions and
    TYPE_CHECKING blocks too)."""
    modules = module_names(top)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[name] |= {t for t in imported(node, package, set(modules)) if t in modules and t != name}
    return graph


def imports_inside_functions(top: str) -> set[str]:
    """`module.function -> project module` for each import inside a function of `top`."""
    modules = module_names(top)
    found = set()
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    found |= {f"{name}.{function.name} -> {target}" for target in imported(node, package, set(modules))
                              if target.split(".")[0] in PROJECT}
    return found


def layer_of(module: str) -> int:
    """The rank of a bot.discord module among LAYERS."""
    part = module.split(".")[2]
    return next(rank for rank, names in enumerate(LAYERS) if part in names)


def test_no_import_cycle_in_bot_counting_imports_inside_functions():
    cycle = a_cycle(import_graph("bot"))
    assert cycle is None, " -> ".join(cycle)


def test_the_discord_layers_import_downwards_only():
    upward = []
    for module, targets in import_graph("bot").items():
        if not module.startswith("bot.discord.") or module.count(".") < 2:
            continue
        for target in targets:
            if not target.startswith("bot.discord.") or target.count(".") < 2:
                continue
            low, high = layer_of(target), layer_of(module)
            if low > high or (low == high and target.split(".")[2] not in PACKAGES):
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_only_the_entry_point_imports_the_discord_layer():
    outside = sorted(f"{module} -> {target}" for module, targets in import_graph("bot").items()
                     if not module.startswith("bot.discord") and module != "bot.__main__"
                     for target in targets if target.startswith("bot.discord"))
    assert outside == []


def test_every_import_inside_a_function_is_listed_with_its_reason():
    assert sorted(imports_inside_functions("bot") - set(INSIDE_FUNCTIONS)) == []


def test_the_layer_checker_finds_an_upward_import():
    assert layer_of("bot.discord.components.challenge") < layer_of("bot.discord.answers")
    assert layer_of("bot.discord.app") == len(LAYERS) - 1


# Where bot/ reads an ending's kind from its words, and why (nowhere else: it decides on `ending`).
READS_KINDS_FROM_WORDS = {
    "bot.store.migrations": "006 reads the kind of each game that ended before it, once",
}


def test_nothing_in_bot_decides_on_an_endings_words():
    """`reason` is what players read: bot/ never compares it, searches it or calls its string
    methods, and looks kinds up by words only where READS_KINDS_FROM_WORDS says."""
    def is_reason(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == "reason") or (
            isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "reason")

    found = []
    for name, path in module_names("bot").items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare) and any(map(is_reason, [node.left, *node.comparators])):
                found.append(f"{name}:{node.lineno} compares a reason")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_reason(node.func.value):
                found.append(f"{name}:{node.lineno} calls reason.{node.func.attr}")
            elif (isinstance(node, ast.alias) and node.name in ("kind_from_reason", "KINDS_BY_REASON")
                  and name not in READS_KINDS_FROM_WORDS):
                found.append(f"{name} imports {node.name}")
    assert found == []


def test_the_service_never_imports_the_computer_opponents_package():
    """bot.opponent (the runner) calls the service, so the service depends on no part of it."""
    upward = sorted(f"{module} -> {target}" for module, targets in import_graph("bot").items()
                    if module.startswith("bot.service") for target in targets if target.startswith("bot.opponent"))
    assert upward == []
