"""The variant registry: every module in rules/variants/ exporting VARIANT (or VARIANTS)."""
from __future__ import annotations

import importlib
import pkgutil
from typing import Protocol

from . import variants as _variants_pkg
from .core import Game, VariantInfo


class _Spec(Protocol):
    """A variant class's instance: it knows its registry entry."""

    def info(self) -> VariantInfo: ...


def _as_info(spec: VariantInfo | _Spec) -> VariantInfo:
    return spec if isinstance(spec, VariantInfo) else spec.info()


def discover() -> dict[str, VariantInfo]:
    found: dict[str, VariantInfo] = {}
    for module_info in sorted(pkgutil.iter_modules(_variants_pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{_variants_pkg.__name__}.{module_info.name}")
        specs = list(getattr(module, "VARIANTS", ())) + ([module.VARIANT] if hasattr(module, "VARIANT") else [])
        for spec in specs:
            info = _as_info(spec)
            check(info, found)
            found[info.slug] = info
    return dict(sorted(found.items()))


def check(info: VariantInfo, known: dict[str, VariantInfo]) -> None:
    """Refuse a broken spec at import: unique kebab-case slug, players 1|2, a start that loads."""
    if info.slug in known:
        raise ValueError(f"Duplicate variant slug {info.slug!r}")
    if not info.slug or info.slug != info.slug.lower() or " " in info.slug or "_" in info.slug:
        raise ValueError(f"Slug {info.slug!r} must be kebab-case")
    if info.players not in (1, 2):
        raise ValueError(f"{info.slug}: players must be 1 or 2")
    create = info.create
    if create is None:
        raise ValueError(f"{info.slug}: the spec has no create(seed, fen)")
    game = create(0, None)
    view = game.view()
    if (view.files, view.ranks) != (info.files, info.ranks):
        raise ValueError(f"{info.slug}: board is {view.files}x{view.ranks}, spec says {info.files}x{info.ranks}")
    again = create(None, game.fen())
    if again.fen() != game.fen():
        raise ValueError(f"{info.slug}: start FEN does not round-trip")


def new_game(registry: dict[str, VariantInfo], slug: str, *, seed: int | None = None, fen: str | None = None) -> Game:
    info = registry.get(slug)
    if info is None or info.create is None:   # every registered spec has `create` (see `check`)
        raise KeyError(f"Unknown variant {slug!r}")
    return info.create(seed, fen)
