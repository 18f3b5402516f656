"""End of the contest and final scoring (leftovers, school ranks, tables, ties)."""
import pytest

from games.alchemist import PLUGIN
from games.alchemist.engine import final_scores
from games.alchemist.testing import arrange

E = PLUGIN.engine
GONE3 = {"blue": 0, "green": 0, "grey": 0, "orange": 4, "yellow": 4}


def game(n=3, **kw):
    s = E.setup(n, {}, 21, [])
    kw.setdefault("start", 0)
    kw.setdefault("turn", 0)
    kw.setdefault("round", 4)
    return arrange(s, **kw)


def run_round(s, actions=None):
    """Every seat passes by taking orange (or the given actions) until the round ends."""
    for seat in range(s["n"]):
        a = (actions or {}).get(seat, {"type": "pass", "take": "orange"})
        s = E.apply(s, seat, a).state
    return s


def test_end_only_after_the_full_round():
    s = game(reserve=GONE3)
    s1 = E.apply(s, 0, {"type": "pass", "take": "orange"}).state
    assert not s1["finished"] and E.outcome(s1) is None and E.to_move(s1) == [1]
    s2 = E.apply(s1, 1, {"type": "pass", "take": "orange"}).state
    assert not s2["finished"]
    step = E.apply(s2, 2, {"type": "pass", "take": "orange"})
    assert step.state["finished"] and step.reveals
    assert E.to_move(step.state) == [] and E.outcome(step.state) is not None
    end = [e for e in step.events if e["type"] == "end"]
    assert end == [{"type": "end", "round": 4, "exhausted": ["blue", "green", "grey"]}]
    assert len([e for e in step.events if e["type"] == "score"]) == 3


def test_end_checked_relative_to_start_player():
    s = game(reserve=GONE3, start=1, turn=1)
    s = E.apply(s, 1, {"type": "pass", "take": "orange"}).state
    s = E.apply(s, 2, {"type": "pass", "take": "orange"}).state
    assert not s["finished"]
    s = E.apply(s, 0, {"type": "pass", "take": "orange"}).state
    assert s["finished"]


def test_two_exhausted_colours_do_not_end():
    s = game(reserve={"blue": 0, "green": 0, "grey": 5, "orange": 5, "yellow": 5})
    s = run_round(s)
    assert not s["finished"] and s["round"] == 5 and s["turn"] == 0


def test_exhausted_mid_round_then_refilled_never_happens_but_count_at_round_end():
    # 3rd colour runs out during the round -> the game ends at the round's end
    s = game(reserve={"blue": 0, "green": 0, "grey": 5, "orange": 1, "yellow": 5})
    s = run_round(s, {0: {"type": "pass", "take": "orange"}, 1: {"type": "pass", "take": "grey"},
                      2: {"type": "pass", "take": "grey"}})
    assert s["finished"]


def test_leftover_points_one_per_two_cubes():
    s = game(n=2, hands={0: {"blue": 3, "grey": 4}, 1: {"orange": 1}}, reserve=GONE3,
             fame=[10, 20])
    s = arrange(s, school=[3, 4])
    fin = final_scores(s)["seats"]
    assert [r["leftover_points"] for r in fin] == [3, 0]


def _ranked(n, hands, reserve, school, fame=None):
    s = E.setup(n, {}, 3, [])
    hands = {**{seat: {} for seat in range(n)}, **hands}  # unlisted screens are empty
    s = arrange(s, hands=hands, reserve=reserve, school=school, fame=fame or [0] * n)
    return final_scores(s)["seats"]


def test_school_ranks_fewest_left_is_rank_one_counting_screens():
    # reserve + screens: blue 1, green 3, grey 5, orange 7 (yellow has no school: ignored)
    fin = _ranked(4, {0: {"blue": 1}, 1: {"green": 1}, 2: {}, 3: {}},
                  {"blue": 0, "green": 2, "grey": 5, "orange": 7, "yellow": 0},
                  school=[0, 1, 2, 3])
    assert [r["school_rank"] for r in fin] == [1, 2, 3, 4]
    assert [r["school_points"] for r in fin] == [12, 8, 4, 0]


