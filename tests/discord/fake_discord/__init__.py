"""A local stand-in for Discord's REST API and gateway, for end-to-end tests of the bot.

One aiohttp server on 127.0.0.1 (random free port) serves both:

- the gateway at ``/gateway`` (a websocket speaking JSON text frames): HELLO, heartbeat ACK,
  IDENTIFY -> READY + GUILD_CREATE (one guild, its text channels, threads, roles and members),
  INTERACTION_CREATE dispatches for slash commands, autocomplete and button clicks, and
  CHANNEL_CREATE / THREAD_CREATE / THREAD_UPDATE / GUILD_MEMBER_ADD as things change;
- the REST API under ``/api/v10``: the calls discord.py makes to log in, sync app commands,
  answer interactions (callbacks, followups, edits of @original), post and edit messages, make
  threads and DMs, each recorded with its JSON body and any uploaded files (bytes, filename,
  description).

Tests drive it with ``await fake.slash(...)``, ``await fake.click(...)``, ``await fake.select(...)``
(a string select menu, component type 3 with its ``values``) and ``await fake.autocomplete(...)``; each returns an :class:`InteractionLog` of what the bot sent
back for that interaction, in order; ``await fake.nothing_more(user=...)`` proves that nothing else
was on its way (the requests during a later /help). Nothing here touches the internet. A channel option takes the channel's
id and comes with its partial channel in ``resolved``, as a user option comes with the user.

Discord's first-followup rule is modelled: after a deferred "thinking" response (type 5) the
first followup replaces the loading message and keeps the visibility chosen at defer time
(its own ephemeral flag is ignored), unless the bot deleted the loading message first.

Bot messages posted in any channel, thread or DM (``POST /channels/{id}/messages``) are kept in
``fake.channel_messages``; a repeated ``nonce`` with ``enforce_nonce`` returns the first message,
as Discord does, instead of posting again.

The guild
---------
One guild (``fake.guild_id``, owner ``alice``) with roles ``@everyone`` (the ordinary set,
``MEMBER_PERMISSIONS``: view, send, read history, embed, attach, react, use application
commands, create public/private threads, send in threads; no Manage anything), ``Admin``
(``fake.admin_role``, Administrator) and ``Moderator`` (``fake.moderator_role``: Manage Threads
and Manage Messages, not Manage Server). Members: ``fake.alice`` (owner, Admin: every
permission), ``fake.bob`` and ``fake.carol`` (ordinary), ``fake.moderator`` (user ``mod``,
Moderator). The bot has the managed role ``Kibitz`` (``fake.bot_role``: every permission but
Administrator, so channel overwrites apply to it). Interaction payloads carry each member's ``roles`` and ``permissions``, so the bot's
``interaction.permissions`` is right. ``fake.add_role(name, permissions) -> id`` and
``fake.add_member(name, permissions=None, roles=[role ids])`` add more (permissions default to
@everyone's plus the roles'; all of them with Administrator); added after the bot connected they
are dispatched (GUILD_ROLE_CREATE, GUILD_MEMBER_ADD). ``GET /users/{id}`` knows every member.

Channels, threads, DMs
----------------------
``fake.channel_id`` is the default text channel (``#chess``); ``fake.add_channel(name) -> id``
adds another (in GUILD_CREATE if added before the bot connects, else dispatched as
CHANNEL_CREATE: ``await fake.wait_until(lambda: bot.get_channel(int(cid)))``). ``fake.channels``
holds the text channels by id. ``slash``, ``click``, ``select`` and ``autocomplete`` take
``channel=<id>`` (a channel, thread or DM) and run the interaction there: ``channel_id``, a
``channel`` object of the right type and ``app_permissions`` for that channel; in a DM, no
``guild_id``, ``user`` instead of ``member`` and ``context`` 1. A click or select runs where its
message is (a button in a thread is clicked in the thread) unless ``channel`` says otherwise.
Messages record their ``channel_id`` (and ``guild_id`` outside DMs), so discord.py's
``Message.jump_url`` is right.

Threads: ``POST /channels/{id}/threads`` (``type`` 11 public or 12 private, the default;
``name``, ``auto_archive_duration``, ``invitable``) and ``POST /channels/{id}/messages/{mid}/threads``
(a public thread whose id is the message's, once per message) answer 201 with a thread channel
(type, parent_id, owner_id = the bot, thread_metadata, member_count...) and dispatch THREAD_CREATE.
``fake.threads`` maps id -> that thread plus ``"members"`` (user ids: the bot, then everyone added
with ``PUT /channels/{thread}/thread-members/{user}``; DELETE removes). ``GET /channels/{id}``
answers channels, threads and DMs (404 code 10003 for others); ``PATCH /channels/{id}`` renames,
archives, locks threads (or renames channels), dispatches THREAD_UPDATE / CHANNEL_UPDATE and is
recorded in ``fake.channel_patches`` as ``(id, body)``. ``DELETE /channels/{thread}`` removes a
thread when the bot has Manage Threads there (403 code 50013 otherwise, and for any channel that
is not a thread), dispatches THREAD_DELETE and keeps the thread in ``fake.deleted_threads``.
``fake.deny_threads(channel_id=None)``
(None: every channel, also those added later) puts a permission overwrite on the channel denying
the bot CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS and SEND_MESSAGES_IN_THREADS (dispatched
as CHANNEL_UPDATE, so ``channel.permissions_for(guild.me)`` agrees): thread creation there
answers 403 ``{"message": "Missing Permissions", "code": 50013}`` and ``app_permissions`` of
interactions in the channel and its threads lack them (``fake.app_permissions(channel_id)``).
Posting in a thread is allowed; a post unarchives an archived thread, unless it is also locked
(400, code 50083 "Thread is archived"). A private thread is seen by its members and by those with Manage
Threads only: running an interaction there as anyone else raises AssertionError (a test mistake,
as Discord would never send it). As on Discord, a bot message in a private thread that pings a
user (per its allowed_mentions) adds them to the thread.

``POST /channels/{id}/typing`` (the typing indicator) answers 204 with no body, as Discord does
outside slow mode; ``fake.requests_to("typing")`` lists them.

DMs: ``POST /users/@me/channels {recipient_id}`` answers the user's DM channel (type 1, the same
id every time; ``fake.dm_channel_of(user)`` gives it, creating it if need be).
``fake.deny_dms(user)``: posting there answers 403 code 50007 "Cannot send messages to this user".

``fake.messages_in(channel_id)`` lists, in order, as :class:`Sent`, the bot messages that appeared
in a channel, thread or DM: its own posts and the answers to interactions that ran there (an
immediate reply, followups, or the edit that replaced a "thinking" placeholder; not the
placeholder, not later edits; ephemeral ones included, see ``Sent.ephemeral``).

Messages and mentions
---------------------
Every message keeps ``content`` and the ``allowed_mentions`` of the body that created or last
edited it (``Sent.allowed_mentions`` gives a request's own); its ``mentions``, ``mention_roles``
and ``mention_everyone`` list who is really pinged: ``<@id>`` / ``<@&id>`` / ``@everyone`` in the
content that allowed_mentions lets through (all of them without allowed_mentions).
``GET``, ``PATCH`` and ``DELETE /channels/{id}/messages/{mid}`` work on stored messages of that
channel (404 code 10008 otherwise, and for an ephemeral message, which is no channel's); edits are
appended to ``fake.channel_edits`` as ``Sent("channel_edit", body, files, message after the edit)``,
deletions to ``fake.deleted_messages``. As Discord does, an edit of another user's message answers
403 code 50005, one in an archived and locked thread 400 code 50083, and any body whose
allowed_mentions both parses and lists users (or roles), or lists more than 100 or one twice, 400
code 50035.

Commands
--------
``PUT /applications/{app}/commands`` replaces the global commands (``fake.commands``, counted in
``fake.command_syncs``; a command keeps its id across syncs), GET answers them.
``PUT/GET /applications/{app}/guilds/{guild}/commands`` do the same per guild:
``fake.guild_commands[guild_id]``, ``fake.guild_command_syncs[guild_id]`` (a Counter).
``FakeDiscord(commands=[...], guild_commands={guild_id: [...]})`` starts with commands already
registered (Discord "already has these" before the bot starts). ``slash`` finds a command among
the global ones, then the default guild's. One FakeDiscord can serve several bot sessions in
turn (``running_bot`` twice): each connection gets HELLO, READY and GUILD_CREATE anew.

Faults
------
``fake.rate_limit("answer", retry_after=0.2)``, ``fake.server_error("followup")``,
``fake.unknown_webhook("answer")``, ``fake.disconnect("answer", after=True)`` or the general
``fake.inject(...)`` answer the next N requests to a route (a name in ``ROUTES`` or
``"METHOD /path-regex"``) the way Discord does when it fails; with ``seconds=S`` (e.g.
``fake.server_error("channel_message", status=503, seconds=3)``) every request to it for S
seconds. Every REST request is recorded in ``fake.requests`` with the status it got and when it
arrived; ``fake.requests_to(route)`` filters.
As Discord does, a message whose embeds total more than 6,000 characters (titles, descriptions,
fields, footers, authors) is refused with 400 code 50035; ``fake.refuse_token()`` answers the
bot's login 401, as for a token Discord does not know.

Time: ids are snowflakes minted from the clock, so discord.py's ``created_at`` of an interaction
is when the stand-in made it. ``fake.slash(..., late=2.0)`` delivers an interaction two seconds
after making it (a slow gateway, a lagging bot). ``fake.callback_window = 3.0`` refuses, as
Discord does, a callback that comes later than that after the interaction was made (404 code
10062); by default there is no limit, so a loaded test machine never fails a test on time alone.

The modules
-----------
``constants`` (Discord's numbers), ``shapes`` (Discord's limit checks, JSON and multipart bodies),
``log`` (``Sent``, ``InteractionLog``, ``Request``, ``ROUTES``, ``Fault``); then ``FakeDiscord`` in
layers, each a class over the one before: ``gateway``, ``guild`` (the model), ``faults``,
``interactions`` and ``channels`` (REST routes), ``rest`` (the REST entry), ``driving`` (what tests
call) and ``server`` (the state and the aiohttp server).
"""
from __future__ import annotations

from .constants import *  # noqa: F403
from .constants import _OPTION_BOOLEAN, _OPTION_CHANNEL, _OPTION_INTEGER, _OPTION_NUMBER, _OPTION_STRING, _OPTION_USER  # noqa: F401
from .log import ROUTES, Fault, InteractionLog, Request, Sent, _route  # noqa: F401
from .server import FakeDiscord  # noqa: F401
from .shapes import EMBED_TEXT, EMBED_TITLE, EMBED_TOTAL, Upload, _embed_refused, _embed_size, _json, _mentions_refused, _multipart, _now_iso  # noqa: F401
