"""The search: iterative deepening negamax with alpha-beta, a transposition table keyed on the
position (`Game.key()`, a tuple of bitboards and state: no text), move ordering (the previous iteration's best, winning captures, promotions, killer
moves, history), and a quiescence search over captures where the variant's profile says captures
are the volatile part of the game.

Everything goes through the public rules API: `legal_moves()`, `play_listed()` (a listed turn,
played without reading text), `undo()`, `outcome`, `key()`, `men()`. The rules judge every position (wins by any goal, look-ahead goals included, are
the `outcome` of a node), so no rule is written twice here.

Turns of several parts (a move then a swap, a mirror then a move, a capture then a placement) can
number hundreds. Where the rules list them part by part (`first_parts()`, `completions()`), an
inner node never lists them all: it orders the first parts as turns are ordered, and finishes each
only when the search reaches it, in at most `FINISHES` of the ways the rules list (the table's best
or a killer first, then by the history of the later parts), up to `WIDE` turns of several parts;
the rules judge a position by whether any turn exists, not by listing them. The root, and a node
where the rules list turns only whole, lists every whole turn (`legal_moves()`) and searches at
most `ROOT_WIDE` (below the root `WIDE`): the ordered ones first (captures, promotions, killers),
then one of each distinct move part in turn. Every chosen turn is one the rules listed, so it is a
legal whole turn.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Callable, Collection, Hashable, Iterator

import rules

from .board import WHITE, Seen, seen as seen_of, square
from .evaluate import evaluate
from .features import uses_fen
from .levels import Level
from .profiles import OTHER_MAN, Profile

Key = tuple[Hashable, int, int]   # Game.key(): (the position for repetition, halfmove clock, fullmove number)

MATE = 100_000              # a win now; a win in n plies scores MATE - n
MATE_BOUND = MATE - 1_000   # scores beyond this are wins or losses, not material
INFINITY = 10 * MATE
WIDE = 36                   # turns searched at an inner node with turns of several parts
FINISHES = 2                # at an inner node, the ways of finishing each first part searched (rules listing part by part)
ROOT_WIDE = 48              # root turns searched after the static pre-screen
QUIET_DEPTH = 6             # plies of captures after the horizon
EXACT, LOWER, UPPER = 0, 1, 2
_FROM_TO = re.compile(r"([a-z]\d{1,2})([a-z]\d{1,2})([a-z]?)")


class Stop(Exception):
    """The time or node budget ran out."""


@dataclass
class Stats:
    nodes: int = 0
    depth: int = 0


def from_to(move: str, cache: dict[str, tuple[str, str, str, str]] = {}) -> tuple[str, str, str, str]:
    """The from-square, to-square and promotion letter of a turn's one board move (the part that
    moves a man, not a drop, swap or mirror), and that part's text; "" where it has none."""
    found = cache.get(move)
    if found is None:
        found = ("", "", "", move)
        for part in move.split(" "):
            match = _FROM_TO.fullmatch(part)
            if match:
                found = (match.group(1), match.group(2), match.group(3), part)
                break
        if len(cache) < 200_000:
            cache[move] = found
    return found


