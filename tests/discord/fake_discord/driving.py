"""Driving the bot: slash commands, autocomplete, clicks and selects as interactions in a
channel, thread or DM, and the waits and proofs tests make on what came back."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from .constants import _OPTION_CHANNEL, _OPTION_USER, ADMINISTRATOR, MANAGE_THREADS, PATIENCE, PRIVATE_THREAD
from .log import InteractionLog, Request
from .rest import Rest


class Driving(Rest):
    def _interaction(self, kind: int, user: dict[str, Any], data: dict[str, Any],
                     message: dict[str, Any] | None = None) -> InteractionLog:
        """An interaction by `user` in the default channel (see _place for others)."""
        interaction_id = str(self._next_id())
        token = f"tok-{interaction_id}"
        payload: dict[str, Any] = {
            "id": interaction_id, "application_id": self.app_id, "type": kind, "token": token, "version": 1,
            "locale": "en-US", "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024, "data": data,
        }
        if message is not None:
            payload["message"] = message
        log = InteractionLog(interaction_id, token, kind, payload)
        self._place(log, self.channel_id, user)
        self.interactions[token] = log
        return log

    def _place(self, log: InteractionLog, channel: str, user: dict[str, Any]) -> None:
        """Make the interaction run in `channel` (a channel, thread or DM): its channel, guild,
        member or user, context and app_permissions as Discord sends them there."""
        if not self._knows(channel):
            raise AssertionError(f"no channel, thread or DM {channel}")
        thread = self.threads.get(channel)
        if thread is not None and thread["type"] == PRIVATE_THREAD and user["id"] not in thread["members"] \
                and not self.permissions_of(user) & (MANAGE_THREADS | ADMINISTRATOR):
            raise AssertionError(f"{user['username']} cannot see private thread {channel}: not a member")
        payload = log.payload
        for key in ("guild_id", "member", "user", "guild_locale"):
            payload.pop(key, None)
        payload.update(channel_id=channel, channel=self.channel_object(channel),
                       app_permissions=str(self.app_permissions(channel)))
        if self._is_dm(channel):
            payload.update(user=user, context=1, authorizing_integration_owners={"0": "0"})
        else:
            payload.update(guild_id=self.guild_id, member=self._member(user), guild_locale="en-US", context=0,
                           authorizing_integration_owners={"0": self.guild_id})

    def _new_interaction(self, kind: int, user: dict[str, Any], data: dict[str, Any], *,
                         message: dict[str, Any] | None = None, channel: str | None = None) -> InteractionLog:
        log = self._interaction(kind, user, data, message)
        if channel is None and message is not None and self._knows(str(message.get("channel_id"))):
            channel = str(message["channel_id"])     # a click runs where the clicked message is
        if channel is not None and channel != log.channel_id:
            self._place(log, channel, user)
        return log

    def _channel(self) -> dict[str, Any]:
        """The default channel, as interactions carry it."""
        return self.channel_object(self.channel_id)

    def _command_named(self, name: str, channel: str | None = None) -> dict[str, Any]:
        in_guild = channel is None or not self._is_dm(channel)
        for command in [*self.commands, *(self.guild_commands.get(self.guild_id, []) if in_guild else [])]:
            if command["name"] == name:
                return command
        synced = [c["name"] for c in self.commands] + [c["name"] for c in self.guild_commands.get(self.guild_id, [])]
        raise AssertionError(f"/{name} was never synced; synced: {synced}")

    def _options(self, command: dict[str, Any], values: dict[str, Any],
                 focused: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        declared = {o["name"]: o for o in command.get("options", [])}
        options: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for name, value in values.items():
            if name not in declared:
                raise AssertionError(f"/{command['name']} has no option {name!r}; it has {list(declared)}")
            kind = declared[name]["type"]
            if kind == _OPTION_USER and isinstance(value, dict):
                resolved.setdefault("users", {})[value["id"]] = value
                resolved.setdefault("members", {})[value["id"]] = self._member(value, with_user=False)
                value = value["id"]
            if kind == _OPTION_CHANNEL and isinstance(value, str) and self._knows(value):
                resolved.setdefault("channels", {})[value] = self._resolved_channel(value)
            option = {"name": name, "type": kind, "value": value}
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    def _resolved_channel(self, channel_id: str) -> dict[str, Any]:
        """A channel option's entry in `resolved`, as Discord sends it: a partial channel."""
        channel = self.channel_object(channel_id)
        partial: dict[str, Any] = {key: channel[key] for key in ("id", "name", "type", "parent_id", "thread_metadata")
                                   if key in channel}
        partial["permissions"] = str(self.app_permissions(channel_id))
        return partial

    async def _run(self, log: InteractionLog, timeout: float, wait: bool = True, late: float = 0.0) -> InteractionLog:
        if late:   # delivered `late` seconds after Discord made it (a slow gateway, a bot lagging behind)
            await asyncio.sleep(late)
        await self._dispatch("INTERACTION_CREATE", log.payload)
        if wait:
            await log.wait(InteractionLog.is_answered, timeout)
        return log

    async def wait_until(self, predicate: Callable[[], object], timeout: float = PATIENCE) -> None:
        """Poll until predicate() is true (for answers that do not come through the interaction)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; requests: {[(r.method, r.path, r.status) for r in self.requests]}")
            await asyncio.sleep(0.01)

    async def nothing_more(self, *, user: dict[str, Any]) -> list[Request]:
        """Proof that nothing else was on its way, without sleeping: run a later /help (it changes
        nothing) and wait for its answer; return the REST requests that came in meanwhile, /help's
        own left out. The bot shares the test's event loop, so whatever it was about to send (a
        followup, a channel post, a second copy) reaches this log before /help is answered."""
        mark = len(self.requests)
        later = await self.slash("help", user=user)
        return [r for r in self.requests[mark:] if later.token not in r.path and later.id not in r.path]

    @staticmethod
    def besides_stripped(requests: list[Request]) -> list[Request]:
        """`requests` but the edits that only take a message's components off (an older board losing
        its controls once a newer one is shown)."""
        return [r for r in requests if not (r.method == "PATCH" and isinstance(r.body, dict)
                                            and r.body.get("components") == [] and set(r.body) <= {"components", "tts"})]

    def _command_data(self, name: str, options: dict[str, Any], focused: str | None,
                      channel: str | None) -> dict[str, Any]:
        command = self._command_named(name, channel)
        opts, resolved = self._options(command, options, focused)
        data = {"id": command["id"], "name": name, "type": 1, "options": opts}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, name: str, options: dict[str, Any] | None = None, *, user: dict[str, Any],
                    timeout: float = PATIENCE, wait: bool = True, channel: str | None = None,
                    late: float = 0.0) -> InteractionLog:
        """Run /name with options (user options take a user dict) in `channel` (a channel, thread or
        DM id; default: fake.channel_id); wait for the bot's answer (with wait=False, return as soon
        as the interaction is dispatched). `late`: seconds between the interaction's creation and
        its delivery to the bot."""
        data = self._command_data(name, options or {}, None, channel)
        return await self._run(self._new_interaction(2, user, data, channel=channel), timeout, wait, late)

    async def autocomplete(self, name: str, options: dict[str, Any], focused: str, *, user: dict[str, Any],
                           timeout: float = PATIENCE, channel: str | None = None) -> list[dict[str, Any]]:
        """Type into option `focused` of /name; return the choices the bot offered."""
        data = self._command_data(name, options, focused, channel)
        log = await self._run(self._new_interaction(4, user, data, channel=channel), timeout)
        return log.choices

    async def click(self, custom_id: str, *, user: dict[str, Any], message: dict[str, Any] | None = None,
                    timeout: float = PATIENCE, wait: bool = True, channel: str | None = None) -> InteractionLog:
        """Click the button with custom_id on `message` (default: the latest message carrying it);
        the interaction runs where the message is (or in `channel`)."""
        if message is None:
            message = self.message_with(custom_id)
        data = {"custom_id": custom_id, "component_type": 2}
        log = self._new_interaction(3, user, data, message=message, channel=channel)
        log.original = message   # for a component interaction, @original is the clicked message
        return await self._run(log, timeout, wait)

    async def select(self, custom_id: str, values: list[str], *, user: dict[str, Any],
                     message: dict[str, Any] | None = None, timeout: float = PATIENCE,
                     wait: bool = True, channel: str | None = None) -> InteractionLog:
        """Pick `values` in the string select with custom_id on `message` (default: the latest
        message carrying it): a component interaction of type 3 with its values."""
        if message is None:
            message = self.message_with(custom_id)
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        log = self._new_interaction(3, user, data, message=message, channel=channel)
        log.original = message
        return await self._run(log, timeout, wait)

    @staticmethod
    def forged(message: dict[str, Any], custom_id: str, *, select: bool = False) -> dict[str, Any]:
        """`message` as a client could claim it looks: carrying one more button (or select menu) with
        any `custom_id`, for a click the bot never offered (who may act is the service's to check)."""
        extra = {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "x"}]} if select else \
            {"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}
        return {**message, "components": [*(message.get("components") or []), {"type": 1, "components": [extra]}]}

    def message_with(self, custom_id: str) -> dict[str, Any]:
        for message in reversed(list(self.messages.values())):
            for row in message.get("components") or []:
                for component in row.get("components", [row]):
                    if component.get("custom_id") == custom_id:
                        return message
        raise AssertionError(f"no message carries a component {custom_id!r}")
