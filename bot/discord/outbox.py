"""Answers Discord could not take yet: kept in the store, shown once it answers again.

``deliver_reply`` (bot/discord/answers.py) retries a committed change's answer on the interaction,
then in the channel; what still does not go through is kept here, as a row of the store's outbox
(migration 005), and so is a "thinking" message that could be neither replaced nor deleted, and a
post with no interaction to answer (``post_kept``: a new game's first board, a deadline's post). A
timer (``Outbox.start``, from the bot's setup_hook) tries the rows at once, then every ``POLL``
seconds while any is pending, one try at a time. A row that fails for now waits longer after
each failure (up to ``BACKOFF`` seconds: no storm of requests while Discord is down), and so do
the later rows of its channel, to keep their order; the other channels' rows go on. So a kept
answer shows within seconds of Discord answering again, and one that fails for good in one
channel holds up no other. A row older than ``MAX_AGE`` is dropped with a log line. Rows survive
a restart; each process sends those of the servers it runs.

A row holds what redraws the post: channel, text, who to ping, the buttons' data, and the game
and ply of its board, not the picture: the board is drawn again from the stored game when sent.
Posting carries the nonce of the channel post that failed before, so a post Discord made after
all (its answer lost) is not made twice. Sending deletes the row.

One board with controls: once a board is shown (here, or by answers.py as an answer or a post),
``show_newest`` keeps its message as the game's newest board in the store and takes the buttons
and menus off the one before.

One board per game: of the boards kept for a game, the one of the highest ply (not the one kept
last: answers can fail out of order) is kept, with the others' headlines ("alice plays e4.")
above its own text in the order played, so every move is still told. A board Discord may have
posted already (a try of it, here or before it was kept, failed in a way that may have been carried
out: a 5xx, a lost or timed-out answer, see bot/discord/transport.py; or a post made in part) is
merged neither way: it is tried again under its own nonce, as under another its headlines would be
told twice. The store notes this ("lost" in its row) before each try, so a restart, even in the
middle of a try, keeps it; the note is taken back only when Discord surely refused the try's first
piece (a 4xx, 429 included, or no connection made). So boards kept after 5xx answers are each
posted (the overtaken ones as their headlines alone, below): merging is for tries surely refused.
Discord holds a nonce for a few minutes only (``enforce_nonce``), so a board in doubt that goes
through much later may be posted twice; it is tried all the same, as a move told twice is better
than one lost. A board whose game has moved on by the time it can be sent (a newer board was
shown meanwhile, e.g. a later move answered once Discord was back) is posted as its headlines
alone: no picture, no buttons, no ping, as the newer board shows the game as it stands and an old
position under it would only mislead, but the move is still told.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

import discord

from bot.discord.context import guild_key
from bot.discord.transport import describe, may_have_gone, retry_delay, split_content
from bot.scheduler import Ready, Timer, everywhere
from bot.service import GameService, Reply
from bot.store import Delivery

log = logging.getLogger(__name__)

POLL = 2.0       # seconds between tries while something is pending
ATTEMPT = 5.0    # longest one try may take (discord.py's own 5xx retries included): then the next round
IDLE = 300.0     # with nothing pending, look again at least this often
PENDING = 1000   # rows read per round
BACKOFF = 8.0    # longest wait between two tries of one row, so it shows within 10 s of Discord answering
MAX_AGE = 24 * 3600.0   # seconds a row is kept at most: an answer older than that is dropped, with a log line
_KEPT = ("text", "pings", "ply", "controls", "asker", "challenge", "finished", "embed")   # Reply fields kept


class Outbox(Timer):
    name = "kibitz-outbox"

    def __init__(self, client: discord.Client, service: GameService, *,
                 compose: Callable[[Reply], tuple[str, dict[str, Any]]],
                 owns: Callable[[str | None], bool] = everywhere, ready: Ready | None = None) -> None:
        """`compose`: a Reply as a message's text and its other arguments (answers.py's ``message``)."""
        super().__init__(service, ready=ready)
        self.client, self.compose, self.owns = client, compose, owns
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()   # keeping and sending one at a time, so a merge never races a send
        self._retry: dict[tuple, tuple[int, float]] = {}   # _key(row): (failures, time.monotonic() of its next try)
        self._merges = 0   # rows keep_post replaced: a row read before may be gone, or its id taken by a new one

    async def keep_post(self, interaction: discord.Interaction, reply: Reply, text: str, nonce: str,
                        lost: bool = False) -> None:
        """Keep a committed change's answer (`text`: what is left of it to post) for later."""
        await self.keep_reply(guild_key(interaction), str(interaction.channel_id), reply, text, nonce,
                              f"the answer to interaction {interaction.id}", lost)

    async def keep_reply(self, guild_id: str | None, channel_id: str, reply: Reply, text: str, nonce: str,
                         what: str, lost: bool = False) -> None:
        """Keep a committed change's post in `channel_id` (`text`: what is left of it to post) for later;
        `what` names it in the log; `lost`: a try of it may have been carried out, so Discord may have posted it."""
        data: dict[str, Any] = {key: getattr(reply, key) for key in _KEPT}
        data.update(text=text.removeprefix("".join(f"<@{pid}> " for pid in reply.pings)),
                    board=reply.image is not None and reply.game_id is not None, **({"lost": True} if lost else {}))
        store = self.service.store
        kept = Delivery("post", guild_id, channel_id, nonce, reply.game_id, data, self.service.clock())
        try:
            async with self._lock:
                if data["board"] and not lost:   # one board per game: the highest ply's, the others' headlines above
                    rows = [older for older in await store.deliveries(PENDING) if older.kind == "post" and older.game_id
                            == reply.game_id and older.reply.get("board") and not self._maybe_posted(older)]
                    board = max([kept, *reversed(rows)], key=lambda row: row.reply.get("ply") or 0)   # a tie: the newer
                    told = sorted((told for row in [*rows, kept] for told in _headlines(row, row is not board)),
                                  key=lambda told: told[0])
                    kept = replace(board, id=None, reply={**board.reply, "earlier": told})
                    for older in rows:
                        await store.drop_delivery(older.id or 0)
                    self._merges += bool(rows)
                await store.add_delivery(kept)
        except Exception:
            log.exception("could not keep %s for later: it is lost", what)
            return
        log.warning("kept %s (game %s) until Discord takes it", what, reply.game_id)
        self._wake.set()

    async def keep_removal(self, guild_id: str | None, channel_id: str, message_id: int) -> None:
        """Delete message `message_id` (a "thinking" message left behind) once Discord lets us."""
        try:
            await self.service.store.add_delivery(Delivery("delete", guild_id, channel_id, str(message_id),
                                                           created_at=self.service.clock()))
        except Exception:
            log.exception("could not keep message %s to delete later", message_id)
            return
        self._wake.set()

    async def flush(self) -> bool:
        """Send the pending rows of this process's servers that are due, oldest first; a channel
        whose row fails for now waits (its later rows too, to keep their order), the others go on.
        True when none of them is left."""
        seen, rows = self._merges, await self.service.store.deliveries(PENDING)
        current = {_key(row): row for row in rows}   # as kept now (read again when keep_post replaced rows)
        self._retry = {key: self._retry[key] for key in map(_key, rows) if key in self._retry}
        waiting: set[str] = set()   # channels with a row to try later
        for delivery in rows:
            if not self.owns(delivery.guild_id):
                continue
            failures, due = self._retry.get(_key(delivery), (0, 0.0))
            old = self._too_old(delivery)
            if not old and (due > time.monotonic() or delivery.channel_id in waiting):
                waiting.add(delivery.channel_id)
                continue
            async with self._lock:
                if self._merges != seen:   # keep_post replaced rows since they were read
                    seen, rows_now = self._merges, await self.service.store.deliveries(PENDING)
                    current = {_key(row): row for row in rows_now}
                if current.get(_key(delivery)) != delivery:   # merged away, also before an earlier row was tried
                    continue
                if old:
                    log.warning("could not %s in channel %s since %s: too old to matter, dropped", delivery.kind,
                                delivery.channel_id, delivery.created_at)
                else:
                    try:
                        async with asyncio.timeout(ATTEMPT):   # not wait_for: in 3.11 it can swallow a cancel
                            await self._send(delivery)
                    except Exception as error:  # noqa: BLE001 - sorted: later, or never
                        if not _refused(error):
                            _log_failure(error, delivery)
                            self._retry[_key(delivery)] = (failures + 1, time.monotonic()
                                                           + min(POLL * 2 ** failures, BACKOFF))
                            waiting.add(delivery.channel_id)
                            continue
                        log.error("could not %s in channel %s (%s): dropped", delivery.kind, delivery.channel_id,
                                  describe(error))
                await self.service.store.drop_delivery(delivery.id or 0)
            self._retry.pop(_key(delivery), None)
        return not waiting

    def _maybe_posted(self, row: Delivery) -> bool:
        """Whether Discord may have made the row's post already: merged into another board, under
        that one's nonce, its headlines would be told twice."""
        return bool(row.reply.get("lost"))

    def _too_old(self, delivery: Delivery) -> bool:
        try:
            age = datetime.fromisoformat(self.service.clock()) - datetime.fromisoformat(delivery.created_at)
        except ValueError:   # no time kept
            return False
        return age.total_seconds() > MAX_AGE

    async def _send(self, delivery: Delivery) -> None:
        if delivery.kind == "delete":
            with contextlib.suppress(discord.NotFound):   # gone already
                await self.client.http.delete_message(int(delivery.channel_id), int(delivery.ref))
            return
        data = delivery.reply
        pings = (*([data["ping"]] if data.get("ping") else []), *(data.get("pings") or ()))   # "ping": kept by older versions
        reply = Reply(data["text"], game_id=delivery.game_id, pings=pings,
                      ply=data.get("ply"), controls=tuple(data.get("controls") or ()), asker=data.get("asker"),
                      challenge=tuple(data["challenge"]) if data.get("challenge") else None,   # type: ignore[arg-type]
                      finished=bool(data.get("finished")), embed=data.get("embed"))
        board = await self.service.board_for(delivery.game_id) if data.get("board") and delivery.game_id else None
        if board is not None and board.ply != reply.ply:   # overtaken: its headlines alone (module docstring)
            log.info("the kept board of game %s (ply %s) was overtaken by a newer one", delivery.game_id, reply.ply)
            reply = Reply(reply.text.split("\n")[0])
        elif board is not None:
            reply.image, reply.alt, reply.filename = board.image, board.alt, board.filename
            reply.builder, reply.controls, reply.grid = board.builder, board.controls, board.grid
        reply.text = "\n".join([*(text for _, text in _headlines(delivery, False)), reply.text])
        channel = self.client.get_partial_messageable(int(delivery.channel_id))
        text, extras = self.compose(reply)
        pieces = split_content(text) or [""]
        marked = bool(data.get("board")) and not data.get("lost")   # boards alone are merged
        if marked:   # noted before the try, so a try with no answer leaves it in doubt, a kill -9 included
            await self.service.store.mark_delivery(delivery.id or 0, {**data, "lost": True})
        for index, piece in enumerate(pieces):
            extra: dict[str, Any] = extras if index == len(pieces) - 1 else {}
            try:
                posted = await channel.send(piece or None, nonce=delivery.ref if index == 0 else f"{delivery.ref}+{index}",
                                            **extra)
            except Exception as error:
                if index == 0 and marked and not may_have_gone(error):   # surely refused: nothing was posted
                    await self.service.store.mark_delivery(delivery.id or 0, data)
                raise
        if reply.challenge is not None and reply.game_id is not None:   # the message to edit when it is settled
            await self.service.note_challenge_message(reply.game_id, str(posted.id))
        if board is not None and reply.image is not None:   # the newest board: the one before loses its controls
            await show_newest(self.client, board, posted.id)

    async def _run(self) -> None:
        await self.wait_ready()
        while True:
            self._wake.clear()
            try:
                done = await self.flush()
            except Exception:
                log.exception("the outbox round failed; trying again shortly")
                done = False
            if not done:   # one try per POLL seconds while Discord fails, however much is kept meanwhile
                await asyncio.sleep(POLL)
                continue
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(IDLE):
                    await self._wake.wait()


