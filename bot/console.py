"""A terminal front end over the same service and database: type the slash commands as text.

Deadlines run as on Discord (bot/scheduler.py): a challenge that expires, a reminder to move or a
game lost on time while the console runs is said here as it happens, with the channel it is in.
Lines are read in a thread of their own, so the deadlines go on while the console waits for one.
The computer's moves (bot/opponent/runner.py, started beside the scheduler) are said the same way.
"""
from __future__ import annotations

import asyncio
import shlex
import sys
import textwrap
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import TextIO

import engine
import rules

from .builder import Menu
from .commands_list import NOT_IN_CONSOLE, SLASH
from .opponent.runner import Runner
from .opponent.workers import Workers
from .scheduler import Scheduler
from .service import COMPUTER, DueEvent, GameService, Player, Reply, UserError
from .service.types import Button, Mark, Style, When, Who
from .store import GameStatus

HELP = f"""Commands (as in Discord, options as name:value too: /puzzle variant:zoo daily:True):
  /variants                      list the games
  /rules <variant>               show a variant's rules
  /puzzle <variant> [seed] [level:N]  start a solo puzzle
  /puzzle <variant> daily:True   today's deal, the same for everyone (in a channel of its own)
  /hint                          one good next move in a solo puzzle, and why (counted)
  /challenge <variant> [@<name>] [colour:white|black|random] [days:N]  challenge someone (no name:
                                 anyone); your colour is drawn at random unless you say; @kibitz is the
                                 computer: the game begins at once (level:N, 1-{engine.MAX_LEVEL}, default {engine.DEFAULT_LEVEL})
  /accept, /decline [game]       answer a challenge (the game's number where several wait)
  /move <move>                   play a turn (e2e4, Nf3, b8c6 f8/g7, N@e4 ...)
  /moves                         list the legal moves
  /build [n | ok | clear]        build a turn from numbered menus: pick n, confirm, start over
  /board [flip:True], /resign, /draw, /undo
  /games                         the open games and challenges
  /takeback [yes | no]           ask to take back your last move; the opponent answers yes or no
  /abort [game:N]                end this channel's game (or game N) with no result (the console is its moderator)
  /leaderboard <variant> [daily:True], /profile [name]   ratings, a puzzle's best scores or today's board
  /export, /replay               the game as a PGN file, as an animated GIF
  /as <name>                     act as another player
  /channel <name>                switch channel
  /help, /quit"""


# Discord's options for each command (bot/discord/cogs), in Discord's order, typed as there (`daily:True`,
# `colour:black`); the first `bare` of them also as plain words in that order (`/puzzle kingswap 7`), a member
# as @name anywhere, a True/False option also as its name alone (`/leaderboard kingswap daily`).
OPTIONS: dict[str, tuple[tuple[str, ...], int]] = {
    "rules": (("variant",), 1), "puzzle": (("variant", "seed", "level", "daily"), 2),
    "challenge": (("variant", "opponent", "colour", "days", "level"), 2), "move": (("move",), 1),
    "board": (("flip",), 0), "leaderboard": (("variant", "daily"), 1), "profile": (("member",), 1),
    "abort": (("game",), 1)}
YES_NO, MEMBERS = ("daily", "flip"), ("opponent", "member")
SAID = {"variant": "a variant", "opponent": "@name", "member": "@name", "seed": "a seed", "move": "a move",
        "game": "a game number"}   # how a stray word's refusal names the bare options
# the commands read here; /takeback's yes or no and the console's own commands read their words themselves
PARSED = (*OPTIONS, *(name for name in SLASH if name not in (*NOT_IN_CONSOLE, "takeback")))


