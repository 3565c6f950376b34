"""The computer opponent in the bot: who it is in a game (computer), the worker processes that
search for its moves (workers), and the task that plays its turns (runner).

    computer  the computer as a player: its id `computer:<level>`, its name, its record keys (pure)
    workers   a pool of worker processes off the bot's CPU, each rebuilding a game and calling engine.choose
    runner    started by a front end beside its scheduler: plays the computer's turns in turn, saving each
              through the service before it is delivered

This package's own module imports none of them: the service imports only `computer`, and the
runner imports the service (so no cycle).
"""
