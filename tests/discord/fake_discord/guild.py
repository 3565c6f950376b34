"""The guild the stand-in models: snowflake ids, users, roles and members, text channels, threads
and DMs with their permissions, the messages the bot made and the commands it synced."""
from __future__ import annotations

import re
import time
from typing import Any

from .constants import (
    ADMINISTRATOR, ALL_PERMISSIONS, DISCORD_EPOCH_MS, DM_CHANNEL, MEMBER_PERMISSIONS, TEXT_CHANNEL,
    THREAD_PERMISSIONS,
)
from .gateway import Gateway
from .log import Sent
from .shapes import Upload, _now_iso


class Guild(Gateway):
    _last_id: int
    channel_id: str
    channels: dict[str, dict[str, Any]]
    threads: dict[str, dict[str, Any]]       # id -> thread channel, plus "members" (user ids)
    dms: dict[str, dict[str, Any]]           # user id -> DM channel
    roles: dict[str, dict[str, Any]]         # id -> role; @everyone has the guild's id
    admin_role: str
    moderator_role: str
    bot_role: str
    _member_roles: dict[str, list[str]]
    _member_permissions: dict[str, int]
    members: list[dict[str, Any]]
    alice: dict[str, Any]
    bob: dict[str, Any]
    carol: dict[str, Any]
    moderator: dict[str, Any]
    commands: list[dict[str, Any]]           # global, as last synced
    guild_commands: dict[str, list[dict[str, Any]]]   # guild id -> commands, as last synced
    messages: dict[str, dict[str, Any]]      # every message the bot created, by id
    _posted: list[Sent]                      # every message that appeared, in order
    _threads_denied: set[str | None]         # channel ids; None: everywhere
    _dms_denied: set[str]                    # user ids

    # -- model --------------------------------------------------------------------------------
    def _next_id(self) -> int:
        """A snowflake as Discord makes them: milliseconds since 2015 in the high bits (so discord.py's
        ``created_at`` of an interaction or message is when the stand-in made it), always increasing."""
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, stamp)
        return self._last_id

    def _user(self, name: str, *, bot: bool = False, user_id: str | None = None) -> dict[str, Any]:
        return {"id": user_id or str(self._next_id()), "username": name, "global_name": name,
                "discriminator": "0", "avatar": None, "bot": bot, "public_flags": 0}

    def _add_role_object(self, role_id: str, name: str, permissions: int, *, position: int) -> dict[str, Any]:
        role = {"id": role_id, "name": name, "permissions": str(permissions), "position": position, "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
                "unicode_emoji": None, "description": None}
        self.roles[role_id] = role
        return role

    def add_role(self, name: str, permissions: int) -> str:
        """A guild role granting `permissions` (an int of permission bits); returns its id."""
        role = self._add_role_object(str(self._next_id()), name, permissions, position=len(self.roles))
        self._later("GUILD_ROLE_CREATE", lambda: {"guild_id": self.guild_id, "role": role})
        return role["id"]

    def add_member(self, name: str, *, permissions: int | None = None, roles: list[str] | None = None,
                   bot: bool = False) -> dict[str, Any]:
        """A new guild member (returns its user dict). `roles` are role ids (see add_role); its
        `permissions` default to @everyone's plus its roles' (all of them with Administrator or for
        the server owner, alice)."""
        user = self._user(name, bot=bot)
        self._member_roles[user["id"]] = list(roles or [])
        if permissions is None:
            permissions = int(self.roles[self.guild_id]["permissions"])
            for role_id in roles or []:
                permissions |= int(self.roles[role_id]["permissions"])
            if permissions & ADMINISTRATOR or not self.members:   # the first member is the owner
                permissions = ALL_PERMISSIONS
        self._member_permissions[user["id"]] = permissions
        self.members.append(user)
        self._later("GUILD_MEMBER_ADD", lambda: {**self._member(user), "guild_id": self.guild_id})
        return user

    def permissions_of(self, user: dict[str, Any]) -> int:
        """The member's permissions, as interaction payloads carry them."""
        return self._member_permissions.get(user["id"], MEMBER_PERMISSIONS)

    def _member(self, user: dict[str, Any], *, with_user: bool = True) -> dict[str, Any]:
        if user["id"] == self.app_id:
            roles, permissions = [self.bot_role], self.app_permissions(self.channel_id)
        else:
            roles, permissions = self._member_roles.get(user["id"], []), self.permissions_of(user)
        member = {"roles": list(roles), "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                  "flags": 0, "nick": None, "avatar": None, "pending": False, "permissions": str(permissions)}
        if with_user:
            member["user"] = user
        return member

    # -- channels, threads, DMs -------------------------------------------------------------------
    def _text_channel(self, channel_id: str, name: str) -> dict[str, Any]:
        return {"id": channel_id, "type": TEXT_CHANNEL, "name": name, "guild_id": self.guild_id,
                "position": len(getattr(self, "channels", {})), "permission_overwrites": [], "nsfw": False,
                "parent_id": None, "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
                "default_auto_archive_duration": 1440, "flags": 0}

    def add_channel(self, name: str) -> str:
        """A new text channel in the guild; returns its id. Before the bot connects it comes in
        GUILD_CREATE; after, as CHANNEL_CREATE (wait for the bot to see it with wait_until)."""
        channel = self._text_channel(str(self._next_id()), name)
        self.channels[channel["id"]] = channel
        if None in self._threads_denied:
            channel["permission_overwrites"].append(
                {"id": self.app_id, "type": 1, "allow": "0", "deny": str(THREAD_PERMISSIONS)})
        self._later("CHANNEL_CREATE", lambda: dict(channel))
        return channel["id"]

    def channel_object(self, channel_id: str) -> dict[str, Any]:
        """The channel, thread or DM with this id, as Discord answers GET /channels/{id}."""
        if channel_id in self.channels:
            return dict(self.channels[channel_id])
        if channel_id in self.threads:
            thread = {k: v for k, v in self.threads[channel_id].items() if k != "members"}
            thread["thread_metadata"] = dict(thread["thread_metadata"])
            thread["member_count"] = min(len(self.threads[channel_id]["members"]), 50)
            return thread
        for dm in self.dms.values():
            if dm["id"] == channel_id:
                return dict(dm)
        raise KeyError(f"no channel {channel_id}")

    def _guild_of(self, channel_id: str) -> str | None:
        return None if self._is_dm(channel_id) else self.guild_id

    def _is_dm(self, channel_id: str) -> bool:
        return any(dm["id"] == channel_id for dm in self.dms.values())

    def _knows(self, channel_id: str) -> bool:
        return channel_id in self.channels or channel_id in self.threads or self._is_dm(channel_id)

    def dm_channel_of(self, user: dict[str, Any]) -> str:
        """The id of the DM channel with `user` (the same id each time, as on Discord)."""
        dm = self.dms.get(user["id"])
        if dm is None:
            dm = self.dms[user["id"]] = {"id": str(self._next_id()), "type": DM_CHANNEL, "last_message_id": None,
                                         "recipients": [user], "flags": 0}
        return dm["id"]

    def deny_dms(self, user: dict[str, Any]) -> None:
        """`user` accepts no DMs from the bot: posting in their DM answers 403, code 50007."""
        self._dms_denied.add(user["id"])

    def deny_threads(self, channel_id: str | None = None) -> None:
        """The bot may not create threads in `channel_id` (None: in every channel, also those added
        later): a permission overwrite on the channel denies the bot the thread permissions, so
        creating one answers 403, and app_permissions (and discord.py's
        ``channel.permissions_for(guild.me)``) lack them there."""
        self._threads_denied.add(channel_id)
        for cid in self.channels if channel_id is None else [channel_id]:
            self._deny_threads_in(cid)

    def _deny_threads_in(self, channel_id: str) -> None:
        channel = self.channels[channel_id]
        overwrite = {"id": self.app_id, "type": 1, "allow": "0", "deny": str(THREAD_PERMISSIONS)}
        channel["permission_overwrites"] = [o for o in channel["permission_overwrites"] if o["id"] != self.app_id]
        channel["permission_overwrites"].append(overwrite)
        self._later("CHANNEL_UPDATE", lambda: dict(channel))

    def app_permissions(self, channel_id: str) -> int:
        """What the bot may do in a channel, thread or DM, as interactions there tell it: its roles'
        permissions, then the channel's (a thread's parent's) overwrites for it."""
        permissions = int(self.roles[self.guild_id]["permissions"]) | int(self.roles[self.bot_role]["permissions"])
        parent = self.threads[channel_id]["parent_id"] if channel_id in self.threads else channel_id
        for overwrite in self.channels.get(parent, {}).get("permission_overwrites", []):
            if overwrite["id"] in (self.guild_id, self.bot_role, self.app_id):
                permissions = (permissions & ~int(overwrite["deny"])) | int(overwrite["allow"])
        return permissions

    def messages_in(self, channel_id: str) -> list[Sent]:
        """Messages the bot made appear in a channel, thread or DM, in order: its own posts and the
        answers to interactions that ran there (immediate replies, followups, and the answer that
        replaced a "thinking" placeholder; not the placeholder itself, not later edits)."""
        return [s for s in self._posted if s.channel_id == channel_id]

    def _guild(self) -> dict[str, Any]:
        members = [self._member(u) for u in (*self.members, self.bot_user)]
        threads = [self.channel_object(t) for t in self.threads if not self.threads[t]["thread_metadata"]["archived"]]
        return {"id": self.guild_id, "name": "Kibitz Test Club", "icon": None, "owner_id": self.alice["id"],
                "roles": list(self.roles.values()), "emojis": [], "stickers": [], "features": [],
                "channels": [dict(c) for c in self.channels.values()],
                "threads": threads, "members": members, "member_count": len(members), "voice_states": [],
                "presences": [], "large": False, "unavailable": False, "joined_at": "2024-01-01T00:00:00+00:00",
                "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
                "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0, "preferred_locale": "en-US",
                "system_channel_id": None, "afk_channel_id": None, "afk_timeout": 300,
                "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": []}

    def _application(self) -> dict[str, Any]:
        return {"id": self.app_id, "name": "Kibitz", "icon": None, "description": "", "summary": "",
                "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                "owner": self.alice, "team": None, "flags": 0, "rpc_origins": [],
                "interactions_endpoint_url": None, "bot": self.bot_user}

    def _message(self, body: dict[str, Any], files: list[Upload], *, flags: int = 0,
                 message_id: str | None = None, base: dict[str, Any] | None = None,
                 channel_id: str | None = None) -> dict[str, Any]:
        channel_id = channel_id or self.channel_id
        message = dict(base) if base else {
            "id": message_id or str(self._next_id()), "channel_id": channel_id, "guild_id": self._guild_of(channel_id),
            "author": self.bot_user, "content": "", "timestamp": _now_iso(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 20, "flags": 0, "components": [],
            "webhook_id": self.app_id, "application_id": self.app_id,
        }
        if base:
            message["edited_timestamp"] = _now_iso()
        for key in ("content", "embeds", "components", "allowed_mentions"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if message.get("guild_id") is None:
            message.pop("guild_id", None)
        message["flags"] = flags
        message["mentions"], message["mention_roles"], message["mention_everyone"] = self._mentions(message)
        if "attachments" in body or files:
            attachments = []
            by_index = {str(a.get("id")): a for a in body.get("attachments") or []}
            for index, upload in enumerate(files):
                meta = by_index.get(str(index), {})
                upload.description = meta.get("description", upload.description)
                attachments.append({"id": str(self._next_id()), "filename": upload.filename, "size": len(upload.data),
                                    "url": f"http://127.0.0.1:{self.port}/attachments/{upload.filename}",
                                    "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{upload.filename}",
                                    "content_type": upload.content_type, "description": upload.description})
            kept = [a for a in message.get("attachments", []) if str(a["id"]) in by_index]
            message["attachments"] = kept + attachments
        self.messages[message["id"]] = message
        return message

    def _mentions(self, message: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str], bool]:
        """Who the message pings: mentions in its content that its allowed_mentions let through
        (all of them when it has none, as for bots on Discord)."""
        content = message.get("content") or ""
        allowed = message.get("allowed_mentions")
        parse = set(allowed.get("parse") or []) if allowed is not None else {"users", "roles", "everyone"}
        users = {str(u) for u in (allowed or {}).get("users") or []}
        roles = {str(r) for r in (allowed or {}).get("roles") or []}
        known = {u["id"]: u for u in (*self.members, self.bot_user)}
        pinged: list[dict[str, Any]] = []
        for user_id in dict.fromkeys(re.findall(r"<@!?(\d+)>", content)):
            if user_id in known and ("users" in parse or user_id in users):
                pinged.append(known[user_id])
        pinged_roles = [r for r in dict.fromkeys(re.findall(r"<@&(\d+)>", content))
                        if r in self.roles and ("roles" in parse or r in roles)]
        everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
        return pinged, pinged_roles, everyone

    def _command(self, data: dict[str, Any], guild_id: str | None = None) -> dict[str, Any]:
        stored = getattr(self, "commands", []) if guild_id is None else self.guild_commands.get(guild_id, [])
        known = next((c for c in stored if c["name"] == data["name"]), None)
        command = dict(data)
        command.update(id=known["id"] if known else str(self._next_id()), application_id=self.app_id,
                       version=str(self._next_id()))
        if guild_id is not None:
            command["guild_id"] = guild_id
        command.setdefault("type", 1)
        command.setdefault("description", "")
        return command
