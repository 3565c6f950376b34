"""The Discord stand-in itself, driven by discord.py (through the bot, or by its own calls):
channels, threads, DMs, roles and permissions, command sync, mentions and channel messages."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest
import pytest_asyncio

from tests.discord.conftest import running_bot
from tests.discord.fake_discord import PRIVATE_THREAD, PUBLIC_THREAD, FakeDiscord

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def seen(bot) -> AsyncIterator[list[discord.Interaction]]:
    """Every interaction as discord.py parsed it on the bot's side."""
    interactions: list[discord.Interaction] = []

    async def record(interaction: discord.Interaction) -> None:
        interactions.append(interaction)

    bot.add_listener(record, "on_interaction")
    yield interactions
    bot.remove_listener(record, "on_interaction")


def text_channel(bot, channel_id: str) -> discord.TextChannel:
    channel = bot.get_channel(int(channel_id))
    assert isinstance(channel, discord.TextChannel), channel
    return channel


async def test_a_channel_added_before_connecting_comes_with_the_guild(fake, service):
    lobby = fake.add_channel("lobby")
    async with running_bot(fake, service) as bot:
        assert text_channel(bot, lobby).name == "lobby"
        assert text_channel(bot, fake.channel_id).name == "chess"


async def test_a_channel_added_later_is_announced_and_interactions_run_there(fake, bot, seen):
    lobby = fake.add_channel("lobby")
    await fake.wait_until(lambda: bot.get_channel(int(lobby)))
    log = await fake.slash("variants", user=fake.bob, channel=lobby)
    assert log.payload["channel_id"] == lobby and log.payload["channel"]["name"] == "lobby"
    assert seen[-1].channel is not None and seen[-1].channel.id == int(lobby)
    assert [s.message["id"] for s in fake.messages_in(lobby)] == [log.reply.message["id"]]
    assert fake.messages_in(fake.channel_id) == []


async def test_a_private_thread_created_through_discord_py_is_a_real_thread(fake, bot):
    thread = await text_channel(bot, fake.channel_id).create_thread(name="Daily puzzle", invitable=False,
                                                                   auto_archive_duration=1440)
    assert thread.type is discord.ChannelType.private_thread and thread.parent_id == int(fake.channel_id)
    assert thread.owner_id == bot.user.id and thread.invitable is False and thread.auto_archive_duration == 1440
    stored = fake.threads[str(thread.id)]
    assert stored["type"] == PRIVATE_THREAD and stored["members"] == [fake.app_id]
    await fake.wait_until(lambda: bot.get_channel(thread.id))     # THREAD_CREATE reached the bot

    await thread.add_user(discord.Object(int(fake.bob["id"])))
    assert fake.threads[str(thread.id)]["members"] == [fake.app_id, fake.bob["id"]]
    fetched = await bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.member_count == 2


async def test_a_private_thread_is_seen_by_its_members_and_moderators_only(fake, bot):
    thread = await text_channel(bot, fake.channel_id).create_thread(name="Daily puzzle")
    await fake.wait_until(lambda: bot.get_channel(thread.id))
    with pytest.raises(AssertionError, match="cannot see private thread"):
        await fake.slash("variants", user=fake.carol, channel=str(thread.id))
    await fake.slash("variants", user=fake.moderator, channel=str(thread.id))   # Manage Threads sees it
    await thread.send(f"<@{fake.carol['id']}> today's puzzle",
                      allowed_mentions=discord.AllowedMentions(users=True))
    assert fake.threads[str(thread.id)]["members"] == [fake.app_id, fake.carol["id"]]   # a ping adds her
    await fake.slash("variants", user=fake.carol, channel=str(thread.id))
    await thread.send(f"<@{fake.bob['id']}> not you", allowed_mentions=discord.AllowedMentions.none())
    assert fake.bob["id"] not in fake.threads[str(thread.id)]["members"]


async def test_a_public_thread_from_a_message_takes_the_message_id(fake, bot):
    message = await text_channel(bot, fake.channel_id).send("Game on")
    thread = await message.create_thread(name="alice vs bob")
    assert thread.id == message.id and thread.type is discord.ChannelType.public_thread
    assert fake.threads[str(thread.id)]["type"] == PUBLIC_THREAD
    with pytest.raises(discord.HTTPException):   # one thread per message
        await message.create_thread(name="again")


