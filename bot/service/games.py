"""Starting and ending games: puzzles and challenges (accept, decline, rematch), and the ways a
game ends or turns back by agreement: resign, draw, takeback, abort."""
from __future__ import annotations

import random
from typing import Callable

import rules
from rules import Ending, Game, Outcome

from .. import daily
from . import seats as computer
from ..settings import MAX_DAYS, MIN_DAYS
from ..store import OPEN_SEAT, ChannelBusy, GameRecord, GameStatus, StaleRecord
from ..timing import DAY, duration
from .present import play_again, said_turns, take_back, told
from .tables import Live, Tables, tells_notices
from .types import RULES_VERSION, Button, Mark, Player, Reply, UserError, Who

COLOURS = ("white", "black", "random")
ANSWER_TAKEBACK = ("/takeback yes", "/takeback no")   # what a takeback request's Accept and Decline buttons do


class Games(Tables):
    """Games begun, answered and ended."""

    @tells_notices
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
            record = GameRecord(info.slug, channel, [(user.id, user.name)], game.fen(), GameStatus.ACTIVE, guild,
                                seed=seed, start_fen=game.fen(), created_at=now, updated_at=now,
                                rules_version=RULES_VERSION, home_channel_id=home or channel)
            self._settle(record, game)
            await self._create(record)
            self._live[channel] = Live(record, game)
            seeded = f" (seed {seed})" if info.seeded else ""   # a fixed array has no seed worth saying
            return await self._board_reply(record, game, (Who(user, "starts"), " ", Mark(info.name), f"{seeded}."))

    @tells_notices
    async def challenge(self, channel: str, challenger: Player, opponent: Player | None, slug: str,
                        guild: str | None = None, colour: str = "white", days: int | None = None,
                        level: int | None = None, play_in: str | None = None) -> Reply:
        """Post a challenge in `channel`. Challenges wait side by side; none takes the channel.
        `opponent` None is an open challenge anyone but the challenger may accept. `colour` is the
        challenger's: white, black or random (drawn now, and said). `days` per move (1-14)
        overrides the default deadline.

        `opponent` COMPUTER (or a computer seat's id, as a rematch passes it): no challenge; the game
        against the computer at `level` (default engine.DEFAULT_LEVEL) begins at once in `play_in`
        (a thread made for it), else in `channel` (see computer.py; `check_computer` checks first)."""
        if opponent is not None and computer.is_computer(opponent.id):
            colour = (colour or "random").strip().lower()
            if colour not in COLOURS:
                raise UserError("Colour must be white, black or random.")
            if days is not None and not MIN_DAYS <= days <= MAX_DAYS:
                raise UserError(f"Days per move must be {MIN_DAYS} to {MAX_DAYS}.")
            level = computer.level_of(opponent.id) if level is None and opponent.id != computer.COMPUTER_ID else level
            return await self._challenge_computer(channel, challenger, slug, guild, colour, level, play_in, days)
        if level is not None:
            raise UserError("A level is for a game against the computer (Kibitz) only.")
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
            timer = self.timer()
            for waiting in await self.store.challenges(channel):   # the same again: a retry, say
                if (waiting.challenger_id == challenger.id and waiting.variant == info.slug
                        and (waiting.due_at is None or waiting.due_at > timer)
                        and {p for p, _ in waiting.players} == {p for p, _ in seats}):
                    raise UserError("You already have that challenge open here.")
            seed = random.randrange(2**31)   # stored with the start FEN: the set-up replays exactly
            game = rules.new_game(info.slug, seed=seed)
            now = self.clock()
            record = GameRecord(info.slug, channel, seats, game.fen(), GameStatus.CHALLENGE, guild, seed=seed,
                                start_fen=game.fen(), created_at=now, updated_at=now, rules_version=RULES_VERSION,
                                home_channel_id=channel, challenger_id=challenger.id,
                                move_seconds=days * DAY if days is not None else self._default_seconds(),
                                due_at=self.timer() + self.challenge_ttl if self.challenge_ttl else None)
            await self._create(record)
            how = " (drawn at random)" if drawn else ""
            answer = (Who(opponent), ", accept or decline.") if opponent is not None else ("Anyone may accept.",)
            clock = f"{duration(record.move_seconds)} per move. " if record.move_seconds else ""
            return Reply([(Who(challenger, "challenges"), " ", Who(opponent) if opponent else "anyone", " to ",
                           Mark(info.name), ". ", Who(challenger, "would"), f" play {colour.capitalize()}{how}. {clock}",
                           *answer)],
                         game_id=record.id, challenge=(self._id(record), challenger.id, opponent.id if opponent else ""),
                         pings=(opponent.id,) if opponent is not None else ())

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

    @tells_notices
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
            record.message_id = None   # the challenge's message is settled now; it becomes the newest board's
            record.status = GameStatus.ACTIVE
            record.due_at = self.timer() + record.move_seconds if record.move_seconds else None
            self._settle(record, game)
            live = Live(record, game)
            try:
                await self._save(live, before)
            except ChannelBusy:
                raise UserError("This channel already has a game in play. Finish it first, or accept in "
                                "another channel or thread.") from None
            self._live[where] = live
            reply = await self._board_reply(record, game, (Who(user, "accepts"), ". The game begins."))
            return await self._ping_next(reply, record, game)

    @tells_notices
    async def decline(self, channel: str, user: Player, game_id: int | None = None) -> Reply:
        """The named opponent declines, or the challenger withdraws; an open challenge only the challenger."""
        record = await self._challenge_for(channel, user, game_id, declining=True)
        before = record.copy()
        record.status = GameStatus.DECLINED
        record.due_at = None
        await self._save(Live(record, None), before)
        verb = "withdraws" if user.id == record.challenger_id else "declines"
        return Reply([(Who(user, verb), " the challenge.")], game_id=record.id, finished=True)

    async def waiting_challenges(self, channel: str, user: Player, declining: bool = False,
                                 here: list[GameRecord] | None = None) -> list[GameRecord]:
        """The open challenges in `channel` (`here`, when read already) that `user` may accept (or decline)."""
        if here is None:
            now = self.timer()
            here = [r for r in await self.store.challenges(channel) if r.due_at is None or r.due_at > now]
        return [r for r in here if self._may_answer(r, user, declining)]

    async def _challenge_for(self, channel: str, user: Player, game_id: int | None,
                             declining: bool = False) -> GameRecord:
        """The challenge `user` accepts (or, `declining`, declines or withdraws): game `game_id`, else
        the one challenge waiting for them in `channel`. Checked whatever the button said (_may_answer)."""
        # a challenge past its time is over, even before the scheduler marks it (after a restart, say)
        now = self.timer()
        if game_id is not None:
            record = await self.store.get(game_id)
            if record is None or record.status != GameStatus.CHALLENGE or (record.due_at is not None and record.due_at <= now):
                raise UserError("That challenge is no longer open.")
            if channel != (record.home_channel_id or record.channel_id):   # its buttons are on its own message
                raise UserError("That challenge was posted in another channel: answer it there, with its buttons.")
        else:
            here = [r for r in await self.store.challenges(channel) if r.due_at is None or r.due_at > now]
            waiting = await self.waiting_challenges(channel, user, declining, here)
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

    @tells_notices
    async def rematch(self, channel: str, user: Player, game_id: int, guild: str | None = None,
                      play_in: str | None = None, link: Callable[[GameRecord], str | None] | None = None) -> Reply:
        """Challenge the other player of finished game `game_id` again, colours swapped, in `channel`
        (of the game's server `guild`). Against the computer the new game, at the same level,
        begins at once, in `play_in` (a thread made for it) or else in `channel`, and only once:
        a second press is told where it is (`link(record)`, where the front end can point to it)."""
        record = await self.check_rematch(user, game_id, guild, link)
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
            colour = rules.BLACK if colour == rules.WHITE else rules.WHITE
            if computer.seat(record.players) is not None:   # one game, two presses at once too; it notes whose rematch it is
                await self._refuse_second_rematch(game_id, link)
                return await self._challenge_computer(channel, user, record.variant, record.guild_id, colour,
                                                      computer.level_of(other_id), play_in, days, rematch_of=game_id)
            return await self.challenge(channel, user, Player(other_id, other_name), record.variant,
                                        guild=record.guild_id,
                                        colour=colour, days=days,
                                        play_in=play_in)

    async def check_rematch(self, user: Player, game_id: int, guild: str | None,
                            link: Callable[[GameRecord], str | None] | None = None) -> GameRecord:
        """Finished game `game_id`, refused (UserError) unless `user` played it and may ask for its
        rematch in server `guild`; against the computer, only once, under the cap and where the server
        lets it play. Cheap: a front end calls it before it opens a thread for the new game."""
        record = await self.store.get(game_id)
        if record is None or record.solo or record.status != GameStatus.FINISHED:
            raise UserError("A rematch is offered once a two-player game is over.")
        if guild != record.guild_id:
            raise UserError("A rematch is offered in the server where the game was played.")
        self._seat(record, user)   # first: a bystander hears only that, not about their own games
        if (seat := computer.seat(record.players)) is not None:
            await self._refuse_second_rematch(game_id, link)
            await self.check_computer(guild, user, record.variant, computer.level_of(record.players[seat][0]))
        return record

    async def _refuse_second_rematch(self, game_id: int, link: Callable[[GameRecord], str | None] | None) -> None:
        """A game against the computer has one rematch (it begins at once), read from the store (so
        it holds after a restart): a second press is told where that one is."""
        began = await self.store.rematch_of(game_id)
        if began is not None:
            where = link(began) if link is not None else None
            raise UserError(f"Your rematch of game #{game_id} has begun already: game #{began.id}"
                            + (f", in {where}." if where else "."))

    async def check_player(self, channel: str, user: Player, game_id: int | None = None) -> None:
        """Raise UserError unless `user` plays the game in play here (game `game_id`, if given)."""
        async with self._lock(channel):
            live = await self._active(channel)
            self._require_game(live.record, game_id)
            self._seat(live.record, user)

    @tells_notices
    async def resign(self, channel: str, user: Player, game_id: int | None = None) -> Reply:
        """Resign (give up a puzzle). `game_id`, from a button, must be the game in play here."""
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            self._require_game(record, game_id)
            colour = self._seat(record, user)
            if record.solo:
                outcome = Outcome("failed", "gave up", game.score, Ending.FAILED)
            else:
                winner = rules.BLACK if colour == rules.WHITE else rules.WHITE
                outcome = Outcome.win(winner, f"{colour} resigned", Ending.RESIGNATION)
            before = record.copy()
            game.finish(outcome)
            await self._commit(live, before, undo=lambda: game.finish(None))
            return await self._ping_others(await self._board_reply(record, game, (Who(user, "resigns"), ".")), record, user.id)

    async def _claim_draw(self, live: Live, before: GameRecord, claim: Outcome, claimant: Player) -> Reply:
        """`claimant`, to move in `live` (its lock held; a member, or the computer), claims the draw
        `claim` the rules allow: the final board, pinging the other player."""
        record, game = live.record, live.playing
        game.finish(Outcome.draw(f"{claim.reason} claimed", claim.kind))
        await self._commit(live, before, undo=lambda: game.finish(None))
        return await self._ping_others(await self._board_reply(record, game, (Who(claimant, "claims"), " a draw.")),
                                       record, claimant.id)

    @tells_notices
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
            claim = game.claimable_outcome() if game.turn == colour else None
            if claim:
                return await self._claim_draw(live, before, claim, user)
            if self._plays_computer(record):
                return await self._computer_draw(live, user)
            if record.draw_offer and record.draw_offer != user.id:
                game.finish(Outcome.draw("agreed", Ending.AGREEMENT))
                record.draw_offer = None
                await self._commit(live, before, undo=lambda: game.finish(None))
                return await self._ping_others(await self._board_reply(record, game, (Who(user, "accepts"), " the draw.")),
                                               record, user.id)
            if record.draw_offer == user.id:
                raise UserError("Your draw offer already stands.")
            record.draw_offer = user.id
            await self._save(live, before)
            other_id, other = next((pid, name) for pid, name in record.players if pid != user.id)
            return await self._ping_member(
                Reply([(Who(user, "offers"), " a draw. ", Who(Player(other_id, other)), ", ",
                        Button("press Draw (or use /draw)", ("/draw",)), " to accept; your next move declines.")],
                      game_id=record.id, controls=("draw",)), other_id)

    @tells_notices
    async def takeback(self, channel: str, user: Player) -> Reply:
        """Ask the opponent to take back your last move (the last two when you are to move)."""
        async with self._lock(channel):
            live = await self._active(channel)
            record, game = live.record, live.playing
            if record.solo:
                raise UserError("In a puzzle, use /undo to take a move back.")
            colour = self._seat(record, user)
            if self._plays_computer(record):
                return await self._computer_takeback(live, user)
            if record.takeback_offer == user.id:
                raise UserError("Your takeback request already stands.")
            if record.takeback_offer:
                raise UserError("Your opponent has asked for a takeback: ",
                                Button("answer it with its buttons", ANSWER_TAKEBACK), " first.")
            plies = self._takeback_plies(game, colour)
            if plies > len(record.moves):
                raise UserError("You have no move to take back yet.")
            before = record.copy()
            record.takeback_offer = user.id
            await self._save(live, before)
            other_id, other = next((pid, name) for pid, name in record.players if pid != user.id)
            asked = take_back(game, plies)   # the turns in words, as the board after a takeback says them
            play_again(game, asked)
            return await self._ping_member(
                Reply([(Who(user, "asks"), " to take back ", *said_turns(asked), ". ", Who(Player(other_id, other)),
                        ", ", Button("accept or decline", ANSWER_TAKEBACK), "; any move declines.")],
                      game_id=record.id, controls=("takeback",), ply=daily.grid_ply(record), asker=user.id),
                other_id)

    @staticmethod
    def _takeback_plies(game: Game, colour: str) -> int:
        return 2 if game.turn == colour else 1

    @tells_notices
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
            before = record.copy()
            record.takeback_offer = None
            if not accept:
                await self._save(live, before)
                verb = ("withdraws", " the takeback request.") if user.id == asker_id else ("declines", " the takeback.")
                return Reply([(Who(user, verb[0]), verb[1])], game_id=record.id)
            asker_colour = rules.WHITE if record.players[0][0] == asker_id else rules.BLACK
            taken = take_back(game, self._takeback_plies(game, asker_colour))
            del record.moves[-len(taken):]
            record.draw_offer = None
            await self._commit(live, before, undo=lambda: play_again(game, taken))
            reply = await self._board_reply(record, game, (Who(user, "accepts"), " the takeback: ", *told(taken)))
            return await self._ping_next(reply, record, game)

    async def abort(self, channel: str, user: Player, moderator: bool, game_id: int | None = None,
                    guild: str | None = None) -> Reply:
        """A moderator (Manage Threads) ends the game in play here, or game `game_id` of the same
        server, with no result and no rating."""
        if not moderator:
            raise UserError("Only members who may manage threads can abort a game.")
        if game_id is not None:
            stored = await self.store.get(game_id)
            if stored is None or stored.guild_id != guild or stored.status != GameStatus.ACTIVE:
                raise UserError(f"No game #{game_id} is in play in this server.")
            channel = stored.channel_id
        async with self._lock(channel):
            live = await self._active(channel)
            record = live.record
            self._require_game(record, game_id)
            before = record.copy()
            record.status = GameStatus.ABORTED
            record.due_at, record.draw_offer, record.takeback_offer = None, None, None
            await self._save(live, before)
            self._live.pop(channel, None)
            info = rules.VARIANTS.get(record.variant)
            name = info.name if info else record.variant
            # view and ply: shown, this answer becomes the game's newest board, and the one before loses its controls
            reply = Reply([(Who(user, "aborted"), f" game #{record.id} ({name}): no result, no rating.")],
                          game_id=record.id, finished=True, view=live.playing.view(), ply=daily.grid_ply(record))
            return await self._ping_others(reply, record, user.id)
