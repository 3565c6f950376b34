"""Display names made safe to show in Discord messages, and plain again for everyone else.

A member's display name is theirs to choose: `**@everyone**` or `<@123>` must show as typed,
neither bold nor a mention. The Discord adapter escapes a name once, where it reads the member
(bot/discord/context.py `player`), so every message that quotes a stored name shows it as typed;
``plain`` gives the name back as typed for text that is not Markdown (PGN, thread names).
``one_line`` drops control and text-direction characters from text that must stay on one line
and read left to right as typed (thread names, PGN tags). Pure: no Discord import.
"""
from __future__ import annotations

import re

_SPECIAL = r"\\*_~`|>#\-\[\]()<:"            # Markdown and mention syntax, each shown as itself after a backslash
_ESCAPE = re.compile(f"([{_SPECIAL}])")
_UNESCAPE = re.compile(f"\\\\([{_SPECIAL}])")
_BREAK = "\u200b"                          # zero-width space: "@\u200beveryone" never mentions anyone
# control characters (C0, DEL, C1), line and paragraph separators (U+2028, U+2029), and those that
# turn text round: marks, embeddings, overrides, isolates
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def escape(name: str) -> str:
    """`name` to show as typed inside a Discord message (Markdown and mentions disarmed)."""
    return _ESCAPE.sub(r"\\\1", name).replace("@", "@" + _BREAK)


def one_line(text: str) -> str:
    """`text` with control and direction characters dropped (a line break or tab becomes a space)."""
    return _UNSAFE.sub(lambda found: " " if found.group().isspace() else "", text)


def plain(name: str) -> str:
    """The name as typed, from an escaped one (a plain name stays as it is)."""
    return _UNESCAPE.sub(r"\1", name.replace("@" + _BREAK, "@"))
