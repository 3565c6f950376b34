"""The service every front end calls: games, players and channels. Knows nothing of Discord.

Each call takes the channel key (a channel id, or a thread id inside a thread) and the acting
player, checks, changes the game, commits it to the store, then answers with a Reply. User
mistakes raise UserError with a short sentence and change nothing.

One module per job, each a part of GameService over the shared unit of work (`tables`):

    types     the records and errors the service hands back (Reply, Player, UserError, DueEvent)
    tables    the unit of work: games in memory, locks, load/revive/suspend, compare-and-set save
    games     starting and ending games: puzzles, challenges, resign, draw, takeback, abort, rematch
    play      moves (typed, built from menus, clicked on a grid), the board, undo, move suggestions
    clock     deadlines: expired challenges, reminders, games lost on time
    computer  games against the computer: started at once, its turns saved, its answers to draws and takebacks
    seats     the computer as a player: its id `computer:<level>`, its name, its record keys (pure)
    lobby     server settings, pings, the open games
    records   ratings, leaderboards, profiles
    exports   PGN and GIF
    puzzles   daily deals and hints
    present   composing the answers: boards, results, help, the variants list, rules cards
"""
from __future__ import annotations

from ..suggest import suggest
from ..timing import duration
from .clock import Clock
from .computer import COMPUTER, Computer
from .exports import Exports
from .games import Games
from .lobby import Lobby
from .play import Play
from .present import Presenter
from .puzzles import Puzzles
from .records import Records, is_rated, rating_text
from .types import RULES_VERSION, STALE, UNSURE, DueEvent, DueSignal, Player, Reply, UserError

__all__ = ["GameService", "COMPUTER", "UserError", "Player", "Reply", "DueEvent", "DueSignal", "STALE", "UNSURE", "RULES_VERSION",
           "duration", "is_rated", "rating_text", "suggest"]


class GameService(Games, Play, Puzzles, Exports, Records, Lobby, Clock, Computer, Presenter):
    """Every call a front end makes (the parts above, over `tables.Tables`)."""
