"""The game simulator (bench/sim/simulate.py) in small runs, so it cannot rot; and Der Orden's
balance harness playing through its core with the same results as its own loop had."""
import json

import pytest

from bench.orden import harness as H
from bench.sim import simulate as S
from games import registry
from games.orden.engine import ENGINE
from games.orden.roster import BOTS
from games.rng import Rng

pytestmark = pytest.mark.pure


def test_a_small_run_reports_sane_figures(tmp_path):
    rep = S.main(["alchemist", "--games", "6", "--players", "3", "--ladder-games", "2", "--out", str(tmp_path)])
    assert rep.ended == 6 and rep.stalled_seeds == []
    assert [p["position"] for p in rep.positions] == [1, 2, 3]
    assert sum(p["share"] for p in rep.positions) == pytest.approx(100)  # every game has its winners
    assert all(0 < p["ci95"] <= 100 and p["fair"] == pytest.approx(100 / 3) for p in rep.positions)
    assert 0 < rep.turns["mean"] <= rep.steps["mean"] <= rep.steps["max"]
    assert rep.decisions_per_turn["mean"] > 0 and rep.options_per_decision > 1
    assert [(s["stronger"], s["weaker"]) for s in rep.ladder] == [("heuristic", "random")]
    assert rep.ladder[0]["games"] == 2 * 3 and 0 <= rep.ladder[0]["share"] <= 100
    saved = json.loads((tmp_path / "simulate-alchemist-3p.json").read_text())
    assert saved["ended"] == 6 and saved["bot"] == "heuristic"  # the strongest bot by default
    table = (tmp_path / "simulate-alchemist-3p.md").read_text()
    assert "| games ended | 6 / 6 |" in table and "ladder: heuristic vs random" in table


def test_the_same_seeds_give_the_same_report():
    a = S.simulate("orden", 2, 2, bot="heuristic", ladder_games=0, seed=4)
    b = S.simulate("orden", 2, 2, bot="heuristic", ladder_games=0, seed=4)
    assert (a.positions, a.steps, a.turns, a.decisions_per_turn) == (b.positions, b.steps, b.turns, b.decisions_per_turn)


def test_a_game_without_end_is_counted_and_named_by_seed():
    rep = S.simulate("alchemist", 2, 3, bot="random", ladder_games=0, seed=10, max_steps=5)
    assert rep.ended == 0 and rep.stalled_seeds == [10, 11, 12]
    assert "games ended | 0 / 3 (no end: seeds 10, 11, 12)" in S.markdown(rep)


def test_the_ladder_is_the_declared_bots_weakest_first():
    assert S.ladder(registry.get("orden")) == ["random", "heuristic", "lookahead"]
    assert S.ladder(registry.get("alchemist")) == ["random", "heuristic"]


def test_seed_interval_counts_each_seed_once():
    assert S.seed_ci95([1.0]) == 100.0
    assert S.seed_ci95([0.5] * 100) == pytest.approx(0.98)  # the floor: a fair coin's variance / k
    assert S.seed_ci95([0, 1] * 50) == pytest.approx(196 * (25 / 99 / 100) ** 0.5)


def _old_play_game(task):
    """harness.play_game's own loop before it played through the simulator (kept here as
    the reference its results must equal)."""
    decks, seed, pilots = task["decks"], task["seed"], task["pilots"]
    st = ENGINE.setup(len(decks), {}, seed, [{"deck": d} for d in decks])
    rng = Rng(seed * 7919 + 17)
    decisions = options = turns = 0
    while st["result"] is None and st["round"] <= H.CAP_ROUNDS:
        seat = ENGINE.to_move(st)[0]
        k = len(ENGINE.legal_actions(st, seat))
        if k > 1:
            decisions += 1
            options += k
        t = st["t"]
        turns += st["phase"] == "main" and t["plays"] == t["acts"] == 0 and seat == st["cur"] and not t["once"] \
            and st["res"] is None
        st = ENGINE.apply(st, seat, BOTS[pilots[seat]](st, seat, rng)).state
    winner = next(x["seat"] for x in st["result"]["placements"] if x["place"] == 1) if st["result"] else None
    return {"winner": winner, "start": st["start"], "n": len(decks), "rounds": st["round"], "decisions": decisions,
            "options": options, "turns": turns}


def test_orden_harness_plays_through_the_simulator_with_identical_results():
    tasks = [H.table_task(n, g, H.TABLE_SEED0 + 1, "heuristic") for n in (2, 3, 4) for g in range(2)]
    tasks += H.Runner(1, "lookahead").pair_tasks("starter:schwert", "starter:buch", H.seeds(11, 2))
    for task in tasks:
        new = H.play_game(task)
        assert {k: v for k, v in new.items() if k not in ("engine_s", "cpu_s")} == _old_play_game(task), task


def _old_balance_play(decks, seed, bots, stats):
    """play.play's own loop before it played through the simulator (the reference)."""
    st = ENGINE.setup(len(decks), {}, seed, [{"deck": d} for d in decks])
    rng = Rng(seed * 7919 + 17)
    while st["result"] is None and st["round"] <= H.CAP_ROUNDS:
        seat = ENGINE.to_move(st)[0]
        stats["decisions"] += len(ENGINE.legal_actions(st, seat)) > 1
        stats["turns"] += st["phase"] == "main" and st["t"]["plays"] == st["t"]["acts"] == 0 \
            and seat == st["cur"] and not st["t"]["once"]
        st = ENGINE.apply(st, seat, BOTS[bots[seat]](st, seat, rng)).state
    stats["rounds"].append(st["round"])
    stats["start"].append(st["start"])
    return next(x["seat"] for x in st["result"]["placements"] if x["place"] == 1) if st["result"] else None


def test_orden_balance_plays_through_the_simulator_with_identical_results():
    from bench.orden import play as B

    for seed, n in ((1, 2), (2, 3), (3, 4)):
        decks = [f"starter:{B.PATHS[(seed + i) % 3]}" for i in range(n)]
        new, old = B.new_stats(decisions=True), B.new_stats(decisions=True)
        assert B.play(decks, seed, ["heuristic"] * n, new) == _old_balance_play(decks, seed, ["heuristic"] * n, old)
        new.pop("engine_s"), old.pop("engine_s")
        assert new == old