async def test_thread_messages_stay_in_the_thread_and_archiving_and_locking_are_honoured(fake, bot):
    thread = await text_channel(bot, fake.channel_id).create_thread(name="game", type=discord.ChannelType.public_thread)
    posted = await thread.send("1. e4")
    assert [s.content for s in fake.messages_in(str(thread.id))] == ["1. e4"]
    assert fake.messages_in(fake.channel_id) == []
    assert posted.jump_url == f"https://discord.com/channels/{fake.guild_id}/{thread.id}/{posted.id}"

    edited = await thread.edit(name="game over", archived=True, locked=True)
    assert edited.name == "game over" and edited.archived and edited.locked
    assert fake.channel_patches == [(str(thread.id), {"name": "game over", "archived": True, "locked": True})]
    assert fake.threads[str(thread.id)]["thread_metadata"]["archived"] is True
    with pytest.raises(discord.HTTPException) as refused:
        await thread.send("2. e5")
    assert refused.value.code == 50083 and len(fake.messages_in(str(thread.id))) == 1
    await thread.edit(locked=False)
    await thread.send("2. e5")     # an unlocked archived thread is unarchived by a post
    assert fake.threads[str(thread.id)]["thread_metadata"]["archived"] is False


async def test_an_answer_to_a_command_in_a_thread_is_listed_in_the_thread(fake, bot, seen):
    thread = await text_channel(bot, fake.channel_id).create_thread(name="game", type=discord.ChannelType.public_thread)
    await fake.wait_until(lambda: bot.get_channel(thread.id))
    log = await fake.slash("variants", user=fake.alice, channel=str(thread.id))
    assert isinstance(seen[-1].channel, discord.Thread) and seen[-1].channel.parent_id == int(fake.channel_id)
    [answer] = fake.messages_in(str(thread.id))
    assert answer.message == log.reply.message
    assert answer.message["channel_id"] == str(thread.id) and answer.message["guild_id"] == fake.guild_id
    assert fake.messages_in(fake.channel_id) == []


async def test_a_click_on_a_message_in_a_thread_runs_in_the_thread(fake, bot, seen):
    thread = await text_channel(bot, fake.channel_id).create_thread(name="game", type=discord.ChannelType.public_thread)
    await fake.wait_until(lambda: bot.get_channel(thread.id))
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Resign", custom_id="stand:resign"))
    await thread.send("Your move", view=view)
    log = await fake.click("stand:resign", user=fake.bob, wait=False)
    assert log.payload["channel_id"] == str(thread.id) and log.payload["channel"]["type"] == PUBLIC_THREAD
    await fake.wait_until(lambda: seen)
    assert seen[-1].channel is not None and seen[-1].channel.id == thread.id
    assert isinstance(seen[-1].channel, discord.Thread)


async def test_denied_threads_answer_403_and_show_in_app_permissions(fake, bot, seen):
    lobby = fake.add_channel("lobby")
    await fake.wait_until(lambda: bot.get_channel(int(lobby)))
    fake.deny_threads(fake.channel_id)
    with pytest.raises(discord.Forbidden) as refused:
        await text_channel(bot, fake.channel_id).create_thread(name="nope")
    assert refused.value.code == 50013 and fake.threads == {}

    await fake.slash("variants", user=fake.bob)
    await fake.slash("variants", user=fake.bob, channel=lobby)
    denied, allowed = seen[-2].app_permissions, seen[-1].app_permissions
    assert not (denied.create_public_threads or denied.create_private_threads or denied.send_messages_in_threads)
    assert denied.send_messages
    assert allowed.create_public_threads and allowed.create_private_threads

    guild = text_channel(bot, fake.channel_id).guild
    await fake.wait_until(lambda: not text_channel(bot, fake.channel_id).permissions_for(guild.me).create_private_threads)
    assert text_channel(bot, lobby).permissions_for(guild.me).create_private_threads

    fake.deny_threads()
    with pytest.raises(discord.Forbidden):
        await text_channel(bot, lobby).create_thread(name="nope")
    later = fake.add_channel("later")
    assert not fake.app_permissions(later) & discord.Permissions(create_public_threads=True).value