def test_shared_rank_and_no_skipped_rank():
    # blue 2, green 2, grey 5, orange 9 -> ranks I, I, II, III
    fin = _ranked(4, {}, {"blue": 2, "green": 2, "grey": 5, "orange": 9, "yellow": 0},
                  school=[0, 1, 2, 3])
    assert [r["school_rank"] for r in fin] == [1, 1, 2, 3]
    assert [r["school_points"] for r in fin] == [12, 12, 8, 4]


def test_unrepresented_schools_are_ignored():
    # yellow has fewest but no representative: blue is rank I
    fin = _ranked(3, {}, {"blue": 3, "green": 4, "grey": 6, "orange": 0, "yellow": 0},
                  school=[0, 1, 2])
    assert [r["school_rank"] for r in fin] == [1, 2, 3]
    assert [r["school_points"] for r in fin] == [10, 5, 0]


@pytest.mark.parametrize("n,table", [(2, (6, 0)), (3, (10, 5, 0)), (4, (12, 8, 4, 0))])
def test_point_table_per_player_count(n, table):
    reserve = {c: i for i, c in enumerate(["blue", "green", "grey", "orange", "yellow"])}
    fin = _ranked(n, {s: {} for s in range(n)}, reserve, school=list(range(n)))
    assert tuple(r["school_points"] for r in fin) == table


def test_all_tied_share_rank_one():
    fin = _ranked(3, {0: {}, 1: {}, 2: {}}, {"blue": 4, "green": 4, "grey": 4}, school=[0, 1, 2])
    assert [r["school_points"] for r in fin] == [10, 10, 10]


def test_total_and_tie_break_by_school_rank():
    # equal totals; seat 1's school ranks better, so seat 1 wins
    fin = _ranked(2, {0: {}, 1: {}}, {"blue": 5, "green": 1}, school=[0, 1], fame=[30, 24])
    assert [r["total"] for r in fin] == [30, 30]
    assert [r["place"] for r in fin] == [2, 1]


def test_shared_place_when_rank_also_equal():
    fin = _ranked(3, {0: {}, 1: {}, 2: {}}, {"blue": 1, "green": 1, "grey": 4}, school=[0, 1, 2],
                  fame=[20, 20, 40])
    assert [r["place"] for r in fin] == [2, 2, 1]


def test_no_schools_scoring_and_shared_tie():
    s = E.setup(3, {"no_schools": True}, 3, [])
    s = arrange(s, hands={0: {"blue": 2}, 1: {"grey": 2}, 2: {}}, fame=[10, 10, 5])
    fin = final_scores(s)["seats"]
    assert [r["school_rank"] for r in fin] == [None, None, None]
    assert [r["school_points"] for r in fin] == [0, 0, 0]
    assert [r["total"] for r in fin] == [11, 11, 5]
    assert [r["place"] for r in fin] == [1, 1, 3]


def test_outcome_and_final_view_after_end():
    s = game(reserve=GONE3, fame=[5, 9, 7], school=[0, 3, 4],
             hands={0: {"grey": 2}, 1: {"blue": 1}, 2: {"yellow": 5}})
    s = run_round(s)
    out = E.outcome(s)
    v = E.view(s, None)
    assert v["finished"] and v["final"]["seats"] == s["final"]["seats"]
    assert [p["score"] for p in out["placements"]] == [r["total"] for r in v["final"]["seats"]]
    assert [p["place"] for p in out["placements"]] == [r["place"] for r in v["final"]["seats"]]
    # everything revealed at the end
    assert all(x["ingredients"] is not None and x["school"] for x in v["seats"])


def test_tiebreak_scores_for_unfinished_games():
    s = E.setup(3, {}, 3, [])
    s = arrange(s, fame=[10, 10, 3], reserve={"blue": 1, "green": 9, "grey": 9, "orange": 9, "yellow": 9},
                hands={0: {}, 1: {}, 2: {}}, school=[1, 0, 2])
    scores = PLUGIN.tiebreak_scores(s)
    assert scores[1] > scores[0] > scores[2]   # seat 1's school (blue) ranks I
    assert int(scores[0]) == 10
    s2 = arrange(E.setup(2, {"no_schools": True}, 3, []), fame=[4, 6])
    assert PLUGIN.tiebreak_scores(s2) == [4, 6]