def options(command: str, words: list[str]) -> dict[str, str]:
    """The options of /`command` found in `words` (OPTIONS), by name, values as typed ("True" for a
    True/False option named alone). Refuses an option /`command` does not have, and a word left over."""
    names, bare = OPTIONS.get(command, ((), 0))
    if command == "move":   # all the words are the move: a turn of several parts has spaces, SAN may take with ":"
        move = " ".join(words)
        return {"move": move[5:] if move.lower().startswith("move:") else move} if move else {}
    found: dict[str, str] = {}
    loose = []
    for word in words:
        name, colon, value = word.partition(":")
        name = "colour" if name.lower() == "color" else name.lower()
        if colon and name in names:
            found[name] = value
        elif colon and name.isalpha():
            listed = " and ".join(", ".join(f"{n}:" for n in names).rsplit(", ", 1)) or "none"
            raise UserError(f"Unknown option {word!r}: /{command} takes {listed}.")
        elif name in names and name in YES_NO:
            found[name] = "True"
        else:
            loose.append(word)
    member = next((name for name in names if name in MEMBERS), "")
    for word in loose:
        free = [name for name in names[:bare] if name not in found]
        if word.startswith("@") and member and member not in found:
            free = [member]
        if not free:
            said = [SAID[name] for name in names[:bare]] + (["options"] if names[bare:] else [])
            usage = "say " + ", then ".join(said) if bare else \
                f"/{command} takes " + (" or ".join(f"{n}:" for n in names) or "nothing more")
            raise UserError(f"I don't know what {word!r} means here: {usage}.")
        found[free[0]] = word
    return found


def said(found: dict[str, str], name: str, what: str) -> str:
    """Option `name`, which must be given ("Say a variant.")."""
    if not found.get(name):
        raise UserError(f"Say {what}.")
    return found[name]


def yes(found: dict[str, str], name: str) -> bool:
    value = found.get(name, "False").lower()
    if value not in ("true", "false"):
        raise UserError(f"The {name} option is True or False.")
    return value == "true"


def number(found: dict[str, str], name: str) -> int | None:
    try:
        return int(found[name]) if name in found else None
    except ValueError:
        raise UserError(f"The {name} must be a whole number.") from None


FILE_KINDS = {".pgn": "PGN file", ".gif": "animated replay"}   # what the console says it saved, else a board image


def wrapped(turns: list[str], width: int = 78) -> str:
    """Turns joined by ", " in lines of at most `width` characters, never broken inside a turn."""
    joined = ", ".join(turn.replace(" ", "\0") for turn in turns)
    return textwrap.fill(joined, width, break_long_words=False, break_on_hyphens=False).replace("\0", " ")