async def test_members_carry_realistic_permissions_and_roles(fake, bot, seen):
    guild = bot.get_guild(int(fake.guild_id))
    assert guild is not None and guild.owner_id == int(fake.alice["id"])
    assert guild.default_role.permissions.create_public_threads
    assert not guild.default_role.permissions.manage_guild
    assert {r.name for r in guild.roles} == {"@everyone", "Admin", "Moderator", "Kibitz"}
    for user in (fake.alice, fake.bob, fake.moderator):
        await fake.slash("variants", user=user)
    alice, bob, mod = (i.permissions for i in seen[-3:])
    assert alice.administrator and alice.manage_guild
    assert bob.send_messages and bob.use_application_commands and bob.create_public_threads
    assert not (bob.administrator or bob.manage_guild or bob.manage_threads or bob.manage_messages)
    assert mod.manage_threads and mod.manage_messages and not mod.manage_guild
    assert isinstance(seen[-1].user, discord.Member)
    assert [r.name for r in seen[-1].user.roles] == ["@everyone", "Moderator"]


async def test_an_added_member_gets_the_given_roles_and_permissions(fake, bot, seen):
    referee = fake.add_role("Referee", discord.Permissions(manage_guild=True).value)
    dave = fake.add_member("dave", roles=[referee])
    erin = fake.add_member("erin", permissions=discord.Permissions(view_channel=True).value)
    await fake.slash("variants", user=dave)
    await fake.slash("variants", user=erin)
    assert seen[-2].permissions.manage_guild and seen[-2].permissions.send_messages
    assert seen[-1].permissions.view_channel and not seen[-1].permissions.send_messages


async def test_a_dm_is_one_channel_per_user_and_can_be_refused(fake, bot):
    bob = await bot.fetch_user(int(fake.bob["id"]))
    assert bob.name == "bob"
    dm = await bob.create_dm()
    again = await bot.http.start_private_message(bob.id)
    assert str(dm.id) == fake.dm_channel_of(fake.bob) == again["id"]
    sent = await dm.send("Today's puzzle")
    assert [s.content for s in fake.messages_in(str(dm.id))] == ["Today's puzzle"]
    assert sent.jump_url == f"https://discord.com/channels/@me/{dm.id}/{sent.id}"
    assert isinstance(await bot.fetch_channel(dm.id), discord.DMChannel)

    fake.deny_dms(fake.bob)
    with pytest.raises(discord.Forbidden) as refused:
        await dm.send("again")
    assert refused.value.code == 50007 and len(fake.messages_in(str(dm.id))) == 1


async def test_an_interaction_in_a_dm_has_a_user_and_no_guild(fake, bot, seen):
    dm = fake.dm_channel_of(fake.carol)
    log = await fake.slash("variants", user=fake.carol, channel=dm)
    assert "guild_id" not in log.payload and "member" not in log.payload
    assert log.payload["user"] == fake.carol and log.payload["context"] == 1
    assert seen[-1].guild is None and isinstance(seen[-1].channel, discord.DMChannel)
    assert [s.message["id"] for s in fake.messages_in(dm)] == [log.reply.message["id"]]
    assert "guild_id" not in log.reply.message


async def test_fetch_commands_answers_what_was_synced(fake, bot):
    fetched = await bot.tree.fetch_commands()
    assert sorted(c.name for c in fetched) == sorted(c["name"] for c in fake.commands)
    assert fake.command_syncs == 1 and fetched


async def test_guild_commands_are_stored_and_counted_per_guild(fake, bot, seen):
    guild = discord.Object(int(fake.guild_id))
    bot.tree.copy_global_to(guild=guild)
    synced = await bot.tree.sync(guild=guild)
    assert fake.guild_command_syncs[fake.guild_id] == 1 and fake.command_syncs == 1
    assert sorted(c.name for c in await bot.tree.fetch_commands(guild=guild)) == sorted(c.name for c in synced)
    assert list(fake.guild_command_syncs) == [fake.guild_id] and list(fake.guild_commands) == [fake.guild_id]


async def test_preset_commands_are_there_before_any_sync(service):
    async with FakeDiscord(commands=[{"name": "board", "description": "Show the board"}]) as fake:
        guild = discord.Object(int(fake.guild_id))
        fake.guild_commands[fake.guild_id] = [fake._command({"name": "games", "description": "Games"}, fake.guild_id)]
        async with running_bot(fake, service, sync=False) as bot:
            assert [c.name for c in await bot.tree.fetch_commands()] == ["board"]
            assert [c.name for c in await bot.tree.fetch_commands(guild=guild)] == ["games"]
            assert fake.command_syncs == 0 and fake.guild_command_syncs[fake.guild_id] == 0
            log = await fake.slash("games", user=fake.alice, wait=False)
            assert log.payload["data"]["guild_id"] == fake.guild_id


