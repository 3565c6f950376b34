"""Display names made safe to show in Discord messages, and plain again for everyone else.

A member's display name is theirs to choose: `**@everyone**` or `<@123>` must show as typed,
neither bold nor a mention. The Discord adapter escapes a name once, where it reads the member
(bot/views/replies.py `player`), so every message that quotes a stored name shows it as typed;
``plain`` gives the name back as typed for text that is not Markdown (PGN, thread names).
Pure: no Discord import.
"""
from __future__ import annotations

import re

_SPECIAL = r"\\*_~`|>#\-\[\]()<:"            # Markdown and mention syntax, each shown as itself after a backslash
_ESCAPE = re.compile(f"([{_SPECIAL}])")
_UNESCAPE = re.compile(f"\\\\([{_SPECIAL}])")
_BREAK = "\u200b"                          # zero-width space: "@\u200beveryone" never mentions anyone


def escape(name: str) -> str:
    """`name` to show as typed inside a Discord message (Markdown and mentions disarmed)."""
    return _ESCAPE.sub(r"\\\1", name).replace("@", "@" + _BREAK)


def plain(name: str) -> str:
    """The name as typed, from an escaped one (a plain name stays as it is)."""
    return _UNESCAPE.sub(r"\1", name.replace("@" + _BREAK, "@"))
