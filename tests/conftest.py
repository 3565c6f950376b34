"""What every test shares.

Hints search by positions, not seconds, in tests: `service.hint(..., node_budget=HINT_NODES)` (the
Discord fixtures' service does this by itself), so a hint is the same on a busy machine.
"""

HINT_NODES = 2_000   # positions a hint searches in tests: about 0.2 s, the same answer on any machine
