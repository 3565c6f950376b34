"""Faults: requests to a route answered the way Discord answers when it fails (429, 5xx, 404,
a dropped connection), for a number of requests or a stretch of time."""
from __future__ import annotations

import json
import time
from typing import Any

from aiohttp import web

from .guild import Guild
from .log import Fault, Request, _route


class Faults(Guild):
    requests: list[Request]                  # every REST call, in order
    faults: list[Fault]

    def inject(self, route: str, *, status: int | None, body: Any = None, headers: dict[str, str] | None = None,
               times: int | None = 1, after: bool = False, seconds: float | None = None) -> Fault:
        """Spoil the next `times` requests to `route` (None: until clear_faults), or with `seconds`
        every request to it for that long from now."""
        method, pattern = _route(route)
        until = None if seconds is None else time.monotonic() + seconds
        fault = Fault(method, pattern, status, body, dict(headers or {}), None if seconds else times, after, until=until)
        self.faults.append(fault)
        return fault

    def rate_limit(self, route: str, retry_after: float, *, times: int | None = 1, is_global: bool = False,
                   via: bool = True) -> Fault:
        """429 as Discord sends it: Retry-After header, retry_after in the JSON body, and the `Via`
        header of Discord's proxy (without it, clients take the 429 for a Cloudflare ban)."""
        headers = {"Retry-After": f"{retry_after:g}", "X-RateLimit-Scope": "global" if is_global else "user",
                   "X-RateLimit-Global": "true" if is_global else "false"}
        if via:
            headers["Via"] = "1.1 google"
        body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
        return self.inject(route, status=429, body=body, headers=headers, times=times)

    def server_error(self, route: str, *, times: int | None = 1, status: int = 500, after: bool = False,
                     seconds: float | None = None) -> Fault:
        return self.inject(route, status=status, body={"message": "500: Internal Server Error", "code": 0},
                           times=times, after=after, seconds=seconds)

    def unknown_webhook(self, route: str = "answer", *, times: int | None = None) -> Fault:
        """404 Unknown Webhook: what Discord answers once an interaction token is dead."""
        return self.inject(route, status=404, body={"message": "Unknown Webhook", "code": 10015}, times=times)

    def refuse_token(self) -> Fault:
        """Answer every login (GET /users/@me) 401, as Discord does for a token it does not know."""
        return self.inject("GET /users/@me", status=401, body={"message": "401: Unauthorized", "code": 0}, times=None)

    def disconnect(self, route: str, *, times: int | None = 1, after: bool = False,
                   seconds: float | None = None) -> Fault:
        """Close the connection without an answer (with `after`: once the request has taken effect)."""
        return self.inject(route, status=None, times=times, after=after, seconds=seconds)

    def clear_faults(self) -> None:
        self.faults.clear()

    def requests_to(self, route: str) -> list[Request]:
        method, pattern = _route(route)
        return [r for r in self.requests if method.fullmatch(r.method) and pattern.fullmatch(r.path)]

    def _fault_for(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path):
                fault.hits += 1
                return fault
        return None

    @staticmethod
    def _spoiled(request: web.Request, fault: Fault) -> web.Response:
        if fault.status is None:
            if request.transport is not None:
                request.transport.close()
            return web.Response(status=499)   # never reaches the client: the connection is gone
        body = json.dumps(fault.body).encode() if fault.body is not None else b""
        headers = {"Content-Type": "application/json", **fault.headers}
        return web.Response(body=body, status=fault.status, headers=headers)
