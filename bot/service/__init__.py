"""The service every front end calls: games, players and channels. Knows nothing of Discord.

Each call takes the channel key (a channel id, or a thread id inside a thread) and the acting
player, checks, changes the game, commits it to the store, then answers with a Reply. User
mistakes raise UserError with a short sentence and change nothing.
"""
from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Callable

import rules
from rules import Game, IllegalMove, Outcome, describe_view

from .. import daily
from ..builder import Menu, menu as builder_menu
from ..settings import MAX_DAYS, MIN_DAYS, ServerSettings
from ..store import OPEN_SEAT, ChannelBusy, DailyResult, GameRecord, StaleRecord
from ..suggest import suggest
from ..timing import DAY, duration, plural
from .present import Presenter, _age, _ago, _parse_time
from .records import Records, is_rated, rating_text
from .tables import Tables, _Live, _tells_notices
from .types import RULES_VERSION, STALE, UNSURE, DueEvent, DueSignal, Player, Reply, UserError
from .exports import Exports

__all__ = ["GameService", "UserError", "Player", "Reply", "DueEvent", "DueSignal", "STALE", "UNSURE", "RULES_VERSION",
           "duration", "is_rated", "rating_text", "suggest"]

log = logging.getLogger(__name__)
# Hints search for seconds each: they get threads of their own, so hints asked at once wait for
# each other, never the default pool that judges moves and draws boards (asyncio.to_thread).
HINTS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kibitz-hint")
COLOURS = ("white", "black", "random")


