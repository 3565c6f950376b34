"""REST routes of channels: threads (create, edit, archive, delete, members), channel messages
(post with nonces, read, edit, delete), typing, with Discord's refusals."""
from __future__ import annotations

from typing import Any

from aiohttp import web

from .constants import CREATE_PRIVATE_THREADS, CREATE_PUBLIC_THREADS, EPHEMERAL, MANAGE_THREADS, PRIVATE_THREAD, PUBLIC_THREAD
from .interactions import Interactions
from .log import Sent
from .shapes import Upload, _json, _now_iso


class Channels(Interactions):
    channel_patches: list[tuple[str, dict[str, Any]]]   # (thread or channel id, PATCH body)
    channel_messages: list[Sent]             # messages the bot posted in channels itself
    channel_edits: list[Sent]                # edits of channel messages (PATCH .../messages/{id})
    deleted_messages: list[dict[str, Any]]   # messages the bot deleted (DELETE .../messages/{id})
    deleted_threads: list[dict[str, Any]]    # threads the bot deleted (DELETE /channels/{thread})
    _nonces: dict[tuple[str, str], dict[str, Any]]

    def _channel_route(self, method: str, parts: list[str], body: dict[str, Any],
                       files: list[Upload]) -> web.Response | None:
        channel_id, rest = parts[1], parts[2:]
        if not rest and method == "GET":
            return _json(self.channel_object(channel_id))
        if not rest and method == "PATCH":
            return self._edit_channel(channel_id, body)
        if not rest and method == "DELETE":
            return self._delete_thread(channel_id)
        if rest == ["threads"] and method == "POST":
            return self._create_thread(channel_id, body, None)
        if len(rest) == 3 and rest[0] == "messages" and rest[2] == "threads" and method == "POST":
            return self._create_thread(channel_id, body, rest[1])
        if len(rest) == 2 and rest[0] == "thread-members" and method in ("PUT", "DELETE"):
            thread = self.threads.get(channel_id)
            if thread is None:
                return _json({"message": "Unknown Channel", "code": 10003}, status=404)
            user_id = self.app_id if rest[1] == "@me" else rest[1]
            if method == "PUT" and user_id not in thread["members"]:
                thread["members"].append(user_id)
            elif method == "DELETE" and user_id in thread["members"]:
                thread["members"].remove(user_id)
            return web.Response(status=204)
        if rest == ["messages"] and method == "POST":
            return self._channel_message(channel_id, body, files)
        if rest == ["typing"] and method == "POST":   # trigger typing indicator: 204, no body
            return web.Response(status=204)
        if len(rest) == 2 and rest[0] == "messages":
            message = self.messages.get(rest[1])
            if message is None or message["channel_id"] != channel_id or message.get("flags", 0) & EPHEMERAL:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)   # ephemeral: not the channel's
            if method == "PATCH" and message["author"]["id"] != self.bot_user["id"]:
                return _json({"message": "Cannot edit a message authored by another user", "code": 50005}, status=403)
            meta = self.threads[channel_id]["thread_metadata"] if channel_id in self.threads else {}
            if method == "PATCH" and meta.get("archived") and meta.get("locked"):
                return _json({"message": "Thread is archived", "code": 50083}, status=400)
            if method == "GET":
                return _json(message)
            if method == "DELETE":
                del self.messages[rest[1]]
                self.deleted_messages.append(message)
                return web.Response(status=204)
            if method == "PATCH":
                edited = self._message(body, files, flags=message.get("flags", 0), base=message)
                self.channel_edits.append(Sent("channel_edit", body, files, edited))
                return _json(edited)
        return None

    def _create_thread(self, channel_id: str, body: dict[str, Any], message_id: str | None) -> web.Response:
        if channel_id not in self.channels:
            return _json({"message": "Cannot execute action on this channel type", "code": 50024}, status=400)
        needed = CREATE_PRIVATE_THREADS if body.get("type") == PRIVATE_THREAD or (
            message_id is None and body.get("type") is None) else CREATE_PUBLIC_THREADS
        if not self.app_permissions(channel_id) & needed:
            return _json({"message": "Missing Permissions", "code": 50013}, status=403)
        if message_id is not None:
            message = self.messages.get(message_id)
            if message is None or message["channel_id"] != channel_id:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            if message_id in self.threads:
                return _json({"message": "A thread has already been created for this message", "code": 160004},
                             status=400)
        kind = PUBLIC_THREAD if message_id is not None else int(body.get("type") or PRIVATE_THREAD)
        now = _now_iso()
        thread: dict[str, Any] = {
            "id": message_id or str(self._next_id()), "type": kind, "guild_id": self.guild_id,
            "parent_id": channel_id, "owner_id": self.app_id, "name": body.get("name") or "thread",
            "last_message_id": None, "rate_limit_per_user": body.get("rate_limit_per_user") or 0,
            "message_count": 0, "total_message_sent": 0, "member_count": 1, "flags": 0,
            "thread_metadata": {"archived": False, "locked": False, "archive_timestamp": now,
                                "auto_archive_duration": int(body.get("auto_archive_duration") or 4320),
                                "create_timestamp": now},
            "members": [self.app_id],
        }
        if kind == PRIVATE_THREAD:
            thread["thread_metadata"]["invitable"] = bool(body.get("invitable", True))
        self.threads[thread["id"]] = thread
        data = self.channel_object(thread["id"])
        self._later("THREAD_CREATE", lambda: {**data, "newly_created": True})
        return _json(data, status=201)

    def _delete_thread(self, channel_id: str) -> web.Response:
        """Discord: deleting a thread takes Manage Threads; the bot never deletes other channels."""
        if channel_id not in self.threads or not self.app_permissions(channel_id) & MANAGE_THREADS:
            return _json({"message": "Missing Permissions", "code": 50013}, status=403)
        data = self.channel_object(channel_id)
        thread = self.threads.pop(channel_id)
        self.deleted_threads.append(thread)
        self._later("THREAD_DELETE", lambda: {"id": channel_id, "guild_id": self.guild_id,
                                              "parent_id": thread["parent_id"], "type": thread["type"]})
        return _json(data)

    def _edit_channel(self, channel_id: str, body: dict[str, Any]) -> web.Response:
        self.channel_patches.append((channel_id, dict(body)))
        if channel_id in self.threads:
            thread = self.threads[channel_id]
            meta = thread["thread_metadata"]
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = _now_iso()
            for key in ("name", "rate_limit_per_user", "flags"):
                if key in body:
                    thread[key] = body[key]
            data = self.channel_object(channel_id)
            self._later("THREAD_UPDATE", lambda: data)
            return _json(data)
        if channel_id in self.channels:
            for key in ("name", "topic", "rate_limit_per_user", "nsfw", "position"):
                if key in body:
                    self.channels[channel_id][key] = body[key]
            data = self.channel_object(channel_id)
            self._later("CHANNEL_UPDATE", lambda: data)
            return _json(data)
        return _json({"message": "Cannot execute action on a DM channel", "code": 50003}, status=403)

    def _channel_message(self, channel_id: str, body: dict[str, Any], files: list[Upload]) -> web.Response:
        if self._is_dm(channel_id):
            user_id = next(u for u, dm in self.dms.items() if dm["id"] == channel_id)
            if user_id in self._dms_denied:
                return _json({"message": "Cannot send messages to this user", "code": 50007}, status=403)
        meta = self.threads[channel_id]["thread_metadata"] if channel_id in self.threads else {}
        if meta.get("archived") and meta.get("locked"):
            return _json({"message": "Thread is archived", "code": 50083}, status=400)
        if meta.get("archived"):      # Discord: a message unarchives a thread that is not locked
            meta.update(archived=False, archive_timestamp=_now_iso())
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce") and (channel_id, str(nonce)) in self._nonces:
            return _json(self._nonces[(channel_id, str(nonce))])   # Discord: same nonce, same message
        message = self._message(body, files, flags=body.get("flags", 0) or 0, channel_id=channel_id)
        message.pop("webhook_id", None)
        message.update(type=0, nonce=nonce)
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[(channel_id, str(nonce))] = message
        sent = Sent("channel_message", body, files, message)
        self.channel_messages.append(sent)
        self._posted.append(sent)
        if channel_id in self.threads:
            thread = self.threads[channel_id]
            thread.update(last_message_id=message["id"], message_count=thread["message_count"] + 1,
                          total_message_sent=thread["total_message_sent"] + 1)
            if thread["type"] == PRIVATE_THREAD:   # Discord: pinging someone in a private thread adds them
                thread["members"].extend(u["id"] for u in message["mentions"] if u["id"] not in thread["members"])
        return _json(message)
