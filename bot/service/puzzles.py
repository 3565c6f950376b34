"""Solo puzzles' extras: the daily deals and their boards, and hints."""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Iterable
from datetime import datetime

import rules

from .. import daily
from ..store import DailyResult, GameRecord, GameStatus, daily_key
from ..timing import plural
from .tables import Live, Tables, tells_notices
from .present import moved
from .types import RULES_VERSION, Line, Mark, Player, Reply, UserError, Who

log = logging.getLogger(__name__)

# Hints search for seconds each: they get threads of their own, so hints asked at once wait for
# each other, never the default pool that judges moves and draws boards (asyncio.to_thread).
HINTS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kibitz-hint")


class Puzzles(Tables):
    """Daily deals and hints."""

    def today(self) -> str:
        """The UTC day (YYYY-MM-DD) by the service's timer: the day whose deal is dealt."""
        return daily.utc_day(self.timer()).isoformat()

    async def daily_deal(self, slug: str) -> rules.DailyDeal:
        """Today's deal of a puzzle. KingSwap!'s takes the solver up to a few seconds: it runs in
        a worker thread, once per puzzle and day."""
        info = self._variant(slug)
        if info.slug not in rules.DAILY_SLUGS:
            names = ", ".join(rules.VARIANTS[s].name for s in rules.DAILY_SLUGS)
            raise UserError(f"{info.name} has no daily deal: {names} have one.")
        day = self.today()
        key = (info.slug, day)
        async with self._lock(f"daily-deal:{info.slug}"):
            deal = self._deals.get(key)
            if deal is None:
                try:
                    deal = await asyncio.to_thread(rules.daily_deal, info.slug, datetime.fromisoformat(day).date())
                except RuntimeError:
                    log.exception("no daily deal of %s for %s", info.slug, day)
                    raise UserError(f"I could not find a {info.name} deal for today. Please try again tomorrow.") from None
                self._deals = {k: v for k, v in self._deals.items() if k[1] == day}   # keep today's only
                self._deals[key] = deal
        return deal

    async def daily_copy(self, user: Player, slug: str) -> GameRecord | None:
        """The member's copy of today's deal, if they have one."""
        info = self._variant(slug)
        copies = await self.store.daily_games(self.today(), info.slug, user.id)
        return copies[0] if copies else None

    @tells_notices
    async def start_daily(self, channel: str, user: Player, slug: str, guild: str | None = None,
                          home: str | None = None) -> Reply:
        """Deal today's puzzle to `user`, played in `channel` (their private thread or DM). One copy
        a day: asking again is refused (front ends link the copy found by `daily_copy`)."""
        await self.check_start(guild, slug, players=1)
        deal = await self.daily_deal(slug)
        info = rules.VARIANTS[deal.slug]
        # one copy a day, even when asked for twice at once
        async with self._lock(f"daily:{user.id}:{info.slug}"), self._lock(channel):
            if await self.daily_copy(user, info.slug) is not None:
                raise UserError(f"You already have today's {info.name} deal: one copy a day.")
            await self._refuse_if_busy(channel)
            game = rules.new_game(info.slug, seed=deal.seed, fen=deal.fen)
            now = self.clock()
            # A daily seed is 64 bits, more than an SQL integer holds: the record keeps the start
            # position (enough to replay) and the day (which names the deal), not the seed.
            record = GameRecord(info.slug, channel, [(user.id, user.name)], game.fen(), GameStatus.ACTIVE, guild,
                                seed=None, start_fen=deal.fen, created_at=now, updated_at=now,
                                rules_version=RULES_VERSION, home_channel_id=home or channel,
                                daily=deal.day.isoformat(), par=deal.par)
            self._settle(record, game)
            await self._create(record)
            self._live[channel] = Live(record, game)
            target = f", target level {deal.level}" if deal.level else ""
            par = f", par {deal.par}" if deal.par is not None else ""
            return await self._board_reply(
                record, game, (Who(user, "starts"), " today's ", Mark(info.name), f" daily deal ({deal.day.isoformat()}"
                               f"{target}{par}). Only your first finish counts for the daily board."))

    async def daily_board(self, guild: str | None, user: Player, slug: str) -> Reply:
        """The server's results for today's deal, best first."""
        deal_info = self._variant(slug)
        if deal_info.slug not in rules.DAILY_SLUGS:
            raise UserError(f"{deal_info.name} has no daily deal, so no daily board.")
        deal = await self.daily_deal(deal_info.slug)   # worked out once a day (for its par)
        day = deal.day.isoformat()
        await self._recover_daily_results(day, deal_info.slug, guild or "")
        rows = await self.store.daily_results(guild or "", deal_info.slug, day)
        return Reply(_board_lines(deal_info, day, rows, deal.par))

    def _daily_result(self, record: GameRecord, finished_at: str) -> DailyResult:
        return DailyResult(record.daily or "", record.variant, record.players[0][0], record.guild_id or "",
                           record.players[0][1], self._id(record), record.result == "solved", record.score,
                           record.hints, record.plies_played, finished_at)

    async def _recover_daily_results(self, day: str, variant: str, guild: str) -> None:
        """Keep the results of finishes saved just before the process died, before their result was
        written: such a copy is still exactly as it finished (any later change comes through here first)."""
        for record in await self.store.unrecorded_daily_finishes(day, variant, guild):
            if await self.store.add_daily_result(self._daily_result(record, record.updated_at)):
                log.warning("kept the daily result of game %s, finished before a restart", record.id)

    async def _daily_after_commit(self, record: GameRecord) -> None:
        """A daily copy just changed: keep its first finish as the day's result (once), and tell
        the player whether this finish counted or the copy is practice now. The game is already
        saved: a failure here is logged, never turned into the player's error."""
        try:
            if record.is_open:
                if record.plies_played > len(record.moves):   # only a copy taken back can have finished
                    kept = await self.store.daily_results(record.guild_id or "", record.variant, record.daily or "")
                    if any(row.game_id == record.id for row in kept):
                        self._notices[record.channel_id] = daily.PRACTICE
                return
            counted = await self.store.add_daily_result(self._daily_result(record, self.clock()))
            self._notices[record.channel_id] = (daily.COUNTED.format(slug=record.variant) if counted
                                                else daily.PRACTICE)
        except Exception:
            log.exception("could not keep the daily result of game %s", record.id)

    @tells_notices
    async def hint(self, channel: str, user: Player, seconds: float = 2.0, node_budget: int | None = None) -> Reply:
        """One good next move and why, searched in a worker thread (at most about `seconds`, or at
        most `node_budget` positions when given: the same answer on any machine, as tests need);
        each hint shown is counted in the record."""
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            if not record.solo:
                raise UserError("Hints are for solo puzzles.")
            self._seat(record, user)
            if not game.info.hints:
                raise UserError(f"{game.info.name} has no hints.")
            found = await asyncio.get_running_loop().run_in_executor(HINTS, rules.hint, game, seconds, node_budget)
            if found is None:
                within = f"{seconds:g} seconds" if node_budget is None else f"{node_budget:,} positions"
                return Reply(f"No hint: the search found no good move within {within}. Nothing was counted.",
                             game_id=record.id)
            if found.move is None:   # proved lost: no move to hint, so nothing is counted
                return Reply([(f"No hint: {found.reason} ", Mark("/undo", code=True), " takes moves back. "
                               "Nothing was counted.")],
                             game_id=record.id)
            before = record.copy()
            record.hints += 1
            await self._save(live, before)
            label = game.label(found.move)
            return Reply([("Hint for ", Who(user), ": ", *moved(label, found.move), f". {found.reason}"),
                          (f"{plural(record.hints, 'hint')} taken in this puzzle (shown beside the final score).",)],
                         game_id=record.id)


def _board_lines(info: rules.VariantInfo, day: str, rows: Iterable[DailyResult], par: int | None) -> list[Line]:
    """The server's results for the deal of `day`, in score-board order."""
    higher = info.score_better == "higher"
    ranked = sorted(rows, key=lambda row: daily_key(row, higher))
    head = f" daily deal of {day}" + (f" · par {par}" if par is not None else "")
    lines: list[Line] = [(Mark(info.name), head + f" ({info.score_better} {info.score_name} is better)")]
    for n, row in enumerate(ranked, start=1):
        verdict = "solved" if row.solved else "not solved"
        lines.append((f"{n}. ", Who(Player(row.player_id, row.name), strong=True), f" {daily.score_text(info, row.score)} · "
                      f"{verdict} · {plural(row.hints, 'hint')} · {plural(row.plies, 'turn')} played"))
    if not ranked:
        lines.append(("No finishes of today's deal here yet. ", Mark(f"/puzzle {info.slug} daily:True", code=True),
                      " deals it to you."))
    return lines
