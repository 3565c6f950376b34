"""Time for the bot: spans in seconds, the default deadlines, and spans and counts in words.

The defaults are the bot's own; KIBITZ_CHALLENGE_TTL and KIBITZ_MOVE_DEADLINE (bot/config.py)
override them, and a server's /settings or a challenge's `days` override the move deadline.
"""
from __future__ import annotations

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

CHALLENGE_TTL = HOUR            # seconds a challenge waits for an answer
MOVE_DEADLINE = 3 * DAY         # seconds allowed per move in two-player games


def plural(count: int, word: str) -> str:
    """"1 game", "2 games", "3 losses": a count and its noun, for people."""
    return f"{count} {word if count == 1 else (word + 'es' if word.endswith('s') else word + 's')}"


def duration(seconds: float) -> str:
    """A time span for people, in its two largest units: "2 days 6 hours", "45 minutes", "2 seconds"."""
    left = max(0, round(seconds))
    units = [(DAY, "day"), (HOUR, "hour"), (MINUTE, "minute"), (1, "second")]
    parts: list[str] = []
    for size, word in units:
        if left >= size or (not parts and size == 1):
            count, left = divmod(left, size)
            parts.append(plural(count, word))
        elif parts:
            break
    return " ".join(parts[:2])
