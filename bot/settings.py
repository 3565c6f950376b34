"""A server's Kibitz settings (`/settings`), as stored by the store's `settings`/`save_settings`.

Pure data: which variants are turned off, whether games get threads of their own, the default
days per move, the channel where every challenge is also announced, and whether the computer plays. Missing keys take the
defaults, so a server that never used `/settings` behaves as before.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MIN_DAYS, MAX_DAYS = 1, 14


@dataclass(frozen=True)
class ServerSettings:
    disabled: frozenset[str] = field(default_factory=frozenset)   # variant slugs turned off here
    threads: bool = True            # games and puzzles asked for in a text channel get a thread
    days: int | None = None         # default days per move here (None: the bot's default)
    announce: str | None = None     # channel id where challenges made elsewhere are announced too
    computer: bool = True           # members may play the computer (bot/service/computer.py)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ServerSettings:
        days = data.get("days")
        return cls(disabled=frozenset(str(s) for s in data.get("disabled", ()) or ()),
                   threads=bool(data.get("threads", True)),
                   days=int(days) if isinstance(days, int) and MIN_DAYS <= days <= MAX_DAYS else None,
                   announce=str(data["announce"]) if data.get("announce") else None,
                   computer=bool(data.get("computer", True)))

    def to_dict(self) -> dict[str, Any]:
        return {"disabled": sorted(self.disabled), "threads": self.threads, "days": self.days,
                "announce": self.announce} | ({} if self.computer else {"computer": False})   # kept only when off

    def allows(self, slug: str) -> bool:
        return slug not in self.disabled
