"""Composing the answers: the board after a change, result lines, an ended game's final board,
the help text, the variants list and the rules cards, and the small words for times ago."""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime

import rules
from rules import Game, Outcome, Said, describe_view

from .. import daily
from ..paths import data_dir
from ..store import GameRecord, GameStatus
from ..timing import DAY, HOUR, MINUTE, plural
from .exports import replayed
from .tables import Tables
from .types import Headline, Line, Mark, Player, Reply, UserError, When, Who

log = logging.getLogger(__name__)

RULE_CARDS = data_dir() / "rules"


class Presenter(Tables):
    """Answers composed for the front ends."""

    async def help_text(self) -> Reply:
        def c(command: str) -> Mark:
            return Mark(command, code=True)

        return Reply([
            (Mark("Kibitz"), " hosts chess variants with the rules enforced."),
            (c("/challenge variant [opponent] [colour] [days]"), ": challenge a member (or anyone) to a two-player game; "
             "accepted, it gets a thread of its own."),
            (c("/puzzle variant"), ": a solo puzzle. ", c("/move"), ": play (autocomplete lists your legal moves), or use "
             "the buttons under the board."),
            (c("/board"), ", ", c("/draw"), ", ", c("/resign"), ", ", c("/takeback"), " (asks your opponent): the game of "
             "this channel or thread; ", c("/undo"), " and ", c("/hint"), " in puzzles."),
            (c("/games"), ": open games and challenges here. ", c("/pings on|off"), ": whether you are pinged on your move."),
            (c("/leaderboard"), ", ", c("/profile"), ", ", c("/export"), ", ", c("/replay"), ": ratings and records. ",
             c("/settings"), ": for server managers; ", c("/abort"), ": for moderators."),
            (c("/variants"), " lists every variant; ", c("/rules variant"), " explains one.")])

    def variant_choices(self, prefix: str = "") -> list[tuple[str, str]]:
        prefix = prefix.lower().strip()
        hits = [(slug, info.name) for slug, info in rules.VARIANTS.items()
                if not prefix or prefix in slug or prefix in info.name.lower()]
        hits.sort(key=lambda hit: (not hit[0].startswith(prefix), hit[0]))
        return hits   # a front end shows as many as it can

    async def list_variants(self) -> Reply:
        """One line per game, its name, slug and goal, in groups: solo puzzles, two-player games, the GOAL
        family. Longer than one chat message: a front end splits it at line breaks (Discord: follow-ups)."""
        groups: list[tuple[Line, list[rules.VariantInfo]]] = [
            ((Mark("Solo puzzles"), " (", Mark("/puzzle", code=True), "):"), [], ),
            ((Mark("Two-player games"), " (", Mark("/challenge", code=True), "):"), []),
            ((Mark("GOAL variants"), ", two-player games from Tony Paletta's \"Modest Proposals\" (",
              Mark("/challenge", code=True), "):"), [])]
        for info in rules.VARIANTS.values():
            groups[0 if info.players == 1 else 2 if info.family == "GOAL" else 1][1].append(info)
        lines: list[Line] = []
        for heading, infos in groups:
            lines += [heading] + [(Mark(i.name), " (", Mark(i.slug, code=True), f"): {i.summary}") for i in infos]
        lines += [(Mark("/rules <variant>", code=True), " explains any of them.")]
        return Reply(lines)

    async def rules_text(self, slug: str) -> Reply:
        info = self._variant(slug)
        card = RULE_CARDS / f"{info.slug}.md"
        text = card.read_text(encoding="utf-8").strip() if card.exists() else f"# {info.name}\n{info.summary}"
        return Reply(text)

    async def rules_card(self, slug: str) -> Reply:
        """The rules card as an embed, with a diagram of the variant's start (seed 0 where the
        set-up is drawn at random); text front ends print the text and keep the picture."""
        reply = await self.rules_text(slug)
        info = self._variant(slug)
        lines = reply.text.splitlines()
        title = info.name
        if lines and lines[0].startswith("# "):
            title, lines = lines[0][2:].strip(), lines[1:]
        view = rules.new_game(info.slug, seed=0).view()
        try:
            reply.image = await asyncio.to_thread(self.renderer, view, rules.WHITE)
        except Exception:
            log.exception("could not draw the rules diagram of %s", info.slug)
        reply.alt = f"{info.name}: the starting position"
        reply.filename = f"rules-{info.slug}.png"
        reply.embed = {"title": title, "description": "\n".join(lines).strip()}   # a front end fits it to its limits
        reply.view = view
        return reply

    async def warm_up(self) -> None:
        """Draw one board off the event loop so the first real reply does not pay for loading art."""
        await asyncio.to_thread(self.renderer, rules.new_game("standard").view(), rules.WHITE)

    async def _board_reply(self, record: GameRecord, game: Game, headline: Headline) -> Reply:
        """The board after a change, with its picture, alt text and the builder's first menu.
        `headline` may take the last move's label (worked out once, with the rest) and return the line.
        All of it is worked out in one trip to a worker thread, so the event loop stays free."""
        return await asyncio.to_thread(self._compose_board, record, game, headline)

    def _compose_board(self, record: GameRecord, game: Game, headline: Headline) -> Reply:
        view = game.view()
        outcome = game.outcome
        orientation = rules.WHITE   # one side for the whole game: White at the bottom (/board flip turns your own)
        try:
            image = self.renderer(view, orientation)
        except Exception:   # the change is already committed: answer without a picture, never "failed"
            log.exception("could not draw game %s at ply %d", record.id, len(record.moves))
            image = None
        # Game.describe() builds the view again: use the one in hand unless a variant words it itself
        alt = describe_view(view, game.info.name) if type(game).describe is Game.describe else game.describe()
        said = game.last_move_said() if record.moves else Said(rules.PLAYS, "")
        if record.moves and not said.words:
            said = Said(rules.PLAYS, game.history[-1])
        words = said.text()
        tells = callable(headline)   # the board after a turn: its header says the turn, numbered
        if callable(headline):
            headline = headline(said)
        lines: list[Line] = [(headline,) if isinstance(headline, str) else headline] if headline else []
        if tells and lines:
            lines[0] = (_number(record), *lines[0])
        elif not headline or not record.moves and outcome is None:   # /board, or a game's first board: which game, who plays
            lines.append((Mark(game.info.name), f" · game #{record.id}"))
            if record.solo:
                played = "" if view.counts_moves else f" · moves played: {len(record.moves)}"
                lines.append(("Player: ", _who(record, 0), f"{played}{daily.record_note(record)}"))   # the count said once
            else:
                lines.append(("White: ", _who(record, 0), " · Black: ", _who(record, 1)))
            if record.moves:
                lines.append(("Last move: ", _number(record), Mark(words)))
        caption = view.caption.strip()
        if caption and caption[-1] not in ".!?":
            caption += "."
        if outcome is None and record.status == GameStatus.ABORTED:
            pass   # no result and no one to move: _final_board says it was aborted
        elif outcome is None:
            if record.solo:
                note = f" Moves played: {len(record.moves)}{daily.record_note(record)}." if tells else ""
                lines.append((f"{caption} Your move".strip(), _who(record, 0, called=True), f".{note}"))
            else:
                check = ", in check" if view.checks else ""
                due = self.deadline_of(record)
                lines.append((_who(record, 0 if game.turn == rules.WHITE else 1),
                               f" to move ({game.turn.capitalize()}{check})", *((", due ", When(due)) if due else ()),
                               f". {caption}".rstrip()))
        else:
            lines.append((*self._result_line(record, outcome, game.info), " ", Mark("/replay", code=True),
                          " shows the game again, ", Mark("/export", code=True), " saves it."))
            if caption:
                lines.append((caption,))
        reply = Reply(lines, image, alt, f"kibitz-{record.id}-{len(record.moves)}.png",
                      game_id=record.id, finished=outcome is not None, view=view, controls=self._controls(record, game))
        return self._with_builder(reply, record, game)   # ~1000 turns to sort for some variants

    @staticmethod
    def _controls(record: GameRecord, game: Game) -> tuple[str, ...]:
        """Buttons for a board: Draw and Resign while a two-player game goes on, Rematch once it is over."""
        if record.solo or record.status == GameStatus.ABORTED:
            return ()
        if game.outcome is None:
            return ("draw", "resign")
        return ("rematch",) if record.status == GameStatus.FINISHED else ()

    @staticmethod
    def _result_line(record: GameRecord, outcome: Outcome, info: rules.VariantInfo) -> Line:
        reason = outcome.reason[:1].upper() + outcome.reason[1:]   # shown capitalised; the reason itself stays as ruled
        if record.solo:
            score = f" {info.score_name.capitalize()}: {outcome.score}." if outcome.score is not None else ""
            score += f" Hints: {record.hints}." if record.hints else ""
            return Mark("Solved" if outcome.result == "solved" else "Failed"), f": {reason}.{score}"
        if outcome.winner is None:
            return Mark("Draw"), f" ({outcome.result}): {reason}."
        return _who(record, 0 if outcome.winner == rules.WHITE else 1, "wins", strong=True), f" ({outcome.result}): {reason}."

    def _ended_words(self, record: GameRecord) -> Line:
        info, outcome = rules.VARIANTS.get(record.variant), record.outcome
        if record.status == GameStatus.ABORTED or info is None or outcome is None:
            return ("It was aborted.",) if record.status == GameStatus.ABORTED else ()
        return self._result_line(record, outcome, info)

    async def _final_board(self, record: GameRecord) -> Reply:
        """A game that has ended: its final position, the result and its reason, and the move list."""
        try:
            game, _, labels = await asyncio.to_thread(replayed, record)
        except Exception:
            log.exception("could not replay ended game %s", record.id)
            raise UserError("This game has ended, but it cannot be replayed after an update to Kibitz.") from None
        if record.result and game.outcome is None:
            game.finish(record.outcome)
        reply = await self._board_reply(record, game, "")
        reply.lines.insert(0, ("This game is over.",))
        if record.status == GameStatus.ABORTED:
            reply.lines.append(("It was aborted: no result, no rating.",))
        reply.lines += [(_move_list(labels, record.solo),), ("Start another with /challenge or /puzzle.",)]
        reply.builder = None
        return reply