async def show_newest(client: discord.Client, reply: Reply, message_id: int | None) -> None:
    """After a board (`reply`) is shown in message `message_id`: keep it as its game's newest board
    and take the buttons and menus off the board before it (an edit with no components), so one
    board at a time has controls. After the post, best effort: a failure here is logged, never raised."""
    if reply.view is None or reply.ephemeral or reply.game_id is None or reply.ply is None or message_id is None:
        return
    try:
        stale = await client.kibitz_service.note_board(reply.game_id, reply.ply, str(message_id))  # type: ignore[attr-defined]
        if stale is not None:
            channel, old = stale
            await client.get_partial_messageable(int(channel)).get_partial_message(int(old)).edit(view=None)
    except Exception as error:  # noqa: BLE001 - cosmetic: an old board's controls refuse stale clicks anyway
        log.warning("could not take the controls off the older board of game %s (%s)", reply.game_id, describe(error))


def _headlines(row: Delivery, own: bool) -> list[tuple[int, str]]:
    """(ply, headline) of the moves a kept board tells above its text, with its own headline when `own`.
    A headline kept as text alone (rows kept before plies were) counts as the board's ply."""
    ply = row.reply.get("ply") or 0
    told = [(told[0], told[1]) if isinstance(told, (list, tuple)) else (ply, told) for told in row.reply.get("earlier", [])]
    return [*told, (ply, row.reply["text"].split("\n")[0])] if own else told


def _refused(error: BaseException) -> bool:
    """Whether Discord refused for good (a bad request, no access, gone): anything else is tried again."""
    return isinstance(error, discord.HTTPException) and error.status in (400, 403, 404)


def _log_failure(error: BaseException, delivery: Delivery) -> None:
    if retry_delay(error, 0, float("inf")) is not None:
        log.info("Discord still fails (%s); %s kept", describe(error), delivery.kind)
    else:   # the store, or something unforeseen: kept, tried again
        log.warning("could not %s in channel %s (%s); kept, tried again later", delivery.kind,
                    delivery.channel_id, describe(error), exc_info=error)


def _key(row: Delivery) -> tuple:
    """A row as flush knows it: its id alone may be taken again by a newer row once it is dropped."""
    return row.id, row.ref
