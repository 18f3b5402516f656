"""What the engine's speed work (engine time) must keep: ``apply`` never changes its
input and returns a state that shares no list or dict with it, and checking a posted action
(``legal`` filtered to it) answers exactly as the full list does. Over whole bot games, so
every phase, payment, reaction, search and reshuffle the bots reach is covered."""
import json

import pytest

from games.orden import rules as R
from games.orden.roster import BOTS
from games.orden.engine import ENGINE, _listed
from games.orden.legal import legal
from games.rng import Rng

DECKS = [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}, {"deck": "starter:buch"},
         {"deck": "starter:hammer"}]


def _game(n, seed):
    """(state, seat, action) of every step of a heuristic bot game."""
    st = ENGINE.setup(n, {}, seed, DECKS[:n])
    rng = Rng(seed * 7919 + 17)
    while st["result"] is None and st["round"] <= 300:
        seat = ENGINE.to_move(st)[0]
        action = BOTS["heuristic"](st, seat, rng)
        yield st, seat, action
        st = ENGINE.apply(st, seat, action).state


def _containers(obj, skip=()):
    """ids of every list and dict inside ``obj`` (keys in ``skip`` of the top level and the
    turn's "oncefx" left out)."""
    out, todo = set(), [v for k, v in obj.items() if k not in skip]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            out.add(id(x))
            todo.extend(v for k, v in x.items() if k != "oncefx")
        elif isinstance(x, list):
            out.add(id(x))
            todo.extend(x)
    return out


# never written by apply (opts, own) or copied before they are written (ci; the turn's
# "oncefx" and its entries are replaced, never changed in place): these may be shared, nothing else
SHARED = ("opts", "own", "ci")


@pytest.mark.parametrize("n,seed", [(4, 5), (2, 11)])
def test_apply_never_changes_its_input_nor_shares_a_container_with_it(n, seed):
    steps = 0
    for st, seat, action in _game(n, seed):
        before = json.dumps(st, sort_keys=True)
        for apply in (ENGINE.apply, ENGINE.apply_legal):
            new = apply(st, seat, action).state
            assert json.dumps(st, sort_keys=True) == before, f"{apply.__name__} changed its input at {action}"
            assert not _containers(st, SHARED) & _containers(new, SHARED), f"{apply.__name__} shares a list or dict with its input at {action}"
        steps += 1
    assert steps > 200  # a whole game


def test_a_posted_action_is_accepted_exactly_when_the_full_list_holds_it():
    """``apply`` checks a posted action against ``legal`` filtered to it (its type, card and
    rule: cheaper than the full list). Every action a seat could post, listed or not, must
    get the full list's answer."""
    checked = 0
    for st, seat, _action in _game(4, 1):  # a game where a rival effect strikes one (checked)
        full = legal(st, seat)
        p = st["p"][seat]
        cands = list(full) + [{"type": t, "card": i} for t in ("play", "discard", "pay", "choose")
                              for i in p["hand"]]
        cands += [{"type": "pay", "card": i} for i in p["auslage"]]
        for i in (p["pfad"][0], *p["auslage"], *p["hand"]):
            for ai in range(len(R.card(st, i).abilities) + 1):
                cands += [{"type": "activate", "card": i, "ability": ai}, {"type": "react", "card": i, "ability": ai}]
        cands += [{"type": "end_turn"}, {"type": "decline"}, {"type": "activate", "card": p["pfad"][0], "ability": "0"}]
        for a in cands:
            assert _listed(a, legal(st, seat, a)) == (a in full), (st["phase"], a)
            checked += 1
    assert checked > 10000
