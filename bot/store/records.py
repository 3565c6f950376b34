"""What the store holds and hands out: game records, ratings, daily results, the errors it
raises, and the GameStore protocol every version (memory, SQLite, PostgreSQL) keeps.

A record keeps what is needed to replay a game: variant, seed and start FEN, the move list.

Every save is a compare-and-set on the record's `version`: the store writes only if the stored
row still has the version the record was read with, then raises it by one; otherwise it raises
`StaleRecord` and writes nothing. So two writers can never fork a game: the slower one is
refused and must reload.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Callable, Protocol

from rules import Ending, Outcome

from ..ratings import DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY, Rating, rate_game



class GameStatus(StrEnum):
    """Where a game stands; the values are those the games table stores (and its CHECK allows).
    A StrEnum: each equals its text, so records read back with plain strings compare alike."""
    CHALLENGE = "challenge"   # waiting for an opponent to accept
    ACTIVE = "active"         # in play
    FINISHED = "finished"     # over, with a result (a puzzle: solved or not)
    DECLINED = "declined"     # a challenge refused or withdrawn
    EXPIRED = "expired"       # a challenge nobody accepted in time
    ABORTED = "aborted"       # stopped by /abort: no result, no rating
    SUSPENDED = "suspended"   # set aside: it no longer replays or its row cannot be read (data kept)


OPEN = (GameStatus.CHALLENGE, GameStatus.ACTIVE)
PLAYING = GameStatus.ACTIVE   # the one status a channel (or thread) may hold only one game in
OPEN_SEAT = ("", "")    # an open challenge's free seat in `players`: anyone but the challenger may take it


class ChannelBusy(Exception):
    """The channel already has a game in play."""


class StaleRecord(Exception):
    """The game was changed by someone else since it was read: nothing was written."""


class StoreError(Exception):
    """The database cannot be used (in use, not a database, read-only, bad path): one sentence."""


class BadRow(ValueError):
    """A stored game row with a column that is not what a record needs."""

    def __init__(self, game_id: int | None, text: str) -> None:
        super().__init__(text)
        self.game_id = game_id


@dataclass(frozen=True)
class SetAside:
    """A game whose row could not be decoded, set aside by the store (status 'suspended', data kept)."""
    id: int
    channel_id: str
    variant: str
    status: str   # its status before


@dataclass
class GameRecord:
    variant: str
    channel_id: str
    players: list[tuple[str, str]]          # (id, name) in seat order: white, black; solo: one
    fen: str
    status: GameStatus                      # text given (or read back) is read as the GameStatus it names
    guild_id: str | None = None
    seed: int | None = None
    start_fen: str | None = None
    moves: list[str] = field(default_factory=list)
    result: str | None = None
    reason: str | None = None               # the words players read; code decides on `ending`
    ending: Ending | None = None            # how it ended (migration 006); None in play and when aborted
    score: int | None = None
    draw_offer: str | None = None
    created_at: str = ""
    updated_at: str = ""
    version: int = 0                 # raised by every save (compare-and-set)
    rules_version: str | None = None # Kibitz version the game was started under
    error: str | None = None         # why a suspended game could not be restored
    home_channel_id: str | None = None   # the channel it was asked for in (the game may be in a thread)
    message_id: str | None = None        # the challenge's message, edited when settled; in play, the newest board
    challenger_id: str | None = None     # who challenged (two-player games)
    move_seconds: int | None = None      # time allowed per move; None: no deadline
    due_at: float | None = None          # Unix time of the next deadline (challenge expiry, or the move)
    reminded: bool = False               # the player to move was reminded of due_at
    takeback_offer: str | None = None    # id of the player whose takeback request stands
    hints: int = 0                       # hints shown (puzzles)
    plies_played: int = 0                # turns played, undone ones included (puzzles)
    daily: str | None = None             # YYYY-MM-DD (UTC) of a daily deal
    par: int | None = None               # best score the daily's solver found
    practice: bool = False               # a puzzle's play after a counted finish (migration 007): not on the board
    rematch_of: int | None = None        # the finished game this game against the computer is the rematch of (008)
    id: int | None = None

    def __post_init__(self) -> None:   # ValueError for a status or ending no enum names
        self.status = GameStatus(self.status)
        self.ending = None if self.ending is None else Ending(self.ending)

    @property
    def outcome(self) -> Outcome | None:
        """The stored ending as the rules' Outcome, its kind included; None without a result."""
        return None if self.result is None else Outcome(self.result, self.reason or "", self.score, self.ending)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN

    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def open_seat(self) -> int | None:
        """The seat (0 white, 1 black) an open challenge leaves to whoever accepts, else None."""
        return next((i for i, p in enumerate(self.players) if tuple(p) == OPEN_SEAT), None) \
            if len(self.players) == 2 else None

    def copy(self) -> "GameRecord":
        return replace(self, players=list(self.players), moves=list(self.moves))


@dataclass
class PlayerRating:
    """One member's Glicko-2 rating in one variant of one server, with their rated games."""
    guild_id: str
    variant: str
    player_id: str
    name: str
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    updated_at: str = ""

    @property
    def glicko(self) -> Rating:
        return Rating(self.rating, self.rd, self.volatility)

    def after(self, new: Rating, score: float, name: str, when: str) -> "PlayerRating":
        """This row after one rated game with `score` (1, 0.5, 0) and the new rating."""
        return replace(self, name=name, rating=new.rating, rd=new.rd, volatility=new.volatility,
                       games=self.games + 1, wins=self.wins + (score == 1), draws=self.draws + (score == 0.5),
                       losses=self.losses + (score == 0), updated_at=when)