@dataclass
class Search:
    game: rules.Game
    profile: Profile
    level: Level
    deadline: float
    node_cap: float
    stats: Stats = field(default_factory=Stats)
    played: int = 0
    table: dict[Key, tuple[int, int, int, str | None]] = field(default_factory=dict)
    seen: dict[Key, Seen] = field(default_factory=dict)
    scores: dict[Key, int] = field(default_factory=dict)
    killers: dict[int, list[str]] = field(default_factory=dict)
    history: dict[str, int] = field(default_factory=dict)
    path: set[Hashable] = field(default_factory=set)
    bits: dict[str, tuple[int, int]] = field(default_factory=dict)   # a turn's board move: (from, to) as bits

    def __post_init__(self) -> None:
        self.quiescence = self.level.quiescence and self.profile.quiescence
        self.reads_fen = uses_fen(self.profile.features)

    # -- budget and moves -----------------------------------------------------------------------
    def tick(self) -> None:
        self.stats.nodes += 1
        if self.stats.nodes > self.node_cap or time.monotonic() > self.deadline:
            raise Stop

    def play(self, move: str) -> None:
        self.game.play_listed(move)
        self.played += 1

    def undo(self) -> None:
        self.game.undo()
        self.played -= 1

    def unwind(self) -> None:
        """Take back every turn the search played (after a Stop)."""
        while self.played:
            self.undo()

    # -- the position -----------------------------------------------------------------------------
    def look(self, key: Key) -> Seen:
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = seen_of(self.game, self.reads_fen)
        return found

    def static(self, key: Key) -> int:
        score = self.scores.get(key)
        if score is None:
            turns = 0
            if self.profile.mobility:   # counted by first parts, where the rules list turns part by part
                firsts = self.game.first_parts()
                turns = len(self.game.legal_moves() if firsts is None else firsts)
            score = self.scores[key] = evaluate(self.look(key), self.profile, turns)
        return score

    def terminal(self, outcome: rules.Outcome, ply: int) -> int:
        winner = outcome.winner
        if winner is None:
            return 0
        return MATE - ply if winner == self.game.turn else ply - MATE

    def gain(self, move: str, at: Seen, mover: str) -> int:
        """What a turn's board move captures, less a tenth of the capturer (0: no capture)."""
        bits = self.bits.get(move)
        if bits is None:
            start, target, _, _ = from_to(move)
            files = at.shape.files
            bits = self.bits[move] = (1 << square(start, files), 1 << square(target, files)) if target else (0, 0)
        if not bits[1] & at.owned[mover == WHITE]:
            return 0
        victim = at.kind_at(bits[1])
        values = self.profile.values
        worth = values.get(victim[0], OTHER_MAN) if victim else OTHER_MAN
        man = at.kind_at(bits[0])
        return (worth or 50) * 10 - (values.get(man[0], OTHER_MAN) if man else 0) // 10 + 1

    def ranking(self, key: Key, best: str | None, leads: Collection[str]) -> Callable[[str], int]:
        """How a turn (or a first part) ranks in the search's order: `best` first, then captures by
        victim and capturer, promotions, `leads` (killers), history."""
        at, mover, history = self.look(key), self.game.turn, self.history

        def rank(move: str) -> int:
            if move == best:
                return 1 << 40
            gain = self.gain(move, at, mover)
            if gain:
                return (1 << 30) + gain
            if from_to(move)[2] == "q" or move.endswith("q"):
                return 1 << 29
            if move in leads:
                return 1 << 28
            return history.get(move, 0)
        return rank

    def ordered(self, moves: list[str], key: Key, best: str | None, ply: int, wide: int = WIDE) -> list[str]:
        rank = self.ranking(key, best, self.killers.get(ply, ()))
        ranked = sorted(moves, key=rank, reverse=True)
        if len(ranked) > wide and " " in ranked[-1]:
            ranked = spread(ranked, rank)[:wide]
        return ranked

    def parted(self, firsts: list[str], key: Key, best: str | None, ply: int) -> Iterator[str]:
        """Where the rules list turns part by part: the first parts ordered as turns are (the table's
        best turn's, captures, promotions, killers', history), each finished in at most `FINISHES`
        ways listed by the rules (the table's best or a killer first, then by the history of the
        later parts, ties in the rules' order), up to `WIDE` turns. Lazy: a first part's turns are
        listed only when the search reaches it (a cut-off spares the rest)."""
        game, history = self.game, self.history
        leads = [move for move in (best, *self.killers.get(ply, ())) if move]
        rank = self.ranking(key, best.split(" ")[0] if best else None, {move.split(" ")[0] for move in leads})

        def finish(move: str) -> int:
            if move in leads:
                return (1 << 41) if move == best else 1 << 40
            return history.get(move.partition(" ")[2], 0)

        left = WIDE
        for first in sorted(firsts, key=rank, reverse=True):
            for move in sorted(game.completions(first), key=finish, reverse=True)[:min(FINISHES, left)]:
                left -= " " in move   # turns of one part are never cut
                yield move
            if not left:
                return

    # -- the search --------------------------------------------------------------------------------
    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        game = self.game
        outcome = game.outcome
        if outcome is not None:
            return self.terminal(outcome, ply)
        key = game.key()
        again = key[0]
        if again in self.path:
            return 0
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, key, 0) if self.quiescence else self.static(key)
        entry = self.table.get(key)
        best_move = None
        if entry is not None:
            stored_depth, flag, stored, best_move = entry
            if stored_depth >= depth:
                score = from_table(stored, ply)
                if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                    return score
        start_alpha = alpha
        best = -INFINITY
        self.path.add(again)
        firsts = game.first_parts()
        moves = self.ordered(game.legal_moves(), key, best_move, ply) if firsts is None else self.parted(firsts, key, best_move, ply)
        for move in moves:   # (turns of several parts: listed as the search reaches them)
            self.play(move)
            score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            self.undo()
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self.remember_cut(move, key, depth, ply)
                        break
        self.path.discard(again)
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, flag, to_table(best, ply), best_move)
        return best

    def remember_cut(self, move: str, key: Key, depth: int, ply: int) -> None:
        if self.gain(move, self.look(key), self.game.turn):
            return
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        for name in {move, *move.split(" ", 1)}:   # the turn, and its first and later parts apart
            self.history[name] = self.history.get(name, 0) + depth * depth

    def quiesce(self, alpha: int, beta: int, ply: int, key: Key, depth: int) -> int:
        """Captures only, from a judged position (`key`) that is not over."""
        stand = self.static(key)
        if stand >= beta or depth >= QUIET_DEPTH:
            return stand
        alpha = max(alpha, stand)
        at = self.look(key)
        mover = self.game.turn
        captures: dict[str, tuple[int, str]] = {}
        for move in self.game.legal_moves():
            gain = self.gain(move, at, mover)
            if gain:
                part = from_to(move)[3]
                if part not in captures:   # one turn per capture (the first listed way to finish it)
                    captures[part] = (gain, move)
        best = stand
        for gain, move in sorted(captures.values(), reverse=True):
            if stand + gain // 10 + 200 <= alpha:
                continue   # even winning this man back cannot lift the score to alpha
            self.play(move)
            self.tick()
            outcome = self.game.outcome
            if outcome is not None:
                score = -self.terminal(outcome, ply + 1)
            else:
                score = -self.quiesce(-beta, -alpha, ply + 1, self.game.key(), depth + 1)
            self.undo()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


def spread(ranked: list[str], rank: Callable[[str], int]) -> list[str]:
    """Turns of several parts, best-ranked kept in front, the quiet rest taken one per distinct
    move part in turn, so that a cut keeps every move part's first way of finishing the turn."""
    front = [m for m in ranked if rank(m)]
    groups: dict[str, list[str]] = {}
    for move in ranked[len(front):]:
        groups.setdefault(from_to(move)[3], []).append(move)
    rest: list[str] = []
    lists = list(groups.values())
    for index in range(max((len(group) for group in lists), default=0)):
        rest.extend(group[index] for group in lists if index < len(group))
    return front + rest


def to_table(score: int, ply: int) -> int:
    return score + ply if score > MATE_BOUND else score - ply if score < -MATE_BOUND else score


def from_table(score: int, ply: int) -> int:
    return score - ply if score > MATE_BOUND else score + ply if score < -MATE_BOUND else score

