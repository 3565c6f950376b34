"""The Discord front end (discord.py) over the service, in layers whose imports point down only:

    app.py           the bot: builds the cogs, the tree, the timers; runs it         (top)
    cogs/            the slash commands, by what a player does
    deadlines.py     what the deadline scheduler shows on Discord
    answers.py       a Reply as a message (text, picture, card, components), and its delivery
    components/      buttons, menus, the KingSwap! grid, threads: parse a click, call the service
    tree.py          the one CommandTree: options checked, errors turned into one private sentence
    interactions.py  the answering protocol: callback, defer ("thinking"), edit, followup
    outbox.py        answers Discord could not take yet, posted by a timer
    transport.py     requests to Discord: retries, backoff, one write per upload
    context.py       an interaction as service arguments: player, channel_key, guild_key
    limits.py        Discord's limits (characters, choices, components)                (bottom)

Components answer a click with a Reply whose message carries components again (a move's board has
its Draw and Resign buttons), so they reach answers.py through the bot (``context.answers_of``),
as they reach the service (``context.service_of``), rather than by importing it.
"""