def moved(label: str | None, canonical: str) -> Line:
    """A move for people: **Nf3** (`g1f3`) where the variant has SAN, else `d4d5`."""
    return (Mark(label), " (", Mark(canonical, code=True), ")") if label and label != canonical \
        else (Mark(canonical, code=True),)


def turn_headline(player: Player, said: Said, note: str = "") -> Line:
    """A turn's headline: "alice plays **Nf3**.", "alice plays **Nxg7, then swaps a2 and b2**.";
    a turn whose words open with their own verb takes it: "alice drops **a pawn on a3**."
    (`said`: Game.last_move_said, the rules' verb and the rest)."""
    return Who(player, said.verb), " ", Mark(said.words), f".{note}"


def take_back(game: Game, plies: int) -> list[tuple[str, str]]:
    """Take back the last `plies` turns of `game`: each as (its words, canonical), the first played first."""
    return [(game.last_move_description(), game.undo()) for _ in range(plies)][::-1]


def play_again(game: Game, taken: list[tuple[str, str]]) -> None:
    """Play the turns `take_back` took back again (its change could not be saved)."""
    for _, move in taken:
        game.play(move)


def told(taken: list[tuple[str, str]]) -> Line:
    """Turns taken back, in a headline: "**e4** and **e5** taken back." (whose move it is, the board's next line says)."""
    return (*said_turns(taken), " taken back.")


