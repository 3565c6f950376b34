"""Ratings, leaderboards and profiles."""
from __future__ import annotations

import logging
from dataclasses import replace

import rules

from .. import daily
from . import seats as computer
from ..store import GameRecord, GameStatus, PlayerRating
from ..timing import plural
from .tables import Tables
from .types import Line, Mark, Player, Reply, Who

log = logging.getLogger(__name__)


class Records(Tables):
    """Ratings and the boards made of them."""

    async def _rate(self, record: GameRecord) -> None:
        """Rate a finished game between two different members. The store keys it by game id,
        so rating it again (a retry, a second process) changes nothing. The game itself is
        already saved: a failure here is logged, never turned into the player's error."""
        variant = rated_as(record)
        if variant is None:
            return
        score = {"1-0": 1.0, "0-1": 0.0}.get(record.result or "", 0.5)
        for attempt in (1, 2):   # once more after an error: rated already, the retry changes nothing
            try:
                await self.store.rate(self._id(record), record.guild_id or "", variant,
                                      record.players[0], record.players[1], score, self.clock())
                return
            except Exception:
                log.exception("could not rate game %s (attempt %d; a leaderboard or profile of its "
                              "server rates it later)", record.id, attempt)

    async def _recover_ratings(self, guild: str) -> None:
        """Rate the server's finished games left unrated (a rating write failed, or the process died
        just after the game was saved), oldest first, before its ratings are shown."""
        for record in await self.store.unrated_finishes(guild):
            if rated_as(record) is not None:
                log.warning("rating game %s, finished without its rating", record.id)
                await self._rate(record)

    async def leaderboard(self, guild: str | None, user: Player, slug: str) -> Reply:
        info = self._variant(slug)
        where = guild or ""
        if info.players == 1:
            return await self._puzzle_board(where, info)
        await self._recover_ratings(where)
        top = await self.store.leaderboard(where, info.slug, 10)
        if not top:
            return Reply([("No rated ", Mark(info.name), " games here yet. Finish a /challenge game to get on the board.")])
        lines: list[Line] = [(Mark(info.name), " leaderboard")]
        lines += [(f"{n}. ", Who(Player(row.player_id, row.name), strong=True), f" {rating_text(row)} · {plural(row.games, 'game')}")
                  for n, row in enumerate(top, start=1)]
        mine = await self.store.rating_place(where, info.slug, user.id)
        if mine is None:
            lines.append((Who(user), f", you have no rated {info.name} games here yet."))
        else:
            place, row = mine
            lines.append((Who(user), f", you are #{place} with {rating_text(row)} after {plural(row.games, 'game')}."))
        return Reply(lines)

    async def _puzzle_board(self, guild: str, info: rules.VariantInfo) -> Reply:
        """A puzzle's all-time board here: each player's best finished score, solved before not solved."""
        higher = info.score_better == "higher"
        best = daily.best_per_player(await self.store.best_scores(guild, info.slug, higher, 1000))
        lines: list[Line] = [(Mark(info.name), ": best score per player here, solved before not solved "
                              f"({info.score_better} {info.score_name} is better)")]
        for n, rec in enumerate(best, start=1):
            unsolved = " · not solved" if rec.result != "solved" else ""
            hints = f" · {plural(rec.hints, 'hint')}" if rec.hints else ""
            lines.append((f"{n}. ", Who(Player(*rec.players[0]), strong=True),
                          f" {daily.score_text(info, rec.score)}{unsolved}{hints} (game #{rec.id})"))
        if not best:
            lines.append((f"No finished {info.name} puzzles here yet.",))
        if info.slug in rules.DAILY_SLUGS:
            lines.append(("Today's deal has its own board: ", Mark(f"/leaderboard {info.slug} daily:True", code=True), "."))
        return Reply(lines)

    async def profile(self, guild: str | None, member: Player) -> Reply:
        await self._recover_ratings(guild or "")
        rows = await self.store.player_ratings(guild or "", member.id)
        against = [(computer.read_record_key(row.variant), row) for row in rows]
        rated = [row for key, row in against if key is None]
        if not rows:
            return Reply([(Who(member, "has"), " no rated games here yet.")])
        lines: list[Line] = [(Who(member, strong=True),)] + ([] if rated else [("No rated games here yet.",)])
        for row in rated:
            info = rules.VARIANTS.get(row.variant)
            name = info.name if info else row.variant
            lines.append((f"{name}: {rating_text(row)} · {_results(row)}",))
        played: dict[tuple[str, int], PlayerRating] = {}   # one record per level there is (seats.nearest)
        for key, row in against:
            if key is None:
                continue
            kept = played.get(key)
            played[key] = row if kept is None else replace(
                kept, games=kept.games + row.games, wins=kept.wins + row.wins, draws=kept.draws + row.draws,
                losses=kept.losses + row.losses)
        if played:
            lines.append(("Against the computer (not rated):",))
        for (slug, level), row in sorted(played.items()):
            info = rules.VARIANTS.get(slug)
            lines.append((f"{info.name if info else slug}, level {level}: {_results(row)}",))
        return Reply(lines)


def is_rated(record: GameRecord) -> bool:
    """A two-player game between two different members that ended with a result."""
    return (len(record.players) == 2 and record.players[0][0] != record.players[1][0]
            and record.status == GameStatus.FINISHED and record.result in ("1-0", "0-1", "1/2-1/2")
            and computer.seat(record.players) is None)


def rated_as(record: GameRecord) -> str | None:
    """The ratings key a finished game counts under: its variant between members; against the
    computer the member's record against that level (bot/service/seats.py), never a rating
    among people; None when it counts nowhere."""
    index = computer.seat(record.players)
    if index is None:
        return record.variant if is_rated(record) else None
    if record.status != GameStatus.FINISHED or record.result not in ("1-0", "0-1", "1/2-1/2"):
        return None
    return computer.record_key(record.variant, computer.level_of(record.players[index][0]))


def _results(row) -> str:
    return (f"{plural(row.games, 'game')}: {plural(row.wins, 'win')}, {plural(row.draws, 'draw')}, "
            f"{plural(row.losses, 'loss')}")


def rating_text(row) -> str:
    """1712, or 1712? while the rating is still provisional (deviation above 110, as lichess)."""
    return f"{round(row.rating)}{'?' if row.rd > 110 else ''}"