@dataclass
class DailyResult:
    """The first finish of one member's copy of a daily deal (the one that counts)."""
    day: str
    variant: str
    player_id: str
    guild_id: str
    name: str
    game_id: int
    solved: bool
    score: int | None
    hints: int
    plies: int
    finished_at: str


@dataclass
class Delivery:
    """An answer Discord could not take yet (migration 005, bot/discord/outbox.py): a message to post
    ("post": `reply` holds its text, ply, ping and buttons, `ref` its nonce; a board is drawn again
    from game `game_id` when sent) or one to delete ("delete": `ref` is the message id)."""
    kind: str
    guild_id: str | None
    channel_id: str
    ref: str
    game_id: int | None = None
    reply: dict = field(default_factory=dict)
    created_at: str = ""
    id: int | None = None


def daily_key(row: DailyResult, higher_is_better: bool) -> tuple:
    """Score board order: solved first, best score, fewer hints, fewer turns played, earliest finish."""
    score = row.score if row.score is not None else 0
    return (not row.solved, -score if higher_is_better else score, row.hints, row.plies, row.finished_at)


def rated_pair(white: PlayerRating, black: PlayerRating, names: tuple[str, str], white_score: float,
               when: str) -> tuple[PlayerRating, PlayerRating]:
    new_white, new_black = rate_game(white.glicko, black.glicko, white_score)
    return (white.after(new_white, white_score, names[0], when),
            black.after(new_black, 1 - white_score, names[1], when))


class GameStore(Protocol):
    on_set_aside: Callable[[SetAside], None] | None   # told of each game row set aside as unreadable

    async def create(self, record: GameRecord) -> int: ...
    async def save(self, record: GameRecord) -> None:
        """Write `record` if the stored row still has `record.version`, then raise it by one;
        else raise StaleRecord. Raises ChannelBusy for a second open game in a channel."""
    async def get(self, game_id: int) -> GameRecord | None: ...
    async def open_game(self, channel_id: str) -> GameRecord | None: ...
    async def latest(self, channel_id: str, statuses: tuple[str, ...] | None = None) -> GameRecord | None:
        """The newest game played in a channel or thread (of those statuses, if given)."""
    async def rematch_of(self, game_id: int) -> GameRecord | None:
        """The game begun as the rematch of game `game_id` (migration 008), or None."""
    async def open_games(self) -> list[GameRecord]: ...
    async def count_open(self) -> int: ...
    async def close(self) -> None: ...
    # -- ratings (migration 003) ------------------------------------------------------------
    async def rate(self, game_id: int, guild_id: str, variant: str, white: tuple[str, str],
                   black: tuple[str, str], white_score: float, when: str) -> bool:
        """Rate a finished game once: update both players (id, name) in one transaction and
        remember the game id. False, changing nothing, when the game was rated already."""
    async def leaderboard(self, guild_id: str, variant: str, limit: int = 10) -> list[PlayerRating]: ...
    async def rating_place(self, guild_id: str, variant: str, player_id: str) -> tuple[int, PlayerRating] | None:
        """The member's place (1 = top) on the variant's board, with their row; None if unrated."""
    async def player_ratings(self, guild_id: str, player_id: str) -> list[PlayerRating]: ...
    async def best_scores(self, guild_id: str, variant: str, higher_is_better: bool,
                          limit: int = 10) -> list[GameRecord]:
        """The finished games of a puzzle in this server that have a score, best first: solved
        before not solved, then the better score, then the earlier game."""
    # -- lobby, deadlines, settings, dailies (migration 004) -------------------------------------
    async def challenges(self, channel_id: str) -> list[GameRecord]:
        """Challenges waiting in a channel, oldest first."""
    async def open_in_guild(self, guild_id: str | None) -> list[GameRecord]:
        """A server's games in play and waiting challenges (guild None: those outside a server), oldest first."""
    async def next_due(self, after: float | None = None) -> float | None:
        """The earliest due_at among open games (of those later than `after`, if given), or None."""
    async def due(self, now: float, limit: int = 100) -> list[GameRecord]:
        """Open games whose due_at has come (due_at <= now), earliest first."""
    async def settings(self, guild_id: str) -> dict:
        """A server's stored settings ({} if none)."""
    async def save_settings(self, guild_id: str, settings: dict, when: str) -> None: ...
    async def pings(self, user_id: str) -> bool:
        """Whether the member wants to be pinged (True unless they turned pings off)."""
    async def set_pings(self, user_id: str, on: bool, when: str) -> None: ...
    async def daily_games(self, day: str, variant: str, player_id: str) -> list[GameRecord]:
        """The member's copies of a day's deal, oldest first."""
    async def add_daily_result(self, result: DailyResult) -> bool:
        """Keep the first finish of a member's daily; False, changing nothing, if one is kept already."""
    async def unrecorded_daily_finishes(self, day: str, variant: str, guild_id: str) -> list[GameRecord]:
        """Finished daily copies of a server ('' outside one) whose player has no result kept for
        the day: a finish saved just before the process died, before its result was written."""
    async def daily_results(self, guild_id: str, variant: str, day: str) -> list[DailyResult]:
        """A server's results for a day's deal, unordered."""
    async def unrated_finishes(self, guild_id: str) -> list[GameRecord]:
        """Finished games of a server ('' outside one) with a result and not rated: a finish whose
        rating was not written (the process died, or the store failed, just after it was saved)."""
    # -- the outbox (migration 005) ----------------------------------------------------------------
    async def add_delivery(self, delivery: Delivery) -> int: ...
    async def deliveries(self, limit: int = 100) -> list[Delivery]:
        """Pending deliveries, oldest first."""
    async def drop_delivery(self, delivery_id: int) -> None: ...
    async def mark_delivery(self, delivery_id: int, reply: dict) -> None:
        """Replace a pending delivery's `reply` (e.g. to note that Discord may have posted it); nothing if it is gone."""
