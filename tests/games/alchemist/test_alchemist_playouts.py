"""Random playouts: conservation, JSON, determinism, termination, bots."""
import json

import pytest

from games.alchemist import PLUGIN
from games.alchemist.engine import cube_total
from games.alchemist.testing import playout
from games.rng import Rng

E = PLUGIN.engine


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("no_schools", [False, True])
def test_random_playouts_conserve_cubes_and_round_trip(n, no_schools):
    def on_step(state, seat, action, step):
        assert action in E.legal_actions(state, seat)
        assert E.to_move(state) == [seat]
        new = step.state
        assert cube_total(new) == 160
        assert min(new["bag"] + new["reserve"] + [x for h in new["hands"] for x in h]) >= 0
        assert json.loads(json.dumps(new)) == new
        assert json.loads(json.dumps(step.events)) == step.events
        assert json.loads(json.dumps(action)) == action
        assert (E.outcome(new) is None) == bool(E.to_move(new))
        for e in step.events:
            for lang in ("de", "en"):
                assert PLUGIN.describe(e, ["A", "B", "C", "D"], lang)

    for seed in range(25):
        st = playout(n, seed, no_schools, on_step=on_step)
        assert st["finished"]
        assert sum(1 for c in st["reserve"] if c == 0) >= 3
        assert st["turns"] % n == 0  # ends after a full round
        places = sorted(p["place"] for p in E.outcome(st)["placements"])
        assert places[0] == 1


def test_apply_never_mutates_its_input():
    def on_step(state, seat, action, step):
        assert json.dumps(state, sort_keys=True) == snapshot[0]
        snapshot[0] = json.dumps(step.state, sort_keys=True)

    for seed in range(10):
        st = E.setup(3, {}, seed, [])
        snapshot = [json.dumps(st, sort_keys=True)]
        rng = Rng(seed)
        bot = PLUGIN.bots()["random"]
        while not st["finished"]:
            seat = st["turn"]
            a = bot(st, seat, rng)
            before = json.dumps(st, sort_keys=True)
            step = E.apply(st, seat, a)
            assert json.dumps(st, sort_keys=True) == before
            st = step.state


def test_replay_is_deterministic():
    log = []
    final = playout(4, 77, on_step=lambda st, seat, a, step: log.append((seat, a)))
    st = E.setup(4, {"no_schools": False}, 77, [{}] * 4)
    for seat, a in log:
        st = E.apply(json.loads(json.dumps(st)), seat, a).state
    assert st == final


def test_undoable_steps_reveal_nothing():
    def on_step(state, seat, action, step):
        draws = action.get("draw") is True
        assert step.reveals == (draws or step.state["finished"])

    for seed in range(10):
        playout(3, seed, on_step=on_step)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_heuristic_beats_random_clearly(n):
    wins = 0
    games = 40
    for seed in range(games):
        st = playout(n, 1000 + seed, policies=("heuristic",) + ("random",) * (n - 1))
        wins += any(p["seat"] == 0 and p["place"] == 1 for p in E.outcome(st)["placements"])
    assert wins / games >= 0.75, wins  # random seats would win ~1/n


def test_heuristic_vs_heuristic_ends():
    for n in (2, 3, 4):
        for seed in range(5):
            assert playout(n, seed, policies=("heuristic",))["finished"]


def test_bots_return_legal_actions():
    bots = PLUGIN.bots()
    assert set(bots) == {"random", "heuristic"}
    s = E.setup(2, {}, 3, [])
    for name, fn in bots.items():
        a = fn(s, s["turn"], Rng(1))
        assert a in E.legal_actions(s, s["turn"]) and a["value"] >= 5, name
