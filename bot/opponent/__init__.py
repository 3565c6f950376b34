"""The computer opponent in the bot: who it is in a game (computer), the worker processes that
search for its moves (workers), and the task that plays its turns (runner).

    computer  the computer as a player: its id `computer:<level>`, its name, its record keys (pure)
    workers   a pool of worker processes off the bot's CPU, each rebuilding a game and calling engine.choose
    runner    started by a front end beside its scheduler: plays the computer's turns in turn, saving each
              through the service before it is delivered

Nothing here is imported by this package itself: the service imports `computer` (and `workers`
through the runner it is handed), and the runner imports the service.
"""
