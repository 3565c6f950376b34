"""Every command, named once. The Discord cogs, ``/help`` (``GameService.help_text``), the console's
HELP, the README's commands table and docs/playing.md's are kept to this list by
tests/test_commands_list.py: a command added, renamed or dropped anywhere shows up there."""

# The slash commands, in the order the README's table lists them.
SLASH = ("variants", "rules", "puzzle", "challenge", "move", "board", "resign", "draw", "takeback", "undo", "hint",
         "games", "leaderboard", "profile", "export", "replay", "pings", "settings", "abort", "help")
NOT_IN_HELP = ("help",)                  # /help does not list itself
NOT_IN_CONSOLE = ("pings", "settings")   # a member's pings and a server's settings mean nothing there
# The console's own: Discord's buttons typed as commands, and moving about as another player or channel.
CONSOLE_ONLY = ("accept", "decline", "moves", "build", "as", "channel", "quit")
