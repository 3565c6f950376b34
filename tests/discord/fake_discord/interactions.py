"""REST routes of interactions: the callback, and the webhook routes of followups and of edits,
reads and deletions of @original, with Discord's first-followup rule."""
from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .constants import CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, EPHEMERAL, LOADING, UPDATE_MESSAGE
from .faults import Faults
from .log import InteractionLog, Request, Sent
from .shapes import Upload, _json


class Interactions(Faults):
    callback_window: float | None            # seconds Discord takes a callback for; None: no limit
    interactions: dict[str, InteractionLog]  # by token
    unhandled: list[Request]                 # REST calls this fake does not know

    @staticmethod
    def _not_found() -> web.Response:
        return _json({"message": "Unknown", "code": 10000}, status=404)
    def _log(self, token: str) -> InteractionLog | None:
        return self.interactions.get(token)

    def _add(self, log: InteractionLog, sent: Sent) -> None:
        log.sent.append(sent)
        log.changed.set()

    def _callback(self, interaction_id: str, token: str, body: dict[str, Any], files: list[Upload]) -> web.Response:
        log = self._log(token)
        if log is None or log.id != interaction_id:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        if log.callbacks:
            return _json({"message": "Interaction has already been acknowledged.", "code": 40060},
                                     status=400)
        if self.callback_window is not None and time.monotonic() - log.created > self.callback_window:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)   # Discord's 3 seconds
        sent = Sent("callback", body, files)
        kind = body.get("type")
        data = body.get("data") or {}
        flags = data.get("flags", 0) or 0
        answer: dict[str, Any] = {"interaction": {"id": interaction_id, "type": log.type}}
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            if kind == DEFERRED_CHANNEL_MESSAGE:
                flags |= LOADING
            log.original = sent.message = self._message(data, files, flags=flags, channel_id=log.channel_id)
            if kind == CHANNEL_MESSAGE:
                self._posted.append(sent)
            answer["interaction"].update(response_message_id=log.original["id"],
                                         response_message_loading=kind == DEFERRED_CHANNEL_MESSAGE,
                                         response_message_ephemeral=bool(flags & EPHEMERAL))
            answer["resource"] = {"type": kind, "message": log.original}
        elif kind == UPDATE_MESSAGE and log.original is not None:
            log.original = sent.message = self._message(data, files, flags=log.original.get("flags", 0),
                                                        base=log.original)
            answer["resource"] = {"type": kind, "message": log.original}
        else:
            answer["resource"] = {"type": kind}
        self._add(log, sent)
        return _json(answer)

    def _webhook(self, method: str, parts: list[str], query: Any, body: Any, files: list[Upload]) -> web.Response:
        app_id, token = parts[1], parts[2]
        log = self._log(token)
        if app_id != self.app_id or log is None:
            return _json({"message": "Unknown Webhook", "code": 10015}, status=404)
        body = body or {}
        if len(parts) == 3 and method == "POST":          # followup
            if not log.callbacks:
                return _json({"message": "Unknown interaction", "code": 10062}, status=404)
            original = log.original
            if original is not None and not log.original_deleted and original.get("flags", 0) & LOADING:
                # Discord: the first followup resolves the loading message, keeping its visibility.
                flags = original.get("flags", 0) & ~LOADING
                log.original = message = self._message(body, files, flags=flags, base=original)
            else:
                message = self._message(body, files, flags=body.get("flags", 0) or 0, channel_id=log.channel_id)
            sent = Sent("followup", body, files, message)
            self._add(log, sent)
            self._posted.append(sent)
            return _json(message)
        if len(parts) == 5 and parts[3] == "messages":
            target_id = parts[4]
            if target_id == "@original":
                target = log.original
            else:
                target = self.messages.get(target_id)
            if target is None or (target_id == "@original" and log.original_deleted):
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            if method == "GET":
                return _json(target)
            if method == "DELETE":
                if target_id == "@original":
                    log.original_deleted = True
                self._add(log, Sent("delete", {"message_id": target["id"]}))
                return web.Response(status=204)
            if method == "PATCH":
                flags = target.get("flags", 0) & ~LOADING
                message = self._message(body, files, flags=flags, base=target)
                if target_id == "@original" or target is log.original:
                    log.original = message
                sent = Sent("edit", body, files, message)
                self._add(log, sent)
                if target.get("flags", 0) & LOADING:     # the answer replacing a "thinking" placeholder
                    self._posted.append(sent)
                return _json(message)
        self.unhandled.append(Request(method, "/" + "/".join(parts), dict(query), body, files))
        return self._not_found()
