"""Discord's numbers the stand-in speaks: callback, permission, channel and option types."""
from __future__ import annotations

EPHEMERAL = 1 << 6
DISCORD_EPOCH_MS = 1_420_070_400_000   # 2015-01-01, where snowflake time starts
PATIENCE = 30.0   # default seconds a wait polls before failing: generous, so a busy machine never fails a test
LOADING = 1 << 7

# interaction callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9

# permission bits (https://discord.com/developers/docs/topics/permissions)
ADMINISTRATOR, MANAGE_CHANNELS, MANAGE_GUILD, ADD_REACTIONS = 1 << 3, 1 << 4, 1 << 5, 1 << 6
VIEW_CHANNEL, SEND_MESSAGES, MANAGE_MESSAGES, EMBED_LINKS, ATTACH_FILES = 1 << 10, 1 << 11, 1 << 13, 1 << 14, 1 << 15
READ_MESSAGE_HISTORY, USE_APPLICATION_COMMANDS = 1 << 16, 1 << 31
MANAGE_THREADS, CREATE_PUBLIC_THREADS, CREATE_PRIVATE_THREADS, SEND_MESSAGES_IN_THREADS = 1 << 34, 1 << 35, 1 << 36, 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
THREAD_PERMISSIONS = CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS
# what an ordinary member may do (the @everyone role of the fake guild)
MEMBER_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | USE_APPLICATION_COMMANDS | EMBED_LINKS
                      | ATTACH_FILES | ADD_REACTIONS | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS
                      | SEND_MESSAGES_IN_THREADS)

# channel types
TEXT_CHANNEL, DM_CHANNEL, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12

_OPTION_STRING, _OPTION_INTEGER, _OPTION_BOOLEAN, _OPTION_USER, _OPTION_NUMBER = 3, 4, 5, 6, 10
_OPTION_CHANNEL = 7   # a channel option: its value is the channel's id, resolved like a user
