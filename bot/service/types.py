"""The records and errors the service hands back to front ends, and the sentences it shares."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Callable, Protocol
from importlib import metadata

import rules

from ..builder import Menu
from ..daily import GridState
from ..store import GameRecord


class UserError(Exception):
    """A mistake by the user; the message is the whole reply: a sentence, or the parts of one (`line`)."""

    def __init__(self, *parts: Part) -> None:
        super().__init__(*parts)
        self.line: Line = parts

    def __str__(self) -> str:
        return MARKDOWN.line(self.line)


class Unsure(UserError):
    """The store could not say whether a write landed (the message is UNSURE); `written`: the
    record as that write would have stored it, to read back later, where it is known."""

    def __init__(self, message: str, written: GameRecord | None = None) -> None:
        super().__init__(message)
        self.written = written


STALE = "This game was just changed elsewhere; I have reloaded it. Please try again."
UNSURE = ("The database stopped answering, so I cannot tell whether that went through. "
          "Look before trying again: /board, /games and /settings show what was saved.")


@dataclass(frozen=True)
class Player:
    id: str
    name: str


@dataclass(frozen=True)
class Mark:
    """Words a front end sets apart: a game's name or a result (strong), or a command, a slug or a
    move as typed (`code`)."""
    text: str
    code: bool = False


@dataclass(frozen=True)
class Who:
    """A player in a sentence, with the verb that follows in the third person ("plays"): a front end
    that knows its reader says "you play" to them. `strong`: set apart with its verb, as a result is.
    `called`: the player addressed at a sentence's end (", bob"), which the reader needs not be told."""
    player: Player
    verb: str = ""
    strong: bool = False
    called: bool = False


@dataclass(frozen=True)
class When:
    """A moment (Unix time), which each front end writes its own way: Discord as a timestamp each
    reader sees in their own time zone ("in 3 days"), the console as a time."""
    at: float


@dataclass(frozen=True)
class Button:
    """A pointer to buttons under the message: `words`, as Discord says it ("press Draw (or use /draw)",
    "accept or decline"), and the `commands` that do the same, which a front end without buttons names
    instead ("use /draw", "use /takeback yes or /takeback no")."""
    words: str
    commands: tuple[str, ...]


Part = str | Mark | Who | When | Button
Line = tuple[Part, ...]   # one line of an answer: words, set-apart words and players
Headline = str | Line | Callable[[rules.Said], Line]   # a board's first line; a callable takes the last turn's words


class Style:
    """How a front end writes the parts of an answer. This one is Markdown, as Discord shows it (and
    as `Reply.text` reads): **strong**, `code`, players by name."""

    def mark(self, mark: Mark) -> str:
        return f"`{mark.text}`" if mark.code else f"**{mark.text}**"

    def who(self, who: Who, starts: bool) -> str:
        """`starts`: the player opens a sentence."""
        if who.called:
            return f", {who.player.name}"
        words = f"{who.player.name} {who.verb}" if who.verb else who.player.name
        return self.mark(Mark(words)) if who.strong else words

    def when(self, when: When) -> str:
        return f"<t:{int(when.at)}:R>"

    def button(self, button: Button) -> str:
        return button.words

    def line(self, line: Line) -> str:
        out = ""
        for part in line:
            if isinstance(part, Who):
                out += self.who(part, starts=not out or out.endswith((". ", "! ", "? ", "… ")))
            elif isinstance(part, When):
                out += self.when(part)
            elif isinstance(part, Button):
                out += self.button(part)
            else:
                out += self.mark(part) if isinstance(part, Mark) else part
        return out

    def text(self, lines: list[Line]) -> str:
        return "\n".join(self.line(line) for line in lines)


MARKDOWN = Style()


def lines_of(text: str) -> list[Line]:
    """Plain text as answer lines, one part each."""
    return [(line,) for line in text.split("\n")]


@dataclass
class Reply:
    """An answer to a front end: its `lines` (words, marks and players), which each front end writes in
    its own style, and what goes with them. Made from a str, that text is its lines."""
    content: list[Line] | str
    image: bytes | None = None
    alt: str = ""
    filename: str = "board.png"
    ephemeral: bool = False
    game_id: int | None = None
    challenge: tuple[int, str, str] | None = None   # (game id, challenger id, opponent id)
    finished: bool = False
    view: rules.BoardView | None = None            # the position shown, for text front ends
    builder: Menu | None = None                    # first menu of the turn builder, for the player to move
    grid: GridState | None = None                  # KingSwap!'s 25 squares to click, shown instead of the builder
    ply: int | None = None                         # turns played in the game shown
    embed: dict[str, str] | None = None            # {"title", "description"}: shown as a card, `image` inside it
    pings: tuple[str, ...] = ()                    # ids of the members this answer notifies (a loss on time: both players)
    controls: tuple[str, ...] = ()                 # buttons to show: "draw", "resign", "rematch", "takeback"
    asker: str | None = None                       # who asked the takeback the "takeback" buttons answer

    def __post_init__(self) -> None:
        if isinstance(self.content, str):
            self.content = lines_of(self.content)

    @property
    def lines(self) -> list[Line]:
        return self.content if isinstance(self.content, list) else lines_of(self.content)

    @lines.setter
    def lines(self, lines: list[Line]) -> None:
        self.content = lines

    @property
    def text(self) -> str:
        """The answer as Markdown, the text Discord shows (a front end of its own writes `lines` in its style)."""
        return MARKDOWN.text(self.lines)

    @text.setter
    def text(self, text: str) -> None:
        self.content = lines_of(text)


@dataclass
class DueEvent:
    """Something a deadline brought about, for the front end to deliver.

    kind "expired": a challenge expired (edit its message, no buttons; `reply.text` says so);
    "reminder": the player to move has a quarter of their time left (post `reply` in the game's
    channel; `reply.pings` that player unless they opted out); "timeout": they ran out of time
    and lost (post the final board `reply` in the game's channel, `reply.pings` both players
    unless they opted out).

    From the computer's runner (bot/opponent/runner.py), once its turn is saved: "move": the
    board after the computer's move or its draw claim (post `reply` in the game's channel, `reply.pings`
    the member unless they opted out); "resign": it resigned a hopeless position (post the final board)."""
    kind: str
    record: GameRecord
    reply: Reply


class Thinker(Protocol):
    """The computer's runner (bot/opponent/runner.py) as the service sees it, once started."""

    def wake(self, game_id: int) -> None:
        """The computer is to move in game `game_id`: queue its turn."""

    async def evaluate(self, record: GameRecord) -> int | None:
        """The engine's score of the game's position, in centipawns for the side to move (None: unknown)."""


class DueSignal:
    """Wakes the deadline scheduler (bot/scheduler.py) early: it sleeps until `until`, and a save
    that sets an earlier due_at sets `event`."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.until: float | None = None   # when the scheduler means to wake; None: not asleep yet (any save wakes it)

    def note(self, due_at: float | None) -> None:
        if due_at is not None and (self.until is None or due_at < self.until):
            self.event.set()


def _package_version() -> str:
    try:
        return metadata.version("kibitz")
    except metadata.PackageNotFoundError:
        return "0+unknown"


RULES_VERSION = _package_version()   # stored with each new game: which rules it started under
