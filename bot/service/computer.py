"""Games against the computer: starting one at once, the computer's turns saved like a player's,
and how it answers a draw offer or a takeback. The searches themselves run in the runner's
worker processes (bot/opponent/runner.py); the service only checks and saves.

The computer is a seat `computer:<level>` named "Kibitz (level 3, casual)" (bot/service/seats.py).
Its turns have no deadline; the member's do, as in any game. A front end starts the runner with
the service: it registers itself as `service.thinker`, is woken by every save that leaves the
computer to move, and calls back `play_computer` / `computer_resigns` with what its worker found."""
from __future__ import annotations

import asyncio
import random

import engine
import rules
from rules import Ending, Outcome, Said

from . import seats as computer
from ..store import GameRecord, GameStatus
from ..timing import DAY
from .present import play_again, take_back, told, turn_headline
from .tables import Live, Tables
from .types import RULES_VERSION, Line, Mark, Player, Reply, UserError, Who

COMPUTER = Player(computer.COMPUTER_ID, "Kibitz")   # the opponent to pass to `challenge` for a game against the computer


class Computer(Tables):
    """The computer as an opponent."""

    async def check_computer(self, guild: str | None, user: Player, slug: str,
                             level: int | None = None) -> rules.VariantInfo:
        """The variant to play against the computer, refused (UserError) where the server turned the
        computer or the variant off, the level is not one, or `user` has MAX_GAMES games against it
        in play in this server. Cheap: a front end calls it before it opens a thread for the game."""
        info = await self.check_start(guild, slug, players=2)
        if level is not None and not 1 <= level <= engine.MAX_LEVEL:
            raise UserError(f"The computer's level is 1 to {engine.MAX_LEVEL}.")
        if not (await self.server_settings(guild)).computer:
            raise UserError("The computer opponent is turned off in this server; /settings shows what is on.")
        mine = [r for r in await self.store.open_in_guild(guild)
                if r.playing and computer.seat(r.players) is not None and any(p == user.id for p, _ in r.players)]
        if len(mine) >= computer.MAX_GAMES:
            raise UserError(f"You already have {len(mine)} games against the computer in play here (at most "
                            f"{computer.MAX_GAMES} at once): finish one first.")
        return info

    async def _challenge_computer(self, channel: str, user: Player, slug: str, guild: str | None, colour: str,
                                  level: int | None, play_in: str | None, days: int | None = None,
                                  rematch_of: int | None = None) -> Reply:
        """A game against the computer, begun at once in `play_in` (a thread made for it), else in
        `channel`; the member's `days` per move as in any challenge (the computer has no deadline);
        `rematch_of`: the finished game whose Rematch began it.
        The cap (MAX_GAMES) is checked again and the game created under a lock of the member's in
        this server, so challenges made at once cannot pass it together."""
        async with self._lock(f"computer-games:{guild}:{user.id}"):
            return await self._begin_computer(channel, user, slug, guild, colour, level, play_in, days, rematch_of)

    async def _begin_computer(self, channel: str, user: Player, slug: str, guild: str | None, colour: str,
                              level: int | None, play_in: str | None, days: int | None,
                              rematch_of: int | None = None) -> Reply:
        level = engine.DEFAULT_LEVEL if level is None else level
        info = await self.check_computer(guild, user, slug, level)
        drawn = colour == "random"
        if drawn:
            colour = random.choice((rules.WHITE, rules.BLACK))
        seats = [(user.id, user.name), (computer.player_id(level), computer.name(level))]
        if colour == rules.BLACK:
            seats.reverse()
        where = play_in or channel
        if days is None and guild is not None:
            days = (await self.server_settings(guild)).days   # the server's default, as for people
        async with self._lock(where):
            await self._refuse_if_busy(where)
            seed = random.randrange(2**31)
            game = rules.new_game(info.slug, seed=seed)
            now = self.clock()
            record = GameRecord(info.slug, where, seats, game.fen(), GameStatus.ACTIVE, guild, seed=seed,
                                start_fen=game.fen(), created_at=now, updated_at=now, rules_version=RULES_VERSION,
                                home_channel_id=channel, challenger_id=user.id,
                                move_seconds=days * DAY if days else
                                (int(self.move_deadline) if self.move_deadline else None), rematch_of=rematch_of)
            self._settle(record, game)
            await self._create(record)
            self._live[where] = Live(record, game)
            how = " (drawn at random)" if drawn else ""
            reply = await self._board_reply(record, game, (Who(user, "plays"), f" {computer.name(level)} at ",
                                                          Mark(info.name), f", as {colour.capitalize()}{how}."))
            return await self._ping_next(reply, record, game)

    async def computer_turns(self, owns=None) -> list[GameRecord]:
        """The games in play where the computer is to move (those of the guilds `owns` accepts): at
        start-up and after a worker fault the runner moves in each."""
        return [r for r in await self.store.open_games()
                if r.playing and computer.to_move(r.players, r.fen) and (owns is None or owns(r.guild_id))]

    async def play_computer(self, game_id: int, ply: int, move: str, busy: bool = False,
                            score: int | None = None) -> Reply | None:
        """Save the computer's `move` in game `game_id`, only if the game is still at `ply` turns with
        the computer to move (a compare-and-set, as a player's move): the board after it, pinging
        the member unless they turned pings off. None when the game changed meanwhile (nothing
        saved: the runner reads it again). `busy`: it thought less than usual, and says so.
        `score`: its search's score (its own view); where the rules let it claim a draw and the
        score says it is not better (as for a draw offer), it claims the draw instead of moving."""
        async with self._lock(await self._channel_of(game_id)):
            live = await self._computer_live(game_id, ply)
            if live is None:
                return None
            record, game = live.record, live.playing
            seat = record.players[computer.seat(record.players) or 0]
            before = record.copy()
            claim = game.claimable_outcome() if score is not None and score <= 0 else None
            if claim:
                return await self._claim_draw(live, before, claim, Player(*seat))
            note = " (Busy: it thought less than usual.)" if busy else ""

            def headline(said: Said) -> Line:
                return turn_headline(Player(*seat), said, note)

            def play_and_compose() -> Reply | None:   # one thread trip, as a member's move (Play._play_and_compose)
                record.moves.append(game.play(move))
                record.plies_played += 1   # as a member's move: the turn builder's menus are numbered by it
                record.draw_offer = None
                self._settle(record, game)
                try:
                    return self._compose_board(record, game, headline)
                except Exception:   # noqa: BLE001 - not committed yet: composed again after the commit
                    return None

            reply = await asyncio.to_thread(play_and_compose)
            await self._commit(live, before, undo=game.undo, settled=True)
            if reply is None:
                reply = await self._board_reply(record, game, headline)
            return await self._ping_next(reply, record, game)

    async def computer_resigns(self, game_id: int, ply: int) -> Reply | None:
        """The computer resigns game `game_id` (a hopeless position, at the higher levels), only if
        it is still at `ply` with the computer to move; the final board, or None as `play_computer`."""
        async with self._lock(await self._channel_of(game_id)):
            live = await self._computer_live(game_id, ply)
            if live is None:
                return None
            record, game = live.record, live.playing
            seat = computer.seat(record.players) or 0
            before = record.copy()
            claim = game.claimable_outcome()
            if claim:   # a draw it may claim is better than resigning
                return await self._claim_draw(live, before, claim, Player(*record.players[seat]))
            game.finish(Outcome.win(rules.BLACK if seat == 0 else rules.WHITE, f"{game.turn} resigned", Ending.RESIGNATION))
            await self._commit(live, before, undo=lambda: game.finish(None))
            reply = await self._board_reply(record, game, f"{record.players[seat][1]} resigns.")
            return await self._ping_others(reply, record, record.players[seat][0])

    async def _channel_of(self, game_id: int) -> str:
        record = await self.store.get(game_id)
        return record.channel_id if record is not None else f"game:{game_id}"

    async def _computer_live(self, game_id: int, ply: int) -> Live | None:
        """The live game `game_id` (its channel's lock held) if it is at `ply` with the computer to move."""
        record = await self.store.get(game_id)
        if record is None:
            return None
        live = await self._load(record.channel_id)
        if (live is None or live.game is None or live.record.id != game_id or len(live.record.moves) != ply
                or live.game.outcome is not None or not computer.to_move(live.record.players, live.record.fen)):
            return None
        return live

    async def _computer_draw(self, live: Live, user: Player) -> Reply:
        """A draw offered to the computer: it accepts when its evaluation says it is not better (and
        declines when it has none)."""
        record, game = live.record, live.playing
        seat = computer.seat(record.players) or 0
        name = record.players[seat][1]
        if self.thinker is None:
            raise UserError(f"{name} is not running just now, so it cannot answer a draw offer. Try again later.")
        score = await self.thinker.evaluate(record.copy())   # for the side to move
        if score is None:
            return Reply(f"{name} declines the draw: it could not weigh the position just now.", game_id=record.id)
        if not computer.to_move(record.players, record.fen):
            score = -score   # the member is to move: the computer's view is the other way round
        if score > 0:
            return Reply(f"{name} declines the draw: it thinks it stands better.", game_id=record.id)
        before = record.copy()
        game.finish(Outcome.draw("agreed", Ending.AGREEMENT))
        record.draw_offer = None
        await self._commit(live, before, undo=lambda: game.finish(None))
        reply = await self._board_reply(record, game, (f"{name} accepts ", Who(user), "'s draw offer."))
        return await self._ping_others(reply, record, record.players[seat][0])

    async def _computer_takeback(self, live: Live, user: Player) -> Reply:
        """Against the computer a takeback is granted at once: the member's last move and the
        computer's reply, when it is the member's turn."""
        record, game = live.record, live.playing
        name = record.players[computer.seat(record.players) or 0][1]
        if computer.to_move(record.players, record.fen):
            raise UserError(f"{name} is still thinking about its move: ask again once it has moved.")
        if len(record.moves) < 2:
            raise UserError("You have no move to take back yet.")
        before = record.copy()
        taken = take_back(game, 2)
        del record.moves[-2:]
        record.draw_offer = record.takeback_offer = None
        await self._commit(live, before, undo=lambda: play_again(game, taken))
        return await self._board_reply(record, game, (f"{name} grants the takeback: ", *told(taken)))

    @staticmethod
    def _plays_computer(record: GameRecord) -> bool:
        return computer.seat(record.players) is not None
