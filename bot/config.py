"""Settings from environment variables (and a .env file), read once at start-up."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Config:
    token: str | None
    db_path: str
    out_dir: str
    api_base: str | None        # DISCORD_API_BASE, e.g. http://127.0.0.1:8080/api/v10 (tests)
    gateway_url: str | None     # DISCORD_GATEWAY_URL, e.g. ws://127.0.0.1:8080/ (tests)


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=value lines; blank lines and # comments skipped; optional quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def load(environ: dict[str, str] | None = None, dotenv: Path | None = None) -> Config:
    env = dict(read_dotenv(dotenv or Path.cwd() / ".env"))
    env.update(os.environ if environ is None else environ)
    return Config(
        token=env.get("DISCORD_TOKEN") or None,
        db_path=env.get("KIBITZ_DB") or str(Path.cwd() / "kibitz.sqlite3"),
        out_dir=env.get("KIBITZ_OUT") or str(Path.cwd() / "out"),
        api_base=env.get("DISCORD_API_BASE") or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL") or None,
    )
