"""Where games live: a server's settings, who wants pings, and the list of open games."""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

import rules
from rules import Game

from . import seats as computer
from ..settings import MAX_DAYS, MIN_DAYS, ServerSettings
from ..store import GameRecord, GameStatus
from ..timing import DAY, plural
from .present import age, ago, parse_time
from .tables import Tables
from .types import Line, Mark, Part, Player, Reply, UserError, Who

log = logging.getLogger(__name__)


class Lobby(Tables):
    """Server settings, pings and the open games."""

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
                              stop_announcing: bool = False, computer: bool | None = None,
                              channel_name: Callable[[str], str] = str) -> Reply:
        """Change a server's settings (the front end has checked the member may). `enable` "all"
        turns every variant back on; `days` 0 goes back to the bot's default; `computer` lets
        members play the computer (True) or not (False)."""
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
                    raise UserError("Turn variants off one at a time; ", Mark("enable all", code=True), " turns them all back on.")
                disabled.add(self._variant(disable).slug)
            if days is not None and not (days == 0 or MIN_DAYS <= days <= MAX_DAYS):
                raise UserError(f"Default days per move must be {MIN_DAYS} to {MAX_DAYS} "
                                "(0 goes back to the bot's default).")
            changed = ServerSettings(
                disabled=frozenset(disabled),
                threads=current.threads if threads is None else threads,
                days=current.days if days is None else (days or None),
                announce=None if stop_announcing else (announce or current.announce),
                computer=current.computer if computer is None else computer)
            if changed != current:
                async def saved() -> bool:
                    return await self.server_settings(guild) == changed

                await self._confirmed(self.store.save_settings(guild, changed.to_dict(), self.clock()), saved,
                                      f"settings of {guild}")
        head = "Settings saved." if changed != current else "Nothing changed."
        return Reply([(head,), *self._settings_text(changed, channel_name)], ephemeral=True)

    def _settings_text(self, settings: ServerSettings, channel_name: Callable[[str], str]) -> list[Line]:
        off = sorted(rules.VARIANTS[s].name for s in settings.disabled if s in rules.VARIANTS)
        if self.move_deadline:
            seconds = int(self.move_deadline)
            default = plural(seconds // DAY, "day") if seconds % DAY == 0 else plural(seconds, "second")
        else:
            default = "no deadline"
        lines: list[Part] = [Mark("Kibitz settings for this server"),
                 "Variants: " + ("all on." if not off else "all on except " + ", ".join(off) + "."),
                 "Threads: " + ("on: an accepted challenge or a puzzle gets a thread of its own."
                                if settings.threads else "off: games are played where they are asked for."),
                 "Default time per move: " + (plural(settings.days, "day") if settings.days
                                              else f"{default} (the bot's default)") + ".",
                 "Challenges announced in: " + (channel_name(settings.announce) if settings.announce
                                                else "only the channel where they are made") + ".",
                 "Computer opponent: " + ("on." if settings.computer else "off."),
                 "Change with /settings enable, disable, threads, days, announce, stop_announcing or computer."]
        return [(line,) for line in lines]

    async def set_pings(self, user: Player, on: bool) -> Reply:
        async def saved() -> bool:
            return await self.store.pings(user.id) == on

        await self._confirmed(self.store.set_pings(user.id, on, self.clock()), saved, f"pings of {user.id}")
        text = ("You will be pinged when it is your move." if on else
                "You will no longer be pinged when it is your move; /pings on turns it back on.")
        return Reply(text, ephemeral=True)

    async def _ping_next(self, reply: Reply, record: GameRecord, game: Game) -> Reply:
        """Mark the answer to ping the player now to move (two-player games), unless they opted out;
        after a turn that ended the game, the player who did not make it."""
        if record.solo:
            return reply
        pid = record.players[0][0] if game.turn == rules.WHITE else record.players[1][0]
        return await self._ping_member(reply, pid)

    async def _ping_others(self, reply: Reply, record: GameRecord, actor: str | None) -> Reply:
        """Mark a final board to ping each player but `actor`, who made the last act (None: both
        players, as after a loss on time), unless they opted out."""
        for pid, _ in record.players:
            if pid != actor:
                await self._ping_member(reply, pid)
        return reply

    async def _ping_member(self, reply: Reply, pid: str) -> Reply:
        """Mark the answer to ping member `pid`, unless they turned pings off (never the computer)."""
        try:
            if pid and not computer.is_computer(pid) and pid not in reply.pings and await self.store.pings(pid):
                reply.pings += (pid,)
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
        now = parse_time(self.clock())
        lines: list[Line] = [(Mark("Open games and challenges"), f" ({len(rows)})")]
        for record in rows[:self.GAMES_SHOWN]:
            info = rules.VARIANTS.get(record.variant)
            name = info.name if info else record.variant
            if record.status == GameStatus.CHALLENGE:
                challenger = next((n for p, n in record.players if p == record.challenger_id), "someone")
                other = next((n for p, n in record.players if p and p != record.challenger_id), "anyone")
                line: Line = (f"Challenge: {challenger} to {other} · ", Mark(name), f" · made {age(record.created_at, now)}")
            elif record.solo:
                line = (Mark(name), " puzzle · ", Who(Player(*record.players[0])), " · "
                        f"{plural(len(record.moves), 'move')}, last {age(record.updated_at, now)}")
            else:
                black_to_move = len(record.fen.split()) > 1 and record.fen.split()[1] == "b"
                to_move = Player(*record.players[1 if black_to_move else 0])
                last = f"last move {self._since_move(record, now)}" if record.moves else \
                    f"started {self._since_move(record, now)}"
                line = (Mark(name), " · ", Who(Player(*record.players[0])), " vs ", Who(Player(*record.players[1])), " · ",
                        Who(to_move), f" to move · {last}")
            where = link(record) if link is not None else None
            lines.append(("- ", *line, f" · {where}" if where else ""))
        if len(rows) > self.GAMES_SHOWN:
            lines.append((f"…and {len(rows) - self.GAMES_SHOWN} more.",))
        return Reply(lines)

    def _since_move(self, record: GameRecord, now: datetime | None) -> str:
        """How long ago the last move (or the start) was. A game with a clock knows it exactly:
        its clock started then (a reminder or a draw offer saves the record later). Else the last save."""
        deadline = self.deadline_of(record)
        if record.move_seconds and deadline is not None:
            return ago(self.timer() - (deadline - record.move_seconds))
        return age(record.updated_at if record.moves else record.created_at, now)
