"""Game records as table rows, for the SQL stores (SQLite and PostgreSQL): the columns, a record
as a row and back, and the rows that cannot be read set aside."""
from __future__ import annotations

import json
import logging
from dataclasses import fields
from datetime import datetime, timezone
from typing import Callable, Iterable

from .records import OPEN, BadRow, Delivery, GameRecord, GameStatus, SetAside

log = logging.getLogger(__name__)

GAME_COLUMNS = ("variant", "guild_id", "channel_id", "players", "seed", "start_fen", "moves", "fen", "status",
                "result", "reason", "ending", "score", "draw_offer", "created_at", "updated_at", "version",
                "rules_version", "error", "home_channel_id", "message_id", "challenger_id", "move_seconds", "due_at",
                "reminded", "takeback_offer", "hints", "plies_played", "daily", "par", "practice", "rematch_of")

DAILY_COLUMNS = ("day", "variant", "player_id", "guild_id", "name", "game_id", "solved", "score", "hints", "plies",
                 "finished_at")

RATING_COLUMNS = ("guild_id", "variant", "player_id", "name", "rating", "rd", "volatility", "games", "wins",
                  "draws", "losses", "updated_at")

# Tables besides `games` that a whole-database copy (python -m bot copy-db) carries over, with their columns.
OTHER_TABLES: dict[str, tuple[str, ...]] = {
    "ratings": RATING_COLUMNS,
    "rated_games": ("game_id", "rated_at"),
    "guild_settings": ("guild_id", "settings", "updated_at"),
    "member_prefs": ("user_id", "pings", "updated_at"),
    "daily_results": DAILY_COLUMNS,
}


DELIVERY_COLUMNS = ("kind", "guild_id", "channel_id", "game_id", "ref", "reply", "created_at")


def delivery_row(delivery: Delivery) -> tuple:
    return tuple(json.dumps(delivery.reply) if c == "reply" else getattr(delivery, c) for c in DELIVERY_COLUMNS)


def delivery_of(row) -> Delivery:
    return Delivery(**{**dict(row), "reply": json.loads(row["reply"])})


def settings_of(guild_id: str, raw: str | None, told: set[str]) -> dict:
    """A server's stored settings. A row that is not a JSON object reads as none (the defaults), so
    it stops no command; it is kept, for the server to mend by changing its settings, and logged
    once per server (`told`: the servers logged so far)."""
    try:
        settings = json.loads(raw) if raw else {}
    except (TypeError, ValueError):
        settings = None
    if isinstance(settings, dict):
        return settings
    if guild_id not in told:
        told.add(guild_id)
        log.error("the settings of server %s cannot be read from the database, so the defaults apply until "
                  "they are changed: %.60r", guild_id, raw)
    return {}


def to_row(record: GameRecord, version: int | None = None) -> tuple:
    """The record as a row of GAME_COLUMNS (`version`: the version to write, if not the record's)."""
    values = {c: getattr(record, c) for c in GAME_COLUMNS}
    if version is not None:
        values["version"] = version
    values["players"] = json.dumps([list(p) for p in record.players])
    values["moves"] = json.dumps(record.moves)
    values["reminded"], values["practice"] = int(record.reminded), int(record.practice)
    return tuple(values[c] for c in GAME_COLUMNS)


def holds(stored: GameRecord | None, written: GameRecord) -> bool:
    """Whether a row read back holds exactly what was written (its id aside): how a write whose
    answer was lost (a connection cut after the commit) is known to have landed."""
    return stored is not None and to_row(stored) == to_row(written)


# -- reading game rows: one that cannot be decoded is set aside, the rest are read ---------------
# What each column must hold (or NULL), read from GameRecord's fields: SQLite keeps any value in any
# column. The JSON columns are checked as they are decoded.
_KINDS: dict[str, type | tuple[type, ...]] = {"str": str, "int": int, "float": (int, float), "bool": int}
_COLUMN_KINDS = {f.name: _KINDS[kind] for f in fields(GameRecord) if (kind := str(f.type).split(" |")[0]) in _KINDS}
# Sets one game row aside, in either SQL dialect: the placeholders are the error, the time and the id.
SET_ASIDE = (f"UPDATE games SET status = '{GameStatus.SUSPENDED}', error = {{}}, updated_at = {{}}, "
             f"version = version + 1 WHERE id = {{}} AND status <> '{GameStatus.SUSPENDED}'")
