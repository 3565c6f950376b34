"""A TCP proxy in front of the test PostgreSQL server that can lose one write's answer.

    proxy = await PgProxy.start(pg_url)            # proxy.url: the same database, through the proxy
    proxy.lose_reply("UPDATE games")               # the next such statement commits; its answer never comes
    proxy.lose_request("UPDATE games")             # the next such statement never reaches the server
    assert proxy.cut == 1                          # connections cut so far

It reads just enough of the PostgreSQL wire protocol to know which statement a connection runs:
the text of each prepared statement (Parse) or simple query (Query), and the statement each Bind
executes. Losing the reply: the statement goes through and the server commits it (an autocommit
statement is committed before the server says ReadyForQuery); the proxy holds back everything the
server answers from then on, and at ReadyForQuery closes both sides, so asyncpg sees its
connection drop after the commit. Losing the request: both sides are closed before the statement
is passed on, so nothing is written. Every other byte passes through unchanged.
"""
from __future__ import annotations

import asyncio
import struct
from urllib.parse import urlsplit, urlunsplit

UNTYPED_REQUESTS = (80877103, 80877104)   # SSLRequest, GSSENCRequest: the server answers one unframed byte


class PgProxy:
    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self._target = target
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 5432
        self._server: asyncio.Server | None = None
        self._armed: tuple[str, str] | None = None   # (when: "reply" or "request", statement prefix)
        self._tasks: set[asyncio.Task] = set()
        self.cut = 0

    @classmethod
    async def start(cls, target: str) -> "PgProxy":
        proxy = cls(target)
        proxy._server = await asyncio.start_server(proxy._serve, "127.0.0.1", 0)
        return proxy

    @property
    def url(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        parts = urlsplit(self._target)
        netloc = parts.netloc.rsplit("@", 1)
        where = f"127.0.0.1:{port}"
        return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{where}" if len(netloc) == 2 else where))

    def lose_reply(self, statement: str) -> None:
        """The next statement starting with `statement` is committed, and its answer lost."""
        self._armed = ("reply", statement)

    def lose_request(self, statement: str) -> None:
        """The next statement starting with `statement` is lost on its way: nothing is written."""
        self._armed = ("request", statement)

    @property
    def armed(self) -> bool:
        return self._armed is not None

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection(self._host, self._port)
        except OSError:
            client_w.close()
            return
        link = _Link(self, client_w, server_w)
        for coro in (link.upstream(client_r), link.downstream(server_r)):
            task = asyncio.ensure_future(coro)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _take(self, query: str) -> str | None:
        """Disarm and say how to lose `query`'s traffic, if it is the statement armed for."""
        if self._armed is None or not query.lstrip().upper().startswith(self._armed[1].upper()):
            return None
        when, self._armed = self._armed[0], None
        return when


class _Link:
    """One client connection and its server connection."""

    def __init__(self, proxy: PgProxy, client_w: asyncio.StreamWriter, server_w: asyncio.StreamWriter) -> None:
        self.proxy, self.client_w, self.server_w = proxy, client_w, server_w
        self.statements: dict[str, str] = {}   # prepared statement name -> its text
        self.unframed_answers = 0              # single bytes the server owes for SSL/GSS requests
        self.holding = False                   # an answer to lose is on its way: pass nothing on
        self.closed = False

    def close(self, cut: bool = False) -> None:
        """Close both sides; `cut`: on purpose, to lose a request or an answer (counted)."""
        if cut and not self.closed:
            self.proxy.cut += 1
        self.closed = True
        for writer in (self.client_w, self.server_w):
            writer.close()

    async def upstream(self, reader: asyncio.StreamReader) -> None:
        """Client to server: startup messages (untyped), then typed messages."""
        try:
            while True:
                head = await reader.readexactly(4)
                body = await reader.readexactly(struct.unpack("!i", head)[0] - 4)
                self.server_w.write(head + body)
                if struct.unpack("!i", body[:4])[0] in UNTYPED_REQUESTS:
                    self.unframed_answers += 1
                    continue
                break
            while True:
                kind = await reader.readexactly(1)
                head = await reader.readexactly(4)
                body = await reader.readexactly(struct.unpack("!i", head)[0] - 4)
                when = self._inspect(kind, body)
                if when == "request":
                    self.close(cut=True)
                    return
                if when == "reply":
                    self.holding = True
                self.server_w.write(kind + head + body)
                await self.server_w.drain()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self.close()

    def _inspect(self, kind: bytes, body: bytes) -> str | None:
        if kind == b"P":
            name, query = body.split(b"\0")[:2]
            self.statements[name.decode()] = query.decode()
        elif kind == b"Q":
            return self.proxy._take(body.split(b"\0")[0].decode())
        elif kind == b"B":
            statement = body.split(b"\0")[1].decode()
            return self.proxy._take(self.statements.get(statement, ""))
        return None

    async def downstream(self, reader: asyncio.StreamReader) -> None:
        """Server to client: the unframed SSL/GSS answers, then typed messages."""
        try:
            while True:
                if self.unframed_answers:
                    byte = await reader.readexactly(1)
                    self.unframed_answers -= 1
                    self.client_w.write(byte)
                    continue
                kind = await reader.readexactly(1)
                head = await reader.readexactly(4)
                body = await reader.readexactly(struct.unpack("!i", head)[0] - 4)
                if self.holding:
                    if kind == b"Z":   # ReadyForQuery: the statement is committed; its answer is lost
                        self.close(cut=True)
                        return
                    continue
                self.client_w.write(kind + head + body)
                await self.client_w.drain()
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self.close()
