"""Standing game orders played out, as the platform does after each change (pure).

After every applied action, each seat in ``to_move`` that holds game orders is asked for
``Plugin.ordered_action``; an answer is applied at once, as that seat's action, and the loop
goes on until no order answers (a person must decide, or the game is over). So a decision an
order answers closes in the same step as it opened. Used by tests and ``bench/run.py days``;
the platform's move transaction does the same with the stored orders."""
from __future__ import annotations

MAX_ORDERED = 500  # a safety cap: orders answer decisions, they cannot play a game on their own


def answer_by_orders(plugin, state, orders: dict, limit: int = MAX_ORDERED):
    """(state, [(seat, action, step), ...]): ``orders`` maps seat → its list of game orders."""
    applied = []
    engine = plugin.engine
    while len(applied) < limit:
        for seat in engine.to_move(state):
            if orders.get(seat):
                action = plugin.ordered_action(state, seat, orders[seat])
                if action is not None:
                    break
        else:
            return state, applied
        step = engine.apply(state, seat, action)
        applied.append((seat, action, step))
        state = step.state
    return state, applied