def said_turns(turns: list[tuple[str, str]]) -> Line:
    """Turns (as `take_back` gives them) in words: "**e4** and **e5**"."""
    return tuple([part for words, _ in turns for part in (" and ", Mark(words))][1:])


def _number(record: GameRecord) -> str:
    """The last turn's number before its words: "12. " for White's, "12… " for Black's, a puzzle's "5. "."""
    ply = len(record.moves)
    if record.solo:
        return f"{ply}. "
    return f"{(ply + 1) // 2}{'.' if ply % 2 else '…'} "


def _who(record: GameRecord, seat: int, verb: str = "", strong: bool = False, called: bool = False) -> Who:
    """The player in `seat` of the game, in a sentence (types.Who)."""
    return Who(Player(*record.players[seat]), verb, strong, called)


def _move_list(labels: list[str], solo: bool = False) -> str:
    """Moves: 1. e4 e5 2. Nf3 … (a puzzle's turns are numbered one by one)."""
    if not labels:
        return "Moves: none."
    words = []
    for ply, label in enumerate(labels):
        if solo:
            words.append(f"{ply + 1}. {label}")
        else:
            words.append(f"{ply // 2 + 1}. {label}" if ply % 2 == 0 else label)
    return "Moves: " + " ".join(words)


def parse_time(stamp: str) -> datetime | None:
    try:
        return datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None


def age(stamp: str, now: datetime | None) -> str:
    """How long ago an ISO time was, in words: "just now", "5 min ago", "3 h ago", "2 days ago"."""
    then = parse_time(stamp)
    if then is None or now is None:
        return "some time ago"
    return ago((now - then).total_seconds())


def ago(seconds: float) -> str:
    """A span of seconds before now, in words: "just now", "5 min ago", "3 h ago", "2 days ago"."""
    seconds = max(0, int(seconds))
    if seconds < MINUTE:
        return "just now"
    if seconds < HOUR:
        return f"{seconds // MINUTE} min ago"
    if seconds < DAY:
        return f"{seconds // HOUR} h ago"
    return f"{plural(seconds // DAY, 'day')} ago"
