"""Goofspiel's rules (docs/games/goofspiel.md): simultaneous sealed bids, the reveal, ties, the
end; what each seat sees of a bid before the reveal; the bots' ladder."""
from __future__ import annotations

import pytest

from games.base import IllegalAction
from games.goofspiel import PLUGIN
from games.goofspiel.bots import BOTS
from games.rng import Rng

pytestmark = pytest.mark.pure
E = PLUGIN.engine


def game(players=3, cards=5, ties="discard", seed=1):
    return E.setup(players, {"cards": cards, "ties": ties}, seed, [{}] * players)


def bid(state, seat, card):
    return E.apply(state, seat, {"type": "bid", "card": card})


def test_everyone_bids_at_once_and_a_bid_is_sealed():
    s = game()
    assert E.to_move(s) == [0, 1, 2]
    step = bid(s, 1, 4)
    assert step.reveals  # sealed: never taken back
    s = step.state
    assert E.to_move(s) == [0, 2] and E.legal_actions(s, 1) == []
    with pytest.raises(IllegalAction) as err:
        bid(s, 1, 3)  # no second thoughts
    assert "already" in err.value.reason and err.value.reason_de
    # Nothing of the card reaches the others: view, events, log lines, the API's action.
    for viewer in (None, 0, 2):
        assert E.view(s, viewer)["my_bid"] is None and E.view(s, viewer)["hands"][1] == [1, 2, 3, 4, 5]
        assert PLUGIN.public_action({"type": "bid", "card": 4}, 1, viewer) == {"type": "bid"}
    assert E.view(s, 1)["my_bid"] == 4 and E.view(s, 0)["bid_placed"] == [False, True, False]
    public = [e for e in step.events if "to" not in e]
    assert public == [{"type": "bid_placed", "seat": 1}]
    assert PLUGIN.describe(public[0], ["A", "B", "C"], "en") == "B places a bid face down."


def test_the_last_bid_reveals_all_and_the_highest_takes_the_prize():
    s = game()
    prize = s["pot"][0]
    s = bid(bid(s, 0, 2).state, 1, 5).state
    step = bid(s, 2, 3)
    reveal = next(e for e in step.events if e["type"] == "reveal")
    assert reveal["bids"] == [2, 5, 3] and reveal["winner"] == 1 and reveal["pot"] == [prize]
    s = step.state
    assert s["won"][1] == [prize] and s["hands"] == [[1, 3, 4, 5], [1, 2, 3, 4], [1, 2, 4, 5]]
    assert E.to_move(s) == [0, 1, 2] and s["round"] == 2 and len(s["pot"]) == 1
    line = PLUGIN.describe(reveal, ["A", "B", "C"], "de")
    assert line == f"Gebote um {prize}: A 2, B 5, C 3. B nimmt {prize} Punkte."


@pytest.mark.parametrize("ties", ["discard", "carry"])
def test_equal_highest_bids(ties):
    s = game(players=2, ties=ties)
    first, second = s["pot"][0], s["prizes"][0]
    s = bid(bid(s, 0, 5).state, 1, 5).state
    assert s["won"] == [[], []]
    assert s["pot"] == ([first, second] if ties == "carry" else [second])
    s = bid(bid(s, 0, 4).state, 1, 1).state
    assert s["won"][0] == ([first, second] if ties == "carry" else [second])


def test_the_game_ends_after_the_last_prize_and_places_by_points():
    s = game(players=2)
    for card in range(1, 6):
        s = bid(bid(s, 0, card).state, 1, 6 - card).state
    assert E.to_move(s) == [] and E.view(s, None)["finished"]
    out = E.outcome(s)
    scores = [sum(w) for w in s["won"]]
    assert [p["score"] for p in out["placements"]] == scores
    assert sum(scores) <= 15


def test_the_form_posts_a_card():
    assert PLUGIN.action_from_form({"card": "7"}) == {"type": "bid", "card": 7}
    for bad in ({}, {"card": "x"}, {"card": "-1"}, {"card": "123"}):
        with pytest.raises(IllegalAction):
            PLUGIN.action_from_form(bad)


def ladder(games: int = 400, cards: int = 13) -> dict:
    """Two-player matches between the bots, seats alternating: {(a, b): [a wins, b wins, ties]}."""
    out = {}
    for a, b in (("heuristic", "random"), ("strong", "random"), ("strong", "heuristic")):
        tally = [0, 0, 0]
        for g in range(games):
            pair = (a, b) if g % 2 == 0 else (b, a)
            s, rng = E.setup(2, {"cards": cards, "ties": "discard"}, g, [{}, {}]), Rng(g)
            while E.to_move(s):
                for seat in E.to_move(s):
                    s = E.apply(s, seat, BOTS[pair[seat]](s, seat, rng)).state
            sc = E.scores(s)
            mine = 0 if g % 2 == 0 else 1
            tally[0 if sc[mine] > sc[1 - mine] else 1 if sc[mine] < sc[1 - mine] else 2] += 1
        out[(a, b)] = tally
    return out


def test_the_bots_ladder_random_below_heuristic_below_strong():
    result = ladder(games=40)
    for pair, (wins, losses, _) in result.items():
        assert wins > losses, (pair, result)


if __name__ == "__main__":  # the figures in docs/games/goofspiel.md
    print(ladder())