async def test_preset_guild_commands_come_from_the_constructor(service):
    async with FakeDiscord(guild_commands={"42": [{"name": "games", "description": "Games"}]}) as fake:
        async with running_bot(fake, service, sync=False) as bot:
            [games] = await bot.tree.fetch_commands(guild=discord.Object(42))
            assert games.name == "games" and games.guild_id == 42


async def test_one_fake_serves_two_bot_sessions_in_turn(fake, service):
    async with running_bot(fake, service):
        first_ids = {c["name"]: c["id"] for c in fake.commands}
    async with running_bot(fake, service):
        log = await fake.slash("variants", user=fake.alice)
        assert log.reply.content
    assert fake.command_syncs == 1   # the bot syncs only when its commands changed (bot/discord/app.py)
    assert {c["name"]: c["id"] for c in fake.commands} == first_ids   # same commands keep their ids


async def test_allowed_mentions_decide_who_is_pinged(fake, bot):
    channel = text_channel(bot, fake.channel_id)
    text = f"<@{fake.bob['id']}> <@{fake.carol['id']}> your move"
    silent = await channel.send(text)      # the bot's default: AllowedMentions.none()
    assert fake.channel_messages[-1].allowed_mentions == {"parse": []} and silent.mentions == []
    pinged = await channel.send(text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(fake.bob["id"]))]))
    assert [str(u) for u in fake.channel_messages[-1].allowed_mentions["users"]] == [fake.bob["id"]]
    assert [m.id for m in pinged.mentions] == [int(fake.bob["id"])]


async def test_channel_messages_can_be_fetched_edited_and_deleted(fake, bot):
    channel = text_channel(bot, fake.channel_id)
    message = await channel.send("Challenge: alice vs bob")
    assert message.jump_url == f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{message.id}"
    await message.edit(content="Challenge expired", view=None)
    [edit] = fake.channel_edits
    assert edit.kind == "channel_edit" and edit.message["content"] == "Challenge expired"
    assert edit.message["components"] == [] and edit.message["id"] == str(message.id)
    assert (await channel.fetch_message(message.id)).content == "Challenge expired"
    await message.delete()
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(message.id)
    with pytest.raises(discord.NotFound):
        await bot.get_partial_messageable(12345).fetch_message(message.id)   # unknown channel


async def test_edits_and_mentions_discord_refuses_are_refused(fake, bot):
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=int(fake.channel_id))
    for refused in ({"parse": ["users"], "users": [fake.bob["id"]]},   # documented as mutually exclusive
                    {"users": [fake.bob["id"], fake.bob["id"]]}):      # one listed twice
        with pytest.raises(discord.HTTPException) as error:
            await bot.http.request(route, json={"content": f"<@{fake.bob['id']}>", "allowed_mentions": refused})
        assert (error.value.status, error.value.code) == (400, 50035)
    private = await fake.slash("move", {"move": "e4"}, user=fake.bob)   # no game here: a private refusal
    assert private.reply.ephemeral
    channel = text_channel(bot, fake.channel_id)
    with pytest.raises(discord.NotFound):   # an ephemeral message is no channel's: it cannot be edited there
        await channel.get_partial_message(int(private.reply.message["id"])).edit(view=None)
    await (await channel.send("a board")).edit(view=None)   # the bot's own message can


async def test_unknown_channels_answer_404(fake, bot):
    with pytest.raises(discord.NotFound):
        await bot.fetch_channel(424242)


async def test_nothing_more_lists_what_the_bot_was_about_to_send_and_leaves_out_the_later_help(fake, bot):
    channel = text_channel(bot, fake.channel_id)
    sending = asyncio.ensure_future(channel.send("on its way"))   # as a followup the bot is about to send
    between = await fake.nothing_more(user=fake.carol)
    assert sending.done()
    assert [(r.method, r.body["content"]) for r in between] == [("POST", "on its way")]
    assert await fake.nothing_more(user=fake.carol) == []
