"""Playing a game: moves typed, built from menus or clicked on the KingSwap! grid, the board,
takebacks in puzzles, and the legal moves offered to the player to move."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace

import rules
from rules import Game, IllegalMove, describe_view

from .. import daily
from ..builder import Menu, menu as builder_menu
from ..store import ChannelBusy, GameRecord, GameStatus
from ..suggest import suggest
from .present import turn_headline
from .tables import Live, Tables, tells_notices
from .types import Mark, Player, Reply, UserError, Who

log = logging.getLogger(__name__)


class Play(Tables):
    """Turns and the boards that show them."""

    @tells_notices
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
            return self._compose_board(record, game, lambda said: turn_headline(user, said))
        except Exception:   # noqa: BLE001 - not committed yet: the commit decides, the board comes after
            return None

    async def _commit_played(self, live: Live, before: GameRecord, user: Player, reply: Reply | None) -> Reply:
        """Commit a turn `_play_and_compose` played; its reply, with the ping for the player to move."""
        record, game = live.record, live.playing
        await self._commit(live, before, undo=game.undo, settled=True)
        if reply is None:
            reply = await self._board_reply(record, game, lambda said: turn_headline(user, said))
        return await self._ping_next(reply, record, game)

    @staticmethod
    def _cancel_offers(record: GameRecord, mover: Player) -> None:
        """A move cancels any takeback request, and the draw offer of the mover's opponent (an
        offer stands until the opponent moves; the offering player's own move keeps it)."""
        record.takeback_offer = None
        if record.draw_offer and record.draw_offer != mover.id:
            record.draw_offer = None

    @tells_notices
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
        return Reply([(Mark(game.info.name), f" · game #{record.id}, seen from Black's side (only you see this).")],
                     image, describe_view(view, game.info.name), f"kibitz-{record.id}-flipped.png",
                     ephemeral=True, game_id=record.id, view=view)

    async def board_for(self, game_id: int) -> Reply | None:
        """Game `game_id`'s board as stored now (picture, alt text, builder, buttons; no text), for an
        answer shown late (bot/discord/outbox.py); None when it has no board or cannot be drawn."""
        record = await self.store.get(game_id)
        if record is None or record.status == GameStatus.CHALLENGE:
            return None
        try:
            game = await asyncio.to_thread(lambda: self._revive(record).playing)
            reply = await self._board_reply(record, game, "")
        except Exception:   # noqa: BLE001 - the late answer goes without its picture
            log.exception("could not draw game %s again", game_id)
            return None
        if not record.playing:
            reply.builder = None
        return reply

    async def note_board(self, game_id: int, ply: int, message_id: str) -> tuple[str, str] | None:
        """Keep message `message_id` as game `game_id`'s newest board (composed at `ply`,
        daily.grid_ply), so a front end keeps controls on one board at a time. Returns the
        (channel, message) whose controls are out of date now: the board kept before, or this one
        when the game has moved on since it was composed (boards shown out of order); None: none."""
        record = await self.store.get(game_id)
        if record is None:
            return None
        channel = record.channel_id
        async with self._lock(channel):
            live = self._live.get(channel)
            held = live is not None and live.record.id == game_id
            record = live.record if live is not None and held else await self.store.get(game_id)
            if record is None or record.message_id == message_id:
                return None
            if daily.grid_ply(record) != ply:
                return channel, message_id
            old, record.message_id = record.message_id, message_id
            try:
                await self._write(record)
            except Exception:   # noqa: BLE001 - the board is shown; only its successor's cleanup is lost
                log.warning("could not keep message %s as the board of game %s", message_id, game_id, exc_info=True)
                record.message_id = old
                self._live.pop(channel, None)   # read again from the store next time
        return (channel, old) if old else None

    @tells_notices
    async def undo(self, channel: str, user: Player) -> Reply:
        async with self._lock(channel):
            live = await self._load(channel)
            if live is None or live.game is None:
                live = await self._reopen_last_puzzle(channel, user)
            record, game = live.record, live.playing
            if not record.solo:
                raise UserError(Mark("/undo", code=True), " is for solo puzzles; in a two-player game ",
                                Mark("/takeback", code=True), " asks your opponent.")
            self._seat(record, user)
            before = record.copy()
            final = game.outcome
            try:
                taken = game.undo()
            except IllegalMove as exc:
                raise UserError(str(exc)) from None
            record.moves.pop()
            was_finished = record.status == GameStatus.FINISHED

            def redo() -> None:
                game.play(taken)
                if game.outcome is None and final is not None:
                    game.finish(final)

            counted = was_finished and not record.daily and not record.practice
            try:
                if counted:   # the finish stays on the board as saved; play goes on as practice, in a row of its own
                    live.record = await self._practice_copy(record, game, redo)
                else:
                    await self._commit(live, before, undo=redo)
            except ChannelBusy:
                raise UserError("Another game has started in this channel since.") from None
            if was_finished:
                self._live[channel] = live
            reply = await self._board_reply(live.record, game, (Who(user, "takes"), f" back {taken}."))
            if counted:
                reply.lines.append((f"Your finish of game #{record.id} stays on the board of results; "
                                    f"game #{live.record.id} goes on from here as practice.",))
            return reply

    async def _practice_copy(self, record: GameRecord, game: Game, redo: Callable[[], object]) -> GameRecord:
        """A new record for play after a counted finish (`record`, taken back in `game`, not saved)."""
        self._settle(record, game)
        copy = replace(record, id=None, version=0, practice=True, message_id=None, created_at=self.clock(),
                       updated_at=self.clock())
        try:
            await self._create(copy)
        except BaseException:
            redo()
            raise
        return copy

    async def _reopen_last_puzzle(self, channel: str, user: Player) -> Live:
        record = await self.store.latest(channel, (GameStatus.FINISHED,))
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

    async def move_suggestions(self, channel: str, user: Player, prefix: str = "", limit: int | None = 25,
                               explain: bool = False) -> list[str]:
        """Legal turns (or their first parts) starting with `prefix`, narrowed part by part.
        `explain`: say why there are none (no game, not your turn) instead of answering []."""
        return [value for value, _ in await self.move_choices(channel, user, prefix, limit, explain)]

    async def move_choices(self, channel: str, user: Player, prefix: str = "",
                           limit: int | None = 25, explain: bool = False) -> list[tuple[str, str]]:
        """(value, name) pairs for /move autocomplete: the value to play, the name showing the
        SAN of the turn's first part. A partial value ("b8c6") stands for all turns beginning so."""
        async with self._lock(channel):
            live = self._live.get(channel) or await self._load(channel)
            if live is None or live.game is None or live.game.outcome:
                if explain:
                    await self._no_game(channel)
                return []
            try:
                self._require_turn(live.record, live.game, user)
            except UserError:
                if explain:
                    raise
                return []   # nothing to offer someone who is not to move
            return await asyncio.to_thread(suggest, live.game, prefix, limit)

    BUILD_STALE = "This board is from an earlier position: nothing was played. Use the newest board (or /board)."

    def _with_builder(self, reply: Reply, record: GameRecord, game: Game) -> Reply:
        """Give a board reply the builder's first menu, while the game goes on."""
        reply.ply = daily.grid_ply(record)   # grows with every move and every take-back: an old menu never matches
        if game.outcome is None and record.variant == "kingswap" and record.id is not None:
            reply.grid = daily.grid_state(record, game)
        if game.outcome is None:
            try:
                reply.builder = builder_menu(game, view=reply.view)   # the view in hand: not built again
            except IllegalMove:
                reply.builder = None
        return reply

    async def _built_game(self, channel: str, user: Player, game_id: int, ply: int) -> Live:
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

    @tells_notices
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

    async def _grid_game(self, channel: str, user: Player, game_id: int, ply: int) -> Live:
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

    @tells_notices
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
            return await self._board_reply(record, game, lambda said: turn_headline(user, said))
