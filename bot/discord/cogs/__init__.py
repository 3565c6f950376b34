"""The slash commands, one cog for each thing a player does: look up variants and rules
(catalogue), start games (starting), play them (playing), read ratings and records (records),
keep the server's and their own settings (settings). Each parses its options, calls the service
through ``answer`` (bot/discord/answers.py) and sends its Reply.

``answer`` runs the service call first: a mistake it finds (not your game, not your turn, an
illegal move) is a private sentence with no public "thinking" before it; a public answer is the
interaction's callback itself (one request), and a call still running after 1.5 s defers while it
runs, so rendering or storage never runs into Discord's 3-second deadline. Errors are not handled
here: they propagate to ``KibitzTree.on_error`` (bot/discord/tree.py). Autocomplete only suggests;
the service validates slugs and moves again. String options are at most MAX_OPTION characters
(``Text`` in options.py).

Commands that change a game pass ``changes=True``: once the service has returned, the change is
committed, so the answer is delivered (by the callback or a followup, else in the channel) and
never turned into an error. Commands that only read send their answer as it is.
"""
