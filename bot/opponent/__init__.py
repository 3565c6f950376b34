"""The computer opponent in the bot: the worker processes that search for its moves (workers),
and the task that plays its turns (runner). Who the computer is in a game (its seat, name and
record keys) is the service's (bot/service/seats.py).

    workers   a pool of worker processes off the bot's CPU, each rebuilding a game and calling engine.choose
    runner    started by a front end beside its scheduler: plays the computer's turns in turn, saving each
              through the service before it is delivered

This package depends on the service (the runner calls it), never the reverse.
"""
