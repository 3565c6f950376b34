"""A TCP proxy in front of the test PostgreSQL server that can freeze: it keeps accepting
connections and reading, but forwards nothing either way until thawed, as a server that is
paused (SIGSTOP, a hung disk, a VM migrating) looks to its clients.

    async with FreezingProxy(pg_server.port) as proxy:
        store = await PostgresStore.open(proxy.url(pg_url), query_timeout=1)
        proxy.freeze()
        ...
        proxy.thaw()
"""
from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class FreezingProxy:
    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        self.host, self.target_port = host, target_port
        self.port: int | None = None
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server: asyncio.base_events.Server | None = None
        self._pipes: set[asyncio.Task[None]] = set()
        self.connections = 0   # accepted so far

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def url(self, url: str) -> str:
        """`url` (a database on the target server) reached through the proxy."""
        parts = urlsplit(url)
        netloc = parts.netloc.rsplit("@", 1)
        host = f"{self.host}:{self.port}"
        return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{host}" if len(netloc) == 2 else host))

    async def __aenter__(self) -> FreezingProxy:
        self._server = await asyncio.start_server(self._accept, self.host, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.thaw()
        if self._server is not None:
            self._server.close()
        for task in list(self._pipes):
            task.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _accept(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        await self._flowing.wait()   # a paused server answers no new connection either
        try:
            server_reader, server_writer = await asyncio.open_connection(self.host, self.target_port)
        except OSError:
            client_writer.close()
            return
        pipes = [asyncio.ensure_future(self._pipe(client_reader, server_writer)),
                 asyncio.ensure_future(self._pipe(server_reader, client_writer))]
        self._pipes.update(pipes)
        try:
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in pipes:
                task.cancel()
                self._pipes.discard(task)
            for writer in (client_writer, server_writer):
                writer.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while data := await reader.read(65536):
                await self._flowing.wait()
                writer.write(data)
                await writer.drain()
