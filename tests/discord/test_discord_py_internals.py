"""The private parts of discord.py that Kibitz leans on, checked against the installed discord.py.

Nothing public lets a bot send interaction answers through an HTTP session of its own, or see an
interaction before discord.py dispatches it, so Kibitz uses these, and pyproject.toml keeps
discord.py below its next minor release. Each test names what changed, so a new discord.py fails
here in a sentence first, rather than somewhere deep in the Discord tests:

- ``JoinedBodyAdapter`` (bot/discord/transport.py, the transport of interaction answers) subclasses
  ``discord.webhook.async_.AsyncWebhookAdapter``; it overrides ``request(route, session, **kwargs)``,
  which every answer (callback, edit, followup) goes through and which calls
  ``session.request(method, url, data=..., headers=...)`` with an ``aiohttp.FormData`` for uploads,
  and ``create_interaction_response``, to drop the message Discord echoes back (its id stays in the
  answer's ``interaction`` part). It is installed through the ContextVar ``async_context``, which
  discord.py reads at each answer.
- ``KibitzBot`` (bot/discord/app.py) takes ``self._connection.parsers["INTERACTION_CREATE"]`` (the
  parser the gateway calls with each interaction's data), puts a function of its own in its place
  and calls the saved one; while stopping it builds ``discord.Interaction(data=, state=)`` itself.
  ``DiscordConfig.apply`` points discord.py elsewhere (the local stand-in) through the class
  settings ``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``.
- ``KibitzBot.on_interaction`` reads the view store (``self._connection._view_store``): its
  ``_dynamic_items`` (compiled templates of the registered dynamic items) and ``_views`` (per
  message id, or None, a dict keyed by (component type, custom_id)), to tell which controls no
  handler claims.
"""
from __future__ import annotations

import contextvars
import inspect
from collections.abc import Coroutine
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route
from discord.webhook import async_

CHANGED = "discord.py " + discord.__version__ + " changed "   # every failure starts so

INTERACTION = {   # an application command in a DM, as the gateway sends it
    "id": "1001", "application_id": "2002", "type": 2, "token": "tok", "version": 1, "channel_id": "3003",
    "attachment_size_limit": 10_000_000, "data": {"id": "4004", "name": "board", "type": 1},
    "user": {"id": "5005", "username": "alice", "discriminator": "0", "avatar": None, "global_name": None},
}
CALLBACK_ANSWER = {   # Discord's answer to a callback, less the echoed message JoinedBodyAdapter drops
    "interaction": {"id": "1001", "type": 2, "response_message_id": "6006"}, "resource": {"type": 4}}
MESSAGE = {"id": "6006", "channel_id": "3003", "content": "edited", "timestamp": "2024-01-01T00:00:00+00:00",
           "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
           "attachments": [], "embeds": [], "pinned": False, "type": 0, "author": INTERACTION["user"]}


