"""Der Orden: the play loop and deck tools under the balance harness (bench/orden/harness.py).

One game through the simulator's loop (``play``), the engine's time per game
(``engine_time``), the deck search's mutation step (``mutate``) and a deck in words (``describe``).
No command of its own: ``bench/run.py orden report`` runs these as parts of the report.
"""
from __future__ import annotations

import time

from bench.sim.simulate import playout
from games.orden import decks as D
from games.orden.catalog import cardset
from games.orden.engine import ENGINE
from games.orden.roster import BOTS
from games.orden.schema import PATH_RANKS, RANKS
from games.rng import Rng

PATHS = ("schwert", "hammer", "buch")
CAP_ROUNDS = 300


def play(decks, seed, bots, stats=None):
    """One game; ``decks``/``bots`` per seat. Returns the winner's seat (None: cap reached). The
    play loop is the simulator's (``bench/sim/simulate.py``'s ``playout``); the turns counted here are
    Der Orden's main-phase turns."""
    n = len(decks)
    st = ENGINE.setup(n, {}, seed, [{"deck": d} for d in decks])
    count = stats is not None and "decisions" in stats

    def count_turn(st, seat, k):
        stats["turns"] += st["phase"] == "main" and st["t"]["plays"] == st["t"]["acts"] == 0 \
            and seat == st["cur"] and not st["t"]["once"]

    res = playout(ENGINE, st, [BOTS[b] for b in bots], Rng(seed * 7919 + 17),
                  stop=lambda st: st["round"] > CAP_ROUNDS, observe=count_turn if count else None)
    st = res.state
    if stats is not None:
        if count:  # a decision: a step with a real choice (two or more legal actions), any seat
            stats["decisions"] += res.decisions
        stats["rounds"].append(st["round"])
        stats["engine_s"] += res.engine_s
        stats["start"].append(st["start"])
    if st["result"] is None:
        return None
    return next(x["seat"] for x in st["result"]["placements"] if x["place"] == 1)


def new_stats(decisions=False):
    st = {"rounds": [], "engine_s": 0.0, "start": []}
    if decisions:
        st.update(decisions=0, turns=0)
    return st


def heuristic_game(players, seed, g):
    """One game of the heuristic bot on every seat, the starters rotating by ``g``:
    (decks, [[seat, action], ...]) up to the end or the round cap."""
    decks = [f"starter:{PATHS[(g + i) % 3]}" for i in range(players)]
    st = ENGINE.setup(players, {}, seed, [{"deck": d} for d in decks])
    rng = Rng(seed * 7919 + 17)
    acts = []
    while st["result"] is None and st["round"] <= CAP_ROUNDS:
        seat = ENGINE.to_move(st)[0]
        action = BOTS["heuristic"](st, seat, rng)
        acts.append([seat, action])
        st = ENGINE.apply(st, seat, action).state
    return decks, acts


def engine_time(games, reps, seed0=1, players=4):
    """Engine time per game without the bots: play ``games`` heuristic games (starters in
    rotation), then replay their actions (setup + every apply) ``reps`` times. The minimum over
    the replays is the figure least disturbed by other work on a shared machine."""
    recorded = [(seed0 + g, *heuristic_game(players, seed0 + g, g)) for g in range(games)]
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        for seed, decks, acts in recorded:
            st = ENGINE.setup(players, {}, seed, [{"deck": d} for d in decks])
            for seat, action in acts:
                st = ENGINE.apply(st, seat, action).state
        times.append((time.process_time() - t0) / games * 1000)
    times.sort()
    n_act = sum(len(a) for _, _, a in recorded) / games
    out = {"players": players, "games": games, "reps": reps, "actions_per_game": n_act,
           "ms_min": times[0], "ms_median": times[len(times) // 2]}
    print(f"{players} players, {games} games x {reps} replays: engine (setup + apply) {times[0]:.1f} ms/game min, "
          f"{times[len(times) // 2]:.1f} median; {n_act:.0f} actions/game", flush=True)
    return out


# -- deck search ----------------------------------------------------------------------------

def pool():
    cs = cardset().cards
    return {no: c.count for no, c in cs.items() if c.kind == "deck" and c.in_version(D.CURRENT)}


def rank_versions():
    cs = cardset().cards.values()
    return {r: sorted(c.no for c in cs if c.kind == "rank" and c.rank == r and c.in_version(D.CURRENT)) for r in RANKS}


def mutate(deck, rng):
    cards = list(deck["cards"])
    pfad = list(deck["pfad"])
    counts = pool()
    versions = rank_versions()
    kind = rng.below(10)
    if kind < 2:  # the Pfad: a path version, or VI+/IX+ in or out
        cs = cardset().cards
        r = rng.choice(list(PATH_RANKS) + ["IX+"])
        labels = [cs[no].rank for no in pfad]
        if r in labels and r in ("VI+", "IX+") and rng.below(2):
            pfad.pop(labels.index(r))
        else:
            new = rng.choice(versions[r])
            if r in labels:
                pfad[labels.index(r)] = new
            else:
                pfad.append(new)
                pfad.sort(key=lambda no: cs[no].rank_value)
    else:
        for _ in range(1 + rng.below(3)):
            op = rng.below(3)
            if (op == 0 and len(cards) > 30) or len(cards) >= 60:
                cards.pop(rng.below(len(cards)))
            else:
                free = [no for no in counts if D.may_add(cards, no)]
                if op == 2 and len(cards) > 30:
                    cards.pop(rng.below(len(cards)))
                cards.append(rng.choice(free))
    return D.validate({"pfad": pfad, "cards": cards})


def describe(deck):
    cs = cardset().cards
    names = {}
    for no in deck["cards"]:
        names[cs[no].name.de] = names.get(cs[no].name.de, 0) + 1
    pfad = " ".join(f"{cs[no].name.de}" for no in deck["pfad"])
    return f"Pfad: {pfad}; {len(deck['cards'])} cards: " + ", ".join(
        f"{n}×{k}" if n > 1 else k for k, n in sorted(names.items()))