def read_lines(stdin: TextIO) -> asyncio.Queue[str]:
    """The lines of `stdin` as they come ("" at its end), read by a daemon thread: a blocking read
    holds neither the event loop nor, after a signal, the process."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()

    def read() -> None:
        line = "-"
        while line:
            line = stdin.readline()
            try:
                loop.call_soon_threadsafe(lines.put_nowait, line)
            except RuntimeError:   # the console has stopped: nobody reads on
                return

    threading.Thread(target=read, name="kibitz-console-input", daemon=True).start()
    return lines


def text_board(view: rules.BoardView) -> str:
    """The position as letters, White at the bottom."""
    lines = []
    for rank in reversed(range(view.ranks)):
        row = [view.pieces.get(f"{chr(97 + f)}{rank + 1}", ".") for f in range(view.files)]
        lines.append(f"{rank + 1} " + " ".join(row))
    lines.append("  " + " ".join(chr(97 + f) for f in range(view.files)))
    return "\n".join(lines)


class Plain(Style):
    """Answers as plain text for the terminal: no marks, and the console's own player is "you"
    ("you start", "Your move."), whoever types for now (/as bob)."""

    def __init__(self, reader: str) -> None:
        self.reader = reader   # the player id read as "you"

    def mark(self, mark: Mark) -> str:
        return mark.text

    def when(self, when: When) -> str:
        return datetime.fromtimestamp(when.at, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    def button(self, button: Button) -> str:
        return "use " + " or ".join(button.commands)

    def who(self, who: Who, starts: bool) -> str:
        if who.player.id != self.reader:
            return super().who(who, starts)
        if who.called:
            return ""
        you = "You" if starts else "you"
        return f"{you} {second_person(who.verb)}" if who.verb else you


def second_person(verb: str) -> str:
    """The verb said to "you": "plays" -> "play", "has" -> "have", "ran" stays."""
    irregular = {"has": "have", "is": "are", "was": "were"}
    if verb in irregular:
        return irregular[verb]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


class Console:
    def __init__(self, service: GameService, out_dir: str | Path, *, stdout: TextIO = sys.stdout,
                 user: str = "you", channel: str = "console", engine_workers: int | None = None,
                 engine_nodes: int | None = None, stockfish: str | None = None) -> None:
        self.service = service
        self.runner = Runner(service, self.announce, workers=Workers(engine_workers), nodes=engine_nodes,
                             stockfish=stockfish)
        self.out_dir = Path(out_dir)
        self.stdout = stdout
        self.user = Player(f"console:{user}", user)
        self.style = Plain(self.user.id)
        self.channel = channel
        self.building: tuple[int, int, Menu] | None = None   # (game id, ply, menu shown) while building

    def say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    async def run(self, stdin: TextIO = sys.stdin) -> None:
        self.say(f"Kibitz console. You are {self.user.name} in #{self.channel}. Type /help.")
        lines = read_lines(stdin)
        scheduler = Scheduler(self.service, self.announce)
        scheduler.start()
        self.runner.start()
        try:
            while True:
                self.stdout.write("> ")
                self.stdout.flush()
                line = await lines.get()
                if not line or line.strip() in ("/quit", "/exit"):
                    self.say("Bye. Your games are saved.")
                    return
                await self.handle(line)
        finally:
            await self.runner.stop()
            await scheduler.stop()

    async def announce(self, event: DueEvent) -> None:
        """A deadline carried out, or the computer's move, while the console runs (the scheduler's and
        the runner's `deliver`)."""
        record = event.record
        where = (record.home_channel_id or record.channel_id) if event.kind == "expired" else record.channel_id
        self.say(f"\nIn #{where}:")
        self.show(event.reply)

    async def handle(self, line: str) -> None:
        try:
            words = shlex.split(line.strip())
        except ValueError:
            words = line.split()
        if not words:
            return
        command, args = words[0].lstrip("/").lower(), words[1:]
        try:
            await self.dispatch(command, args)
        except UserError as exc:
            self.say(f"! {self.style.line(exc.line)}")

    async def dispatch(self, command: str, args: list[str]) -> None:
        s, ch, me = self.service, self.channel, self.user
        if command == "help":
            return self.say(HELP)
        if command == "as":
            self.user = Player(f"console:{self._name(args)}", self._name(args))
            self.building = None
            return self.say(f"You are now {self.user.name}.")
        if command == "channel":
            self.channel = self._name(args)
            self.building = None
            return self.say(f"Now in #{self.channel}.")
        if command == "build":
            return await self.build(args)
        found = options(command, args) if command in PARSED else {}

        def variant() -> str:
            return said(found, "variant", "a variant")

        if command == "puzzle" and yes(found, "daily"):
            return await self.daily(variant(), [n for n in ("seed", "level") if n in found])
        if command == "takeback" and args:
            return self.show(await self.answer_takeback(args[0]))
        if command == "moves":
            return self.say(wrapped(await s.move_suggestions(ch, me, "", limit=None, explain=True)) or "No legal moves.")
        actions = {
            "variants": lambda: s.list_variants(),
            "rules": lambda: s.rules_card(variant()),
            "puzzle": lambda: s.start_puzzle(ch, me, variant(), number(found, "seed"), None, number(found, "level")),
            "challenge": lambda: self.challenge(found),
            "accept": lambda: self.answer_challenge("accept", args),
            "decline": lambda: self.answer_challenge("decline", args),
            "move": lambda: s.move(ch, me, said(found, "move", "a move")),
            "board": lambda: (s.flipped_board if yes(found, "flip") else s.board)(ch),
            "resign": lambda: s.resign(ch, me),
            "draw": lambda: s.draw(ch, me),
            "undo": lambda: s.undo(ch, me),
            "hint": lambda: s.hint(ch, me),
            "games": lambda: s.games(None),
            "takeback": lambda: s.takeback(ch, me),
            "abort": lambda: s.abort(ch, me, moderator=True, game_id=number(found, "game")),
            "leaderboard": lambda: (s.daily_board if yes(found, "daily") else s.leaderboard)(None, me, variant()),
            "profile": lambda: s.profile(None, self._opponent([found["member"]]) if "member" in found else me),
            "export": lambda: s.export(ch),
            "replay": lambda: s.replay(ch),
        }
        if command not in actions:
            raise UserError(f"Unknown command /{command}. Type /help.")
        self.show(await actions[command]())

    async def challenge(self, found: dict[str, str]) -> Reply:
        """`/challenge zoo @bob colour:black` as on Discord (variant, opponent, options), or the older
        `/challenge @bob zoo` (`found`: read by `options`); `@kibitz` is the computer (`level:N`)."""
        slug = said(found, "variant", "a variant")
        opponent = self._opponent([found["opponent"]]) if "opponent" in found else None
        if opponent is not None and opponent.name == "kibitz":
            opponent = COMPUTER
        level, days = (number(found, name) for name in ("level", "days"))
        colour = found.get("colour", "random")   # as on Discord: drawn unless said
        return await self.service.challenge(self.channel, self.user, opponent, slug, colour=colour, days=days,
                                            level=level)

    async def answer_challenge(self, command: str, args: list[str]) -> Reply:
        """`/accept` (or `/decline`) the one challenge waiting here, or `/accept 3`: game #3 of several."""
        answer = self.service.accept if command == "accept" else self.service.decline
        if args:
            number = args[0].lstrip("#")
            if not number.isdecimal():
                raise UserError(f"Say the challenge's game number, as in /{command} 3.")
            record = await self.service.store.get(int(number))
            if record is None:
                raise UserError(f"There is no challenge #{number} here.")
            home = record.home_channel_id or record.channel_id
            if record.status == GameStatus.CHALLENGE and home != self.channel:   # the service would point to buttons
                raise UserError(f"Challenge #{number} was made in #{home}: /channel {home}, then /{command} {number}.")
            return await answer(self.channel, self.user, int(number))
        waiting = await self.service.waiting_challenges(self.channel, self.user, declining=command == "decline")
        if len(waiting) > 1:
            choices = " or ".join(f"/{command} {r.id} ({rules.VARIANTS[r.variant].name} from "
                                  f"{dict(r.players).get(r.challenger_id or '', 'someone')})" for r in waiting)
            raise UserError(f"Several challenges wait for you here: {choices}.")
        return await answer(self.channel, self.user)

    async def daily(self, slug: str, rest: list[str]) -> None:
        """Today's deal. The console has no private threads: each player's copy plays in a channel
        of its own, `#daily-<variant>-<day>-<name>`, and the console moves there (a daily never
        takes the current channel's game). Asking again the same day goes back to the copy."""
        if rest:
            raise UserError("Today's deal is the same for everyone: leave out the seed and level.")
        s, me = self.service, self.user
        deal = await s.daily_deal(slug)
        copy = await s.daily_copy(me, deal.slug)
        if copy is not None:
            self.channel, self.building = copy.channel_id, None
            if copy.status != GameStatus.ACTIVE:
                return self.say(f"You already played today's deal (game #{copy.id}, {copy.status}): back in "
                                f"#{self.channel}, where /undo lets you practise it.")
            self.say(f"You already have today's deal (game #{copy.id}): back in #{self.channel}.")
            return self.show(await s.board(self.channel))
        channel = f"daily-{deal.slug}-{deal.day.isoformat()}-{me.name}"
        reply = await s.start_daily(channel, me, deal.slug, home=self.channel)
        self.channel, self.building = channel, None
        self.say(f"Today's deal plays in #{channel}, a channel of its own; you are there now (/channel to leave).")
        self.show(reply)

    async def build(self, args: list[str]) -> None:
        """The turn builder as numbered menus: `/build` shows the first, `/build 3` picks option 3,
        `/build ok` plays the turn built, `/build clear` starts over."""
        s, ch, me = self.service, self.channel, self.user
        word = args[0].lower() if args else ""
        if self.building is None or word in ("", "clear"):
            reply = await s.board(ch)
            if reply.game_id is None or reply.ply is None or reply.builder is None:
                raise UserError("There is no turn to build here.")
            game_id, ply = reply.game_id, reply.ply
            menu = await s.build_menu(ch, me, game_id, ply)
        elif word == "ok":
            game_id, ply, menu = self.building
            reply = await s.play_built(ch, me, game_id, ply, menu.parts)
            self.building = None
            return self.show(reply)
        else:
            game_id, ply, menu = self.building
            if not menu.options:
                raise UserError("Nothing is left to pick: ok plays the turn, clear starts over.")
            if not word.isdigit() or not 1 <= int(word) <= len(menu.options):
                raise UserError(f"Pick a number from 1 to {len(menu.options)}, or ok, or clear.")
            value = menu.options[int(word) - 1].value
            parts, origin, page = menu.parts, menu.origin, 0
            if value.startswith(">"):
                origin, page = menu.origin, int(value[1:])
            elif value.startswith("#"):
                origin = value[1:]
            else:
                parts, origin = (*parts, value), ""
            menu = await s.build_menu(ch, me, game_id, ply, parts, origin, page)
        self.building = (game_id, ply, menu)
        self.say(self.menu_text(menu))

    async def answer_takeback(self, word: str) -> Reply:
        if word.lower() not in ("yes", "no"):
            raise UserError("Answer a takeback with /takeback yes or /takeback no.")
        board = await self.service.board(self.channel)
        if board.game_id is None:
            raise UserError("No game in this channel.")
        return await self.service.answer_takeback(self.channel, self.user, board.game_id, word.lower() == "yes")

    @staticmethod
    def menu_text(menu: Menu) -> str:
        lines = [f"Turn so far: {menu.summary}" if menu.summary else "Building a turn.", menu.prompt]
        lines += [f"  {n}. {o.label}" + (f" ({o.description})" if o.description else "")
                  for n, o in enumerate(menu.options, 1)]
        if menu.complete:
            lines.append(f"  ok. play {menu.label}")
        lines.append("  clear. start over")
        return "\n".join(lines)

    def show(self, reply: Reply) -> None:
        if reply.embed is not None:   # a card (/rules): its title, then its text as plain words
            body = reply.embed["description"].replace("**", "").replace("`", "")
            self.say(f"{reply.embed['title']}\n\n{body}")
        else:
            self.say(self.style.text(reply.lines))
        if reply.image is not None:
            if reply.view is not None:
                self.say(text_board(reply.view))
            self.out_dir.mkdir(parents=True, exist_ok=True)
            path = self.out_dir / reply.filename
            path.write_bytes(reply.image)
            self.say(f"[{FILE_KINDS.get(path.suffix, 'board image')}: {path}]")

    @staticmethod
    def _arg(args: list[str], what: str) -> str:
        if not args:
            raise UserError(f"Say {what}.")
        return args[0]

    @staticmethod
    def _name(args: list[str]) -> str:
        if not args:
            raise UserError("Say a name.")
        return args[0].lstrip("@#").lower()

    def _opponent(self, args: list[str]) -> Player:
        name = self._name(args)
        return Player(f"console:{name}", name)