class RecordingAdapter(async_.AsyncWebhookAdapter):
    """Overrides what JoinedBodyAdapter overrides, in the same shape, and records what arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[tuple[str, str]] = []

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:   # type: ignore[override]
        self.requests.append((route.method, route.path))
        if route.path.endswith("/callback"):
            return CALLBACK_ANSWER
        return MESSAGE

    async def create_interaction_response(self, *args: Any, **kwargs: Any) -> Any:   # type: ignore[override]
        return await super().create_interaction_response(*args, **kwargs)


def test_the_webhook_adapter_has_what_joined_body_adapter_overrides():
    adapter_class = getattr(async_, "AsyncWebhookAdapter", None)
    assert inspect.isclass(adapter_class), CHANGED + "discord.webhook.async_.AsyncWebhookAdapter: it is gone"
    adapter_class()   # JoinedBodyAdapter is made with no arguments
    request = inspect.signature(adapter_class.request)
    assert list(request.parameters)[:3] == ["self", "route", "session"], \
        CHANGED + f"AsyncWebhookAdapter.request's leading parameters: now {request}"
    assert inspect.iscoroutinefunction(adapter_class.request), CHANGED + "AsyncWebhookAdapter.request: not async"
    assert callable(getattr(adapter_class, "create_interaction_response", None)), \
        CHANGED + "AsyncWebhookAdapter.create_interaction_response: it is gone"
    assert isinstance(getattr(async_, "async_context", None), contextvars.ContextVar), \
        CHANGED + "discord.webhook.async_.async_context: no longer a ContextVar"


async def answering(what: str, answer: Coroutine[Any, Any, Any]) -> Any:
    try:
        return await answer
    except Exception as error:   # sent some other way than through the adapter in async_context
        pytest.fail(CHANGED + f"how it sends {what} of an interaction: {error!r}")


@pytest.mark.asyncio
async def test_every_interaction_answer_goes_through_the_adapter_in_async_context():
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    interaction = discord.Interaction(data=INTERACTION, state=bot._connection)   # as KibitzBot builds one
    adapter = RecordingAdapter()
    token = async_.async_context.set(adapter)
    try:
        answer = await answering("the callback", interaction.response.send_message("the board"))
        await answering("the edit of the first answer", interaction.edit_original_response(content="edited"))
        await answering("a followup", interaction.followup.send("a followup"))
    finally:
        async_.async_context.reset(token)
    assert adapter.requests == [
        ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
        ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ], CHANGED + "how an interaction's answers reach the adapter in async_context (callback, edit, followup) " \
                 f"through its request(): now {adapter.requests}"
    assert answer is not None and answer.message_id == 6006 and answer.resource is None, \
        CHANGED + "how it reads a callback's answer without the echoed message (the id from its interaction part)"


@pytest.mark.asyncio
async def test_the_adapter_sends_through_session_request_with_a_form_for_uploads():
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    class Response:
        status = 200
        headers = {"content-type": "application/json"}

        async def text(self, encoding: str = "utf-8") -> str:
            return '{"ok": true}'

    class Request:
        async def __aenter__(self) -> Response:
            return Response()

        async def __aexit__(self, *exc: Any) -> None:
            return None

    class Session:
        def request(self, *args: Any, **kwargs: Any) -> Request:
            calls.append((args, kwargs))
            return Request()

    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=1, webhook_token="t")
    result = await async_.AsyncWebhookAdapter().request(
        route, Session(), multipart=[{"name": "payload_json", "value": "{}"}], files=[])   # type: ignore[arg-type]
    assert result == {"ok": True}, CHANGED + "what AsyncWebhookAdapter.request returns"
    assert len(calls) == 1, CHANGED + f"how AsyncWebhookAdapter.request uses its session: {calls}"
    (args, kwargs), = calls
    assert args == ("POST", route.url), CHANGED + f"session.request's positional arguments: now {args}"
    assert isinstance(kwargs.get("data"), aiohttp.FormData) and isinstance(kwargs.get("headers"), dict), \
        CHANGED + f"how an upload is passed to session.request (data= an aiohttp.FormData, headers=): now {kwargs}"


def test_the_gateway_hands_each_interaction_to_the_parser_table():
    for bot_class in (commands.Bot, commands.AutoShardedBot):
        bot = bot_class(command_prefix="!", intents=discord.Intents.default())
        parsers = getattr(getattr(bot, "_connection", None), "parsers", None)
        assert isinstance(parsers, dict), CHANGED + f"{bot_class.__name__}._connection.parsers: no longer a dict"
        parser = parsers.get("INTERACTION_CREATE")
        assert getattr(parser, "__name__", None) == "parse_interaction_create" and parser.__self__ is bot._connection, \
            CHANGED + f'{bot_class.__name__}._connection.parsers["INTERACTION_CREATE"]: now {parser!r}'
        assert list(inspect.signature(parser).parameters) == ["data"], \
            CHANGED + f"the interaction parser's parameters: now {inspect.signature(parser)}"
    # the gateway looks the parser up in that same dict at each event, so a replaced entry is called
    lines = [line.strip() for line in inspect.getsource(DiscordWebSocket.from_client).splitlines()]
    assert "ws._discord_parsers = client._connection.parsers" in lines, \
        CHANGED + "where the gateway finds its parsers (DiscordWebSocket.from_client)"
    assert "self._discord_parsers[event]" in inspect.getsource(DiscordWebSocket.received_message), \
        CHANGED + "how the gateway calls a parser (DiscordWebSocket.received_message)"


def test_the_endpoints_are_class_settings(monkeypatch):
    monkeypatch.setattr(Route, "BASE", "http://127.0.0.1:9/api/v10")
    assert Route("GET", "/gateway").url == "http://127.0.0.1:9/api/v10/gateway", CHANGED + "discord.http.Route.BASE"
    assert async_.Route is Route, CHANGED + "the Route of interaction answers: no longer discord.http.Route"
    assert isinstance(DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL) and \
        "DEFAULT_GATEWAY" in inspect.getsource(DiscordWebSocket.from_client), \
        CHANGED + "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY"


def test_the_view_store_keeps_dynamic_templates_and_views_by_message_and_custom_id():
    class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"probe:(?P<n>[0-9]+)"):
        def __init__(self, n: int) -> None:
            super().__init__(discord.ui.Button(custom_id=f"probe:{n}"))

    store = discord.ui.view.ViewStore(state=None)  # type: ignore[arg-type]
    store.add_dynamic_items(Counter)
    assert any(pattern.fullmatch("probe:7") for pattern in store._dynamic_items), \
        f"discord.py {discord.__version__} changed ViewStore._dynamic_items (templates of dynamic items)"
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(custom_id="probe-button"))
    store.add_view(view, message_id=1)
    assert (discord.ComponentType.button.value, "probe-button") in store._views.get(1, {}), \
        f"discord.py {discord.__version__} changed ViewStore._views (views by message id and (type, custom_id))"