class GameService(Exports, Records, Presenter, Tables):
    """Every call a front end makes, one part per job (see the modules of this package)."""

    REMIND_SHARE = 0.25   # the player to move is reminded when this share of their time is left

    DUE_PAGE = 100   # due records read at a time

    def _first_due(self, record: GameRecord) -> float | None:
        """The first due_at of a move's clock: the reminder's time (see `deadline_of`)."""
        if not record.move_seconds or record.solo:
            return None
        return self.timer() + record.move_seconds * (1 - self.REMIND_SHARE)

    @classmethod
    def deadline_of(cls, record: GameRecord) -> float | None:
        """When the player to move runs out of time. While a game goes on, due_at is the next
        thing due: the reminder's time until the reminder is sent, then the deadline itself."""
        if record.status != "active" or record.due_at is None or record.reminded or not record.move_seconds:
            return record.due_at
        return record.due_at + record.move_seconds * cls.REMIND_SHARE

    async def next_due(self, after: float | None = None) -> float | None:
        """The earliest stored deadline (later than `after`, if given), whoever's guild it is."""
        return await self.store.next_due(after)

    async def due_events(self, now: float | None = None,
                         owns: Callable[[str | None], bool] | None = None) -> list[DueEvent]:
        """Carry out what is due by `now` (default: the timer) in the guilds `owns` accepts:
        expire challenges, remind players, end games on time. Each is a compare-and-set on the
        record, so a move made meanwhile, or another process, wins and nothing fires twice."""
        now = self.timer() if now is None else now
        events: list[DueEvent] = []
        for record in await self._due_here(now, owns):
            try:
                event = await (self._expire(record) if record.status == "challenge" else self._clock_due(record, now))
            except UserError:   # changed meanwhile (a move, an answer, another process): nothing fired
                continue
            except Exception:
                log.exception("could not carry out the deadline of game %s", record.id)
                continue
            if event is not None:
                events.append(event)
        return events

    async def _due_here(self, now: float, owns: Callable[[str | None], bool] | None) -> list[GameRecord]:
        """The due records of the guilds `owns` accepts. Where a whole page is other processes'
        (one of them down a while, its deadlines piling up), read further rather than see none."""
        limit = self.DUE_PAGE
        while True:
            rows = await self.store.due(now, limit)
            mine = [r for r in rows if owns is None or owns(r.guild_id)]
            if mine or len(rows) < limit:
                return mine
            limit *= 4

    async def _expire(self, record: GameRecord) -> DueEvent:
        before = record.copy()
        record.status, record.due_at = "expired", None
        await self._save(_Live(record, None), before)
        info = rules.VARIANTS.get(record.variant)
        name = info.name if info else record.variant
        challenger = next((n for p, n in record.players if p == record.challenger_id), "Someone")
        other = next((n for p, n in record.players if p and p != record.challenger_id), "anyone")
        text = (f"{challenger}'s challenge to {other} (**{name}**, game #{record.id}) expired: "
                f"no answer within {duration(self.challenge_ttl)}.")
        return DueEvent("expired", record, Reply(text, game_id=record.id, finished=True))

    async def _clock_due(self, record: GameRecord, now: float) -> DueEvent | None:
        channel = record.channel_id
        async with self._lock(channel):
            live = await self._load(channel)
            if live is None or live.game is None or live.record.id != record.id:
                self._live.pop(channel, None)   # memory and store disagree: read it again next time
                return None
            record, game = live.record, live.playing
            if record.due_at is None or record.due_at > now or game.outcome is not None:
                return None   # a move came first
            seat = 0 if game.turn == rules.WHITE else 1
            mover_id, mover = record.players[seat]
            before = record.copy()
            deadline = self.deadline_of(record) or now
            if not record.reminded and deadline > now:
                left = deadline - now
                record.reminded, record.due_at = True, deadline
                await self._save(live, before)
                ping = mover_id if await self.store.pings(mover_id) else None
                return DueEvent("reminder", record.copy(), Reply(
                    f"{mover}, your move in **{game.info.name}** (game #{record.id}) is due within "
                    f"{duration(left)}; after that it is lost on time.", game_id=record.id, ping=ping))
            game.finish(Outcome.win(rules.BLACK if seat == 0 else rules.WHITE, "time", kind="time"))
            await self._commit(live, before, undo=lambda: game.finish(None))
            reply = await self._board_reply(record, game, f"{mover} ran out of time.")
            return DueEvent("timeout", record.copy(), reply)

    GAMES_SHOWN = 20   # lines of /games; the rest are counted

    async def server_settings(self, guild: str | None) -> ServerSettings:
        """A server's settings (defaults outside a server, or where none were saved)."""
        return ServerSettings.from_dict(await self.store.settings(guild)) if guild else ServerSettings()

    async def check_start(self, guild: str | None, slug: str, players: int) -> rules.VariantInfo:
        """The variant to start, refused where it is the wrong kind or turned off in this server.
        Cheap: front ends call it before they open a thread for the game."""
        info = self._variant(slug)
        if players == 2 and info.players != 2:
            raise UserError(f"{info.name} is a solo puzzle: use /puzzle.")
        if players == 1 and info.players != 1:
            raise UserError(f"{info.name} is a two-player game: use /challenge.")
        if not (await self.server_settings(guild)).allows(info.slug):
            raise UserError(f"{info.name} is turned off in this server; /settings shows what is on.")
        return info

    async def show_settings(self, guild: str | None, channel_name: Callable[[str], str] = str) -> Reply:
        if guild is None:
            raise UserError("Settings belong to a server; there are none in direct messages.")
        return Reply(self._settings_text(await self.server_settings(guild), channel_name), ephemeral=True)

    async def change_settings(self, guild: str | None, *, enable: str | None = None, disable: str | None = None,
                              threads: bool | None = None, days: int | None = None, announce: str | None = None,
                              stop_announcing: bool = False, channel_name: Callable[[str], str] = str) -> Reply:
        """Change a server's settings (the front end has checked the member may). `enable` "all"
        turns every variant back on; `days` 0 goes back to the bot's default."""
        if guild is None:
            raise UserError("Settings belong to a server; there are none in direct messages.")
        async with self._lock(f"settings:{guild}"):   # read, change, write: two changes at once both stay
            current = await self.server_settings(guild)
            disabled = set(current.disabled)
            if enable is not None:
                if enable.strip().lower() == "all":
                    disabled.clear()
                else:
                    disabled.discard(self._variant(enable).slug)
            if disable is not None:
                if disable.strip().lower() == "all":
                    raise UserError("Turn variants off one at a time; `enable all` turns them all back on.")
                disabled.add(self._variant(disable).slug)
            if days is not None and not (days == 0 or MIN_DAYS <= days <= MAX_DAYS):
                raise UserError(f"Default days per move must be {MIN_DAYS} to {MAX_DAYS} (0 goes back to the bot's default).")
            changed = ServerSettings(
                disabled=frozenset(disabled),
                threads=current.threads if threads is None else threads,
                days=current.days if days is None else (days or None),
                announce=None if stop_announcing else (announce or current.announce))
            if changed != current:
                async def saved() -> bool:
                    return await self.server_settings(guild) == changed

                await self._confirmed(self.store.save_settings(guild, changed.to_dict(), self.clock()), saved,
                                      f"settings of {guild}")
        head = "Settings saved." if changed != current else "Nothing changed."
        return Reply(f"{head}\n{self._settings_text(changed, channel_name)}", ephemeral=True)

    def _settings_text(self, settings: ServerSettings, channel_name: Callable[[str], str]) -> str:
        off = sorted(rules.VARIANTS[s].name for s in settings.disabled if s in rules.VARIANTS)
        if self.move_deadline:
            seconds = int(self.move_deadline)
            default = plural(seconds // DAY, "day") if seconds % DAY == 0 else plural(seconds, "second")
        else:
            default = "no deadline"
        lines = ["**Kibitz settings for this server**",
                 "Variants: " + ("all on." if not off else "all on except " + ", ".join(off) + "."),
                 "Threads: " + ("on: an accepted challenge or a puzzle gets a thread of its own."
                                if settings.threads else "off: games are played where they are asked for."),
                 "Default time per move: " + (plural(settings.days, "day") if settings.days
                                              else f"{default} (the bot's default)") + ".",
                 "Challenges announced in: " + (channel_name(settings.announce) if settings.announce
                                                else "only the channel where they are made") + ".",
                 "Change with /settings enable, disable, threads, days, announce or stop_announcing."]
        return "\n".join(lines)

    async def set_pings(self, user: Player, on: bool) -> Reply:
        async def saved() -> bool:
            return await self.store.pings(user.id) == on

        await self._confirmed(self.store.set_pings(user.id, on, self.clock()), saved, f"pings of {user.id}")
        text = ("You will be pinged when it is your move." if on else
                "You will no longer be pinged when it is your move; /pings on turns it back on.")
        return Reply(text, ephemeral=True)

    async def _ping_next(self, reply: Reply, record: GameRecord, game: Game) -> Reply:
        """Mark the answer to ping the player now to move (two-player games), unless they opted out."""
        if record.solo or game.outcome is not None:
            return reply
        pid = record.players[0][0] if game.turn == rules.WHITE else record.players[1][0]
        return await self._ping_member(reply, pid)

    async def _ping_member(self, reply: Reply, pid: str) -> Reply:
        """Mark the answer to ping member `pid`, unless they turned pings off."""
        try:
            if pid and await self.store.pings(pid):
                reply.ping = pid
        except Exception:   # the change is committed: a missing ping is no reason to fail its answer
            log.exception("could not read the ping preference of %s", pid)
        return reply

    async def games(self, guild: str | None, link: Callable[[GameRecord], str | None] | None = None) -> Reply:
        """The server's games in play and waiting challenges: variant, players, whose turn, age
        of the last move, and `link(record)` where the front end can point to it."""
        # A daily copy is played in private (nobody sees another's solution): not listed.
        rows = [r for r in await self.store.open_in_guild(guild) if r.daily is None]
        if not rows:
            return Reply("No games or challenges are open here. Start one with /challenge or /puzzle.")
        now = _parse_time(self.clock())
        lines = [f"**Open games and challenges** ({len(rows)})"]
        for record in rows[:self.GAMES_SHOWN]:
            info = rules.VARIANTS.get(record.variant)
            name = info.name if info else record.variant
            if record.status == "challenge":
                challenger = next((n for p, n in record.players if p == record.challenger_id), "someone")
                other = next((n for p, n in record.players if p and p != record.challenger_id), "anyone")
                line = f"Challenge: {challenger} to {other} · **{name}** · made {_age(record.created_at, now)}"
            elif record.solo:
                line = (f"**{name}** puzzle · {record.players[0][1]} · "
                        f"{plural(len(record.moves), 'move')}, last {_age(record.updated_at, now)}")
            else:
                black_to_move = len(record.fen.split()) > 1 and record.fen.split()[1] == "b"
                to_move = record.players[1 if black_to_move else 0][1]
                last = f"last move {self._since_move(record, now)}" if record.moves else \
                    f"started {self._since_move(record, now)}"
                line = (f"**{name}** · {record.players[0][1]} vs {record.players[1][1]} · "
                        f"{to_move} to move · {last}")
            where = link(record) if link is not None else None
            lines.append(f"- {line}" + (f" · {where}" if where else ""))
        if len(rows) > self.GAMES_SHOWN:
            lines.append(f"…and {len(rows) - self.GAMES_SHOWN} more.")
        return Reply("\n".join(lines))

    def _since_move(self, record: GameRecord, now: datetime | None) -> str:
        """How long ago the last move (or the start) was. A game with a clock knows it exactly:
        its clock started then (a reminder or a draw offer saves the record later). Else the last save."""
        deadline = self.deadline_of(record)
        if record.move_seconds and deadline is not None:
            return _ago(self.timer() - (deadline - record.move_seconds))
        return _age(record.updated_at if record.moves else record.created_at, now)

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

    @_tells_notices
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
            record = GameRecord(info.slug, channel, [(user.id, user.name)], game.fen(), "active", guild,
                                seed=None, start_fen=deal.fen, created_at=now, updated_at=now,
                                rules_version=RULES_VERSION, home_channel_id=home or channel,
                                daily=deal.day.isoformat(), par=deal.par)
            self._settle(record, game)
            await self._create(record)
            self._live[channel] = _Live(record, game)
            target = f", target level {deal.level}" if deal.level else ""
            par = f", par {deal.par}" if deal.par is not None else ""
            return await self._board_reply(
                record, game, f"{user.name} starts today's **{info.name}** daily deal ({deal.day.isoformat()}"
                              f"{target}{par}). Only your first finish counts for the daily board.")

    async def daily_board(self, guild: str | None, user: Player, slug: str) -> Reply:
        """The server's results for today's deal, best first."""
        deal_info = self._variant(slug)
        if deal_info.slug not in rules.DAILY_SLUGS:
            raise UserError(f"{deal_info.name} has no daily deal, so no daily board.")
        deal = await self.daily_deal(deal_info.slug)   # worked out once a day (for its par)
        day = deal.day.isoformat()
        await self._recover_daily_results(day, deal_info.slug, guild or "")
        rows = await self.store.daily_results(guild or "", deal_info.slug, day)
        return Reply("\n".join(daily.board_lines(deal_info, day, rows, deal.par)))

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

    @_tells_notices
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
            found = await asyncio.get_running_loop().run_in_executor(HINTS, game.hint, seconds, node_budget)
            if found is None:
                within = f"{seconds:g} seconds" if node_budget is None else f"{node_budget:,} positions"
                return Reply(f"No hint: the search found no good move within {within}. Nothing was counted.",
                             game_id=record.id)
            if found.move is None:   # proved lost: no move to hint, so nothing is counted
                return Reply(f"No hint: {found.reason} `/undo` takes moves back. Nothing was counted.",
                             game_id=record.id)
            before = record.copy()
            record.hints += 1
            await self._save(live, before)
            label = game.label(found.move)
            shown = f"**{label}** (`{found.move}`)" if label != found.move else f"`{found.move}`"
            return Reply(f"Hint for {user.name}: {shown}. {found.reason}\n"
                         f"{plural(record.hints, 'hint')} taken in this puzzle (shown beside the final score).",
                         game_id=record.id)

    @_tells_notices
    async def move(self, channel: str, user: Player, text: str) -> Reply:
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            self._require_turn(record, game, user)
            before = record.copy()
            try:
                # A turn may take milliseconds to judge (Balanced Swap lists ~1000): keep it off the loop,
                # with the board reply composed in the same trip.
                reply = await asyncio.to_thread(self._play_and_compose, record, game, user, text)
            except IllegalMove as exc:
                raise UserError(str(exc)) from None
            return await self._commit_played(live, before, user, reply)

    def _play_and_compose(self, record: GameRecord, game: Game, user: Player, text: str) -> Reply | None:
        """Play `user`'s turn `text` and compose the board reply, in one worker thread trip (the
        caller holds the channel's lock). Raises IllegalMove with nothing changed. The reply is
        only sent if the commit that follows goes through (else the commit puts game and record
        back); None when composing failed: it is composed again after the commit, as any board."""
        played = game.play(text)
        record.moves.append(played)
        record.plies_played += 1
        self._cancel_offers(record, user)
        self._settle(record, game)   # the reply shows the settled record (a finished game's Rematch)
        try:
            return self._compose_board(record, game, lambda label: f"{user.name} plays {label}.")
        except Exception:   # noqa: BLE001 - not committed yet: the commit decides, the board comes after
            return None

    async def _commit_played(self, live: _Live, before: GameRecord, user: Player, reply: Reply | None) -> Reply:
        """Commit a turn `_play_and_compose` played; its reply, with the ping for the player to move."""
        record, game = live.record, live.playing
        await self._commit(live, before, undo=game.undo, settled=True)
        if reply is None:
            reply = await self._board_reply(record, game, lambda label: f"{user.name} plays {label}.")
        return await self._ping_next(reply, record, game)

    @staticmethod
    def _cancel_offers(record: GameRecord, mover: Player) -> None:
        """A move cancels any takeback request, and the draw offer of the mover's opponent (an
        offer stands until the opponent moves; the offering player's own move keeps it)."""
        record.takeback_offer = None
        if record.draw_offer and record.draw_offer != mover.id:
            record.draw_offer = None

    @_tells_notices
    async def board(self, channel: str) -> Reply:
        async with self._lock(channel):
            live = await self._load(channel)
            if live is None or live.game is None:
                ended = await self._ended_here(channel)
                if ended is None:
                    await self._no_game(channel)
                return await self._final_board(ended)
            return await self._board_reply(live.record, live.playing, "")

    async def flipped_board(self, channel: str) -> Reply:
        """The game shown here turned round (Black at the bottom), for one player's eyes only: the
        one /board shows (the game in play, else the one that ended here, aborted ones too)."""
        async with self._lock(channel):
            live = await self._load(channel)
            if live is not None and live.game is not None:
                record = live.record.copy()
            else:
                ended = await self._ended_here(channel)
                if ended is None:
                    await self._no_game(channel)
                record = ended
        try:
            game = await asyncio.to_thread(lambda: self._revive(record).playing)
            view = game.view()
            image = await asyncio.to_thread(self.renderer, view, rules.BLACK)
        except Exception:
            log.exception("could not show game %s turned round", record.id)
            raise UserError("That game cannot be shown after an update to Kibitz.") from None
        return Reply(f"**{game.info.name}** · game #{record.id}, seen from Black's side (only you see this).",
                     image, describe_view(view, game.info.name), f"kibitz-{record.id}-flipped.png",
                     ephemeral=True, game_id=record.id, view=view)

    @_tells_notices
    async def undo(self, channel: str, user: Player) -> Reply:
        async with self._lock(channel):
            live = await self._load(channel)
            if live is None or live.game is None:
                live = await self._reopen_last_puzzle(channel, user)
            record, game = live.record, live.playing
            if not record.solo:
                raise UserError("Takebacks are only for solo puzzles.")
            self._seat(record, user)
            before = record.copy()
            final = game.outcome
            try:
                taken = game.undo()
            except IllegalMove as exc:
                raise UserError(str(exc)) from None
            record.moves.pop()
            was_finished = record.status == "finished"

            def redo() -> None:
                game.play(taken)
                if game.outcome is None and final is not None:
                    game.finish(final)

            try:
                await self._commit(live, before, undo=redo)
            except ChannelBusy:
                raise UserError("Another game has started in this channel since.") from None
            if was_finished:
                self._live[channel] = live
            return await self._board_reply(record, game, f"{user.name} takes back {taken}.")

    async def _reopen_last_puzzle(self, channel: str, user: Player) -> _Live:
        record = await self.store.latest(channel, ("finished",))
        if record is None or not record.solo or not record.moves:
            raise UserError("No puzzle to take a move back in.")
        if record.players[0][0] != user.id:
            raise UserError("You are not playing in this game.")
        if record.daily:   # its first finish is kept before the copy can change
            await self._recover_daily_results(record.daily, record.variant, record.guild_id or "")
        try:
            return self._revive(record)
        except Exception:
            log.exception("finished puzzle %s cannot be replayed", record.id)
            raise UserError("That puzzle cannot be restored after an update to Kibitz.") from None

    async def move_suggestions(self, channel: str, user: Player, prefix: str = "", limit: int | None = 25) -> list[str]:
        """Legal turns (or their first parts) starting with `prefix`, narrowed part by part."""
        return [value for value, _ in await self.move_choices(channel, user, prefix, limit)]

    async def move_choices(self, channel: str, user: Player, prefix: str = "",
                           limit: int | None = 25) -> list[tuple[str, str]]:
        """(value, name) pairs for /move autocomplete: the value to play, the name showing the
        SAN of the turn's first part. A partial value ("b8c6") stands for all turns beginning so."""
        async with self._lock(channel):
            live = self._live.get(channel) or await self._load(channel)
            if live is None or live.game is None or live.game.outcome:
                return []
            try:
                self._require_turn(live.record, live.game, user)
            except UserError:
                return []   # nothing to offer someone who is not to move
            return await asyncio.to_thread(suggest, live.game, prefix, limit)

    BUILD_STALE = "This board is from an earlier position: nothing was played. Use the newest board (or /board)."

    def _with_builder(self, reply: Reply, record: GameRecord, game: Game) -> Reply:
        """Give a board reply the builder's first menu, while the game goes on."""
        reply.ply = daily.grid_ply(record)   # grows with every move and every take-back: an old menu never matches
        if game.outcome is None:
            try:
                reply.builder = builder_menu(game, view=reply.view)   # the view in hand: not built again
            except IllegalMove:
                reply.builder = None
        return reply

    async def _built_game(self, channel: str, user: Player, game_id: int, ply: int) -> _Live:
        """The live game a builder click is for, checked: same game, same ply, the player to move."""
        live = await self._load(channel)
        if (live is None or live.game is None or live.record.id != game_id or daily.grid_ply(live.record) != ply
                or live.game.outcome is not None):
            raise UserError(self.BUILD_STALE)
        self._require_turn(live.record, live.game, user)
        return live

    async def build_menu(self, channel: str, user: Player, game_id: int, ply: int, parts: tuple[str, ...] = (),
                         origin: str = "", page: int = 0) -> Menu:
        """The builder's next menu after `parts`, for the player to move at `ply` of game `game_id`."""
        async with self._lock(channel):
            live = await self._built_game(channel, user, game_id, ply)
            try:
                return await asyncio.to_thread(builder_menu, live.playing, tuple(parts), origin, page)
            except IllegalMove as exc:
                raise UserError(str(exc)) from None

    @_tells_notices
    async def play_built(self, channel: str, user: Player, game_id: int, ply: int, parts: tuple[str, ...]) -> Reply:
        """Play a turn built from menus, only if the game is still at `ply` (else nothing is played)."""
        async with self._lock(channel):
            live = await self._built_game(channel, user, game_id, ply)
            record, game = live.record, live.playing
            text = " ".join(parts)
            if text not in game.legal_moves():
                raise UserError("That turn is not complete yet: pick the next part, or Clear to start again.")
            before = record.copy()
            reply = await asyncio.to_thread(self._play_and_compose, record, game, user, text)
            return await self._commit_played(live, before, user, reply)

    async def _grid_game(self, channel: str, user: Player, game_id: int, ply: int) -> _Live:
        """The KingSwap! game a grid click is for, checked: same game, same position (daily.grid_ply), its player."""
        live = await self._load(channel)
        if live is None or live.game is None or live.game.outcome is not None:
            ended = await self._ended_here(channel)
            if ended is not None and ended.id == game_id:
                raise UserError(daily.GRID_OVER.format(game=game_id))
        if (live is None or live.game is None or live.record.id != game_id or daily.grid_ply(live.record) != ply
                or live.game.outcome is not None):
            raise UserError(daily.GRID_STALE)
        self._seat(live.record, user)
        return live

    async def grid(self, channel: str, user: Player, game_id: int, ply: int, origin: str = "") -> daily.GridState:
        """The grid after a first click on `origin` (or with nothing picked), if the game is still at `ply`."""
        async with self._lock(channel):
            live = await self._grid_game(channel, user, game_id, ply)
            try:
                return daily.grid_state(live.record, live.playing, origin)
            except IllegalMove as exc:
                raise UserError(str(exc)) from None

    async def current_grid(self, channel: str) -> daily.GridState | None:
        """The grid of the KingSwap! game in play in `channel`, or None."""
        async with self._lock(channel):
            live = await self._load(channel)
            if live is None or live.game is None or live.record.variant != "kingswap":
                return None
            return daily.grid_state(live.record, live.game)

    async def grid_of(self, game_id: int) -> tuple[str, daily.GridState] | None:
        """(channel, grid) of game `game_id` if it is a KingSwap! game in play, else None."""
        record = await self.store.get(game_id)
        if record is None or record.variant != "kingswap" or not record.playing:
            return None
        state = await self.current_grid(record.channel_id)
        return (record.channel_id, state) if state is not None and state.game_id == game_id else None

    @_tells_notices
    async def play_grid(self, channel: str, user: Player, game_id: int, ply: int, move: str) -> Reply:
        """Play a move clicked on the grid, only if the game is still at `ply`."""
        async with self._lock(channel):
            live = await self._grid_game(channel, user, game_id, ply)
            record, game = live.record, live.playing
            if move not in game.legal_moves():
                raise UserError(f"{move[:2]} to {move[2:]} is not a legal move here.")
            before = record.copy()
            played = game.play(move)
            record.moves.append(played)
            record.plies_played += 1
            await self._commit(live, before, undo=game.undo)
            return await self._board_reply(record, game, lambda label: f"{user.name} plays {label}.")

    @_tells_notices
    async def start_puzzle(self, channel: str, user: Player, slug: str, seed: int | None = None,
                           guild: str | None = None, level: int | None = None, home: str | None = None) -> Reply:
        """Start a solo puzzle played in `channel` (asked for in `home`, when that is another
        channel: the puzzle then has a thread of its own)."""
        info = self._variant(slug)
        if info.players != 1:
            raise UserError(f"{info.name} is a two-player game: use /challenge.")
        start = None
        if level is not None:
            if not info.levels or info.level_start is None:
                raise UserError(f"{info.name} has no levels to choose.")
            if not 1 <= level <= info.levels:
                raise UserError(f"{info.name}'s target level is 1 to {info.levels}.")
            start = info.level_start(level)
        if seed is not None and not 0 <= seed < 2**63:
            raise UserError("The seed must be a whole number from 0 up.")
        seed = random.randrange(2**31) if seed is None else seed
        async with self._lock(channel):
            await self._refuse_if_busy(channel)
            game = rules.new_game(info.slug, seed=seed, fen=start)
            now = self.clock()
            record = GameRecord(info.slug, channel, [(user.id, user.name)], game.fen(), "active", guild,
                                seed=seed, start_fen=game.fen(), created_at=now, updated_at=now,
                                rules_version=RULES_VERSION, home_channel_id=home or channel)
            self._settle(record, game)
            await self._create(record)
            self._live[channel] = _Live(record, game)
            return await self._board_reply(record, game, f"{user.name} starts **{info.name}** (seed {seed}).")

    @_tells_notices
    async def challenge(self, channel: str, challenger: Player, opponent: Player | None, slug: str,
                        guild: str | None = None, colour: str = "white", days: int | None = None) -> Reply:
        """Post a challenge in `channel`. Challenges wait side by side; none takes the channel.
        `opponent` None is an open challenge anyone but the challenger may accept. `colour` is the
        challenger's: white, black or random (drawn now, and said). `days` per move (1-14)
        overrides the default deadline."""
        info = await self.check_start(guild, slug, players=2)
        if opponent is not None and opponent.id == challenger.id:
            raise UserError("You cannot challenge yourself.")
        colour = (colour or "random").strip().lower()
        if colour not in COLOURS:
            raise UserError("Colour must be white, black or random.")
        if days is not None and not MIN_DAYS <= days <= MAX_DAYS:
            raise UserError(f"Days per move must be {MIN_DAYS} to {MAX_DAYS}.")
        if days is None and guild is not None:
            days = (await self.server_settings(guild)).days   # the server's default, where it set one
        drawn = colour == "random"
        if drawn:
            colour = random.choice(("white", "black"))
        other = (opponent.id, opponent.name) if opponent is not None else OPEN_SEAT
        seats = [(challenger.id, challenger.name), other]
        if colour == "black":
            seats.reverse()
        async with self._lock(channel):
            await self._load(channel)   # a game here that no longer replays is set aside now, and told
            seed = random.randrange(2**31)   # stored with the start FEN: the set-up replays exactly
            game = rules.new_game(info.slug, seed=seed)
            now = self.clock()
            record = GameRecord(info.slug, channel, seats, game.fen(), "challenge", guild, seed=seed,
                                start_fen=game.fen(), created_at=now, updated_at=now, rules_version=RULES_VERSION,
                                home_channel_id=channel, challenger_id=challenger.id,
                                move_seconds=days * DAY if days is not None else self._default_seconds(),
                                due_at=self.timer() + self.challenge_ttl if self.challenge_ttl else None)
            await self._create(record)
            how = " (drawn at random)" if drawn else ""
            who = opponent.name if opponent is not None else "Anyone"
            answer = f"{opponent.name}, accept or decline." if opponent is not None else "Anyone may accept."
            clock = f"{duration(record.move_seconds)} per move. " if record.move_seconds else ""
            return Reply(f"{challenger.name} challenges {who if opponent else 'anyone'} to **{info.name}**. "
                         f"{challenger.name} would play {colour.capitalize()}{how}. {clock}{answer}",
                         game_id=record.id, challenge=(self._id(record), challenger.id, opponent.id if opponent else ""),
                         ping=opponent.id if opponent is not None else None)

    def _default_seconds(self) -> int | None:
        return int(self.move_deadline) if self.move_deadline else None

    async def challenge_to_accept(self, channel: str, user: Player, game_id: int | None = None) -> GameRecord:
        """The challenge `user` may accept (checked, nothing changed), e.g. to name its thread."""
        return (await self._challenge_for(channel, user, game_id)).copy()

    async def note_challenge_message(self, game_id: int, message_id: str) -> None:
        """Keep the id of the message showing a challenge, to edit it when the challenge is settled."""
        for _ in range(3):
            record = await self.store.get(game_id)
            if record is None or record.message_id == message_id:
                return
            record.message_id = message_id
            try:
                await self._write(record)
                return
            except StaleRecord:   # answered meanwhile: read it again
                continue

    @_tells_notices
    async def accept(self, channel: str, user: Player, game_id: int | None = None,
                     play_in: str | None = None) -> Reply:
        """Accept a challenge posted in `channel`; the game is played in `play_in` (a new thread,
        say), else where the challenge was posted."""
        record = await self._challenge_for(channel, user, game_id)
        where = play_in or record.home_channel_id or record.channel_id
        async with self._lock(where):
            before = record.copy()
            seat = record.open_seat
            if seat is not None:
                record.players[seat] = (user.id, user.name)
            game = rules.new_game(record.variant, seed=record.seed, fen=record.start_fen)
            record.channel_id = where
            record.status = "active"
            record.due_at = self.timer() + record.move_seconds if record.move_seconds else None
            self._settle(record, game)
            live = _Live(record, game)
            try:
                await self._save(live, before)
            except ChannelBusy:
                raise UserError("This channel already has a game in play. Finish it first, or accept in "
                                "another channel or thread.") from None
            self._live[where] = live
            reply = await self._board_reply(record, game, f"{user.name} accepts. The game begins.")
            return await self._ping_next(reply, record, game)

    @_tells_notices
    async def decline(self, channel: str, user: Player, game_id: int | None = None) -> Reply:
        """The named opponent declines, or the challenger withdraws; an open challenge only the challenger."""
        record = await self._challenge_for(channel, user, game_id, declining=True)
        before = record.copy()
        record.status = "declined"
        record.due_at = None
        await self._save(_Live(record, None), before)
        verb = "withdraws the challenge" if user.id == record.challenger_id else "declines the challenge"
        return Reply(f"{user.name} {verb}.", game_id=record.id, finished=True)

    async def _challenge_for(self, channel: str, user: Player, game_id: int | None,
                             declining: bool = False) -> GameRecord:
        """The challenge `user` accepts (or, `declining`, declines or withdraws): game `game_id`, else
        the one challenge waiting for them in `channel`. Checked whatever the button said (_may_answer)."""
        # a challenge past its time is over, even before the scheduler marks it (after a restart, say)
        now = self.timer()
        if game_id is not None:
            record = await self.store.get(game_id)
            if record is None or record.status != "challenge" or (record.due_at is not None and record.due_at <= now):
                raise UserError("That challenge is no longer open.")
        else:
            here = [r for r in await self.store.challenges(channel) if r.due_at is None or r.due_at > now]
            waiting = [r for r in here if self._may_answer(r, user, declining)]
            if not waiting and not declining and any(r.challenger_id == user.id for r in here):
                raise UserError("You cannot accept your own challenge; the challenge is not for you.")
            if not waiting and here and declining and all(r.open_seat is not None for r in here):
                raise UserError("Only the challenger can withdraw an open challenge.")
            if not waiting:
                raise UserError("This challenge is not for you." if here else "No challenge waits for you here.")
            if len(waiting) > 1:
                raise UserError("Several challenges wait for you here: use the buttons on the one you mean.")
            record = waiting[0]
        if not self._may_answer(record, user, declining):
            if user.id == record.challenger_id:
                raise UserError("You cannot accept your own challenge.")
            raise UserError("Only the challenger can withdraw an open challenge."
                            if declining and record.open_seat is not None else "This challenge is not for you.")
        return record

    @staticmethod
    def _may_answer(record: GameRecord, user: Player, declining: bool) -> bool:
        """Accept: the named opponent, or anyone but the challenger when it is open. Decline: the
        named opponent; withdraw: the challenger (the only one who may end an open challenge)."""
        if user.id == record.challenger_id:
            return declining
        if record.open_seat is not None:
            return not declining
        return any(pid == user.id for pid, _ in record.players)

    async def rematch(self, channel: str, user: Player, game_id: int, guild: str | None = None) -> Reply:
        """Challenge the other player of finished game `game_id` again, colours swapped, in `channel`
        (of the game's server `guild`)."""
        record = await self.store.get(game_id)
        if record is None or record.solo or record.status != "finished":
            raise UserError("A rematch is offered once a two-player game is over.")
        if guild != record.guild_id:
            raise UserError("A rematch is offered in the server where the game was played.")
        colour = self._seat(record, user)
        other_id, other_name = next((pid, name) for pid, name in record.players if pid != user.id)
        async with self._lock(channel):
            live = await self._load(channel)
        if live is not None and live.game is not None:   # a challenge here could not be accepted here
            raise UserError(f"Game #{live.record.id} is in play here; a rematch can be offered once it is over.")
        async with self._lock(f"rematch:{game_id}"):   # both players pressing at once: one challenge
            for waiting in await self.store.challenges(channel):
                if waiting.variant == record.variant and {p for p, _ in waiting.players} == {user.id, other_id}:
                    if waiting.challenger_id == user.id:
                        raise UserError("Your rematch challenge is already waiting.")
                    raise UserError(f"{other_name} has already offered a rematch: accept it with its buttons.")
            seconds = record.move_seconds
            days = seconds // DAY if seconds and seconds % DAY == 0 and MIN_DAYS <= seconds // DAY <= MAX_DAYS else None
            return await self.challenge(channel, user, Player(other_id, other_name), record.variant,
                                        guild=record.guild_id,
                                        colour=rules.BLACK if colour == rules.WHITE else rules.WHITE, days=days)

    async def check_player(self, channel: str, user: Player, game_id: int | None = None) -> None:
        """Raise UserError unless `user` plays the game in play here (game `game_id`, if given)."""
        async with self._lock(channel):
            live = await self._active(channel)
            self._require_game(live.record, game_id)
            self._seat(live.record, user)

    @_tells_notices
    async def resign(self, channel: str, user: Player, game_id: int | None = None) -> Reply:
        """Resign (give up a puzzle). `game_id`, from a button, must be the game in play here."""
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            self._require_game(record, game_id)
            colour = self._seat(record, user)
            if record.solo:
                outcome = Outcome("failed", "gave up", game.score)
            else:
                winner = rules.BLACK if colour == rules.WHITE else rules.WHITE
                outcome = Outcome.win(winner, f"{colour} resigned")
            before = record.copy()
            game.finish(outcome)
            await self._commit(live, before, undo=lambda: game.finish(None))
            return await self._board_reply(record, game, f"{user.name} resigns.")

    @_tells_notices
    async def draw(self, channel: str, user: Player, game_id: int | None = None, accept_only: bool = False) -> Reply:
        """Offer a draw, accept the opponent's offer, or claim a draw. `game_id` as for resign.
        `accept_only` (the Accept draw button under an offer): accept a standing offer, never make one."""
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            self._require_game(record, game_id)
            if record.solo:
                raise UserError("A puzzle has no opponent to agree a draw with. Use /resign to give up.")
            colour = self._seat(record, user)
            if accept_only and not record.draw_offer:
                raise UserError("That draw offer no longer stands: nothing was done.")
            before = record.copy()
            claim = game.claimable_draw() if game.turn == colour else None
            if claim:
                game.finish(Outcome.draw(f"{claim} claimed"))
                await self._commit(live, before, undo=lambda: game.finish(None))
                return await self._board_reply(record, game, f"{user.name} claims a draw.")
            if record.draw_offer and record.draw_offer != user.id:
                game.finish(Outcome.draw("agreed"))
                record.draw_offer = None
                await self._commit(live, before, undo=lambda: game.finish(None))
                return await self._board_reply(record, game, f"{user.name} accepts the draw.")
            if record.draw_offer == user.id:
                raise UserError("Your draw offer already stands.")
            record.draw_offer = user.id
            await self._save(live, before)
            other_id, other = next((pid, name) for pid, name in record.players if pid != user.id)
            return await self._ping_member(
                Reply(f"{user.name} offers a draw. {other}, press Draw (or use /draw) to accept; "
                      f"your next move declines.", game_id=record.id, controls=("draw",)), other_id)

    @_tells_notices
    async def takeback(self, channel: str, user: Player) -> Reply:
        """Ask the opponent to take back your last move (the last two when you are to move)."""
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            if record.solo:
                raise UserError("In a puzzle, use /undo to take a move back.")
            colour = self._seat(record, user)
            if record.takeback_offer == user.id:
                raise UserError("Your takeback request already stands.")
            if record.takeback_offer:
                raise UserError("Your opponent has asked for a takeback: answer it with its buttons first.")
            plies = self._takeback_plies(game, colour)
            if plies > len(record.moves):
                raise UserError("You have no move to take back yet.")
            before = record.copy()
            record.takeback_offer = user.id
            await self._save(live, before)
            other_id, other = next((pid, name) for pid, name in record.players if pid != user.id)
            what = " and ".join(f"`{move}`" for move in record.moves[-plies:])
            return await self._ping_member(
                Reply(f"{user.name} asks to take back {what}. {other}, accept or decline; any move declines.",
                      game_id=record.id, controls=("takeback",), ply=daily.grid_ply(record), asker=user.id),
                other_id)

    @staticmethod
    def _takeback_plies(game: Game, colour: str) -> int:
        return 2 if game.turn == colour else 1

    @_tells_notices
    async def answer_takeback(self, channel: str, user: Player, game_id: int, accept: bool,
                              ply: int | None = None, asker: str | None = None) -> Reply:
        """The opponent accepts or declines a takeback request (the asker may withdraw it).
        `ply` and `asker` (from the request's buttons): the request answered must be the one that
        was made by `asker` after `ply` moves, not a later one."""
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            self._require_game(record, game_id)
            self._seat(record, user)
            asker_id = record.takeback_offer
            if not asker_id:
                raise UserError("No takeback request stands in this game.")
            if (ply is not None and ply != daily.grid_ply(record)) or (asker is not None and asker != asker_id):
                raise UserError("That takeback request is no longer open: nothing was changed. "
                                "Answer the newest one.")
            if accept and user.id == asker_id:
                raise UserError("Your opponent answers your takeback request.")
            asker = next(name for pid, name in record.players if pid == asker_id)
            before = record.copy()
            record.takeback_offer = None
            if not accept:
                await self._save(live, before)
                verb = "withdraws the takeback request" if user.id == asker_id else "declines the takeback"
                return Reply(f"{user.name} {verb}.", game_id=record.id)
            asker_colour = rules.WHITE if record.players[0][0] == asker_id else rules.BLACK
            taken = [game.undo() for _ in range(self._takeback_plies(game, asker_colour))]
            del record.moves[-len(taken):]
            record.draw_offer = None

            def redo() -> None:
                for move in reversed(taken):
                    game.play(move)

            await self._commit(live, before, undo=redo)
            shown = ", ".join(f"`{move}`" for move in reversed(taken))
            reply = await self._board_reply(record, game, f"{user.name} accepts the takeback: {shown} taken back. "
                                                          f"{asker} is to move.")
            return await self._ping_next(reply, record, game)

    async def abort(self, channel: str, user: Player, moderator: bool, game_id: int | None = None,
                    guild: str | None = None) -> Reply:
        """A moderator (Manage Threads) ends the game in play here, or game `game_id` of the same
        server, with no result and no rating."""
        if not moderator:
            raise UserError("Only members who may manage threads can abort a game.")
        if game_id is not None:
            stored = await self.store.get(game_id)
            if stored is None or stored.guild_id != guild or stored.status != "active":
                raise UserError(f"No game #{game_id} is in play in this server.")
            channel = stored.channel_id
        async with self._lock(channel):
            live = await self._active(channel)
            record = live.record
            self._require_game(record, game_id)
            before = record.copy()
            record.status = "aborted"
            record.due_at, record.draw_offer, record.takeback_offer = None, None, None
            await self._save(live, before)
            self._live.pop(channel, None)
            info = rules.VARIANTS.get(record.variant)
            name = info.name if info else record.variant
            return Reply(f"{user.name} aborted game #{record.id} ({name}): no result, no rating.",
                         game_id=record.id, finished=True)