# Open games (challenges and games in play), as SQL both dialects read: written out, not a parameter,
# so the partial indexes on open games serve the query.
OPEN_SQL = "status IN (" + ", ".join(f"'{s}'" for s in OPEN) + ")"

# Finished games of a server ('' outside one) with a result to rate and no rated_games row, oldest
# first, as SQL both dialects read (the placeholder is the server).
RATED_RESULTS = ("1-0", "0-1", "1/2-1/2")
UNRATED = (f"SELECT * FROM games AS g WHERE g.status = '{GameStatus.FINISHED}' AND COALESCE(g.guild_id, '') = {{}} "
           "AND g.result IN (" + ", ".join(f"'{r}'" for r in RATED_RESULTS) + ") "
           "AND NOT EXISTS (SELECT 1 FROM rated_games AS r WHERE r.game_id = g.id) ORDER BY g.id")


def _json_column(data: dict, name: str):
    try:
        return json.loads(data[name])
    except (TypeError, ValueError) as exc:
        raise BadRow(data.get("id"), f"{name} is not JSON ({exc}): {data[name]!r:.60}") from None


def from_row(row) -> GameRecord:
    """The record a row holds; BadRow where a column cannot be read as the record needs it."""
    data = dict(row)
    for name, value in data.items():
        if value is not None and not isinstance(value, _COLUMN_KINDS.get(name, object)):
            raise BadRow(data.get("id"), f"{name} holds {value!r:.60}")
    players, moves = _json_column(data, "players"), _json_column(data, "moves")
    if not (isinstance(players, list) and players and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in players)):
        raise BadRow(data.get("id"), f"players is not a list of [id, name] pairs: {data['players']!r:.60}")
    if not (isinstance(moves, list) and all(isinstance(m, str) for m in moves)):
        raise BadRow(data.get("id"), f"moves is not a list of turns: {data['moves']!r:.60}")
    data["players"], data["moves"] = [tuple(p) for p in players], moves
    data["reminded"], data["practice"] = bool(data["reminded"]), bool(data["practice"])
    try:
        return GameRecord(**data)
    except ValueError as exc:   # a status or ending no enum names
        raise BadRow(data.get("id"), str(exc)) from None


class SetsAsideBadRows:
    """Game rows read by the SQL stores. One that cannot be decoded stops no query: it is set aside
    as a game that no longer replays is (status 'suspended', its data kept, its channel free), by
    an UPDATE that needs nothing decoded, logged once with its id, and the query goes on with the
    rest. `on_set_aside` (the service) hears of each, to tell its players."""

    on_set_aside: Callable[[SetAside], None] | None = None

    async def _mark_suspended(self, game_id: int, error: str, when: str) -> bool:
        """Set the row aside with `error`, unless it is already; whether this did."""
        raise NotImplementedError

    async def _decoded(self, rows: Iterable) -> list[GameRecord]:
        records = []
        for row in rows:
            try:
                records.append(from_row(row))
            except BadRow as exc:
                await self._set_aside(row, str(exc))
        return records

    async def _set_aside(self, row, error: str) -> None:
        game_id, status = int(row["id"]), str(row["status"])
        try:
            done = await self._mark_suspended(game_id, f"BadRow (was {status}): {error}",
                                              datetime.now(timezone.utc).isoformat(timespec="seconds"))
        except Exception:
            log.exception("game %s cannot be read from the database (%s), nor set aside", game_id, error)
            return
        if done:   # else set aside before (by this process or another), and logged then
            log.error("game %s (%s, channel %s) cannot be read from the database and is set aside: %s",
                      game_id, row["variant"], row["channel_id"], error)
            if self.on_set_aside is not None:
                self.on_set_aside(SetAside(game_id, str(row["channel_id"]), str(row["variant"]), status))
