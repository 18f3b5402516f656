"""Der Orden: the balance report — what players will find, measured against the balance goals.

    bench/run.py orden report --quick                  # a minute or two on 2 cores
    bench/run.py orden report                          # the full report (docs/games/orden.md, "Balance")
    bench/run.py orden report --only search,verify     # parts: starters, search, verify, known, ranks, table, engine
    bench/run.py orden report --only table --counts 3,4 # the table at some player counts only
    bench/run.py orden report --only starters,verify,ranks --finds walks  # a data change against earlier finds
    bench/run.py orden report --json out.json          # every figure as JSON as well

Every deck is piloted by the ``lookahead`` bot (``--pilot``; the ``heuristic`` bot loses ~90 % to it,
so it measures a weak player). Two-player comparisons are *paired*: each seed is played twice, the
deck under test once at each seat, with the same shuffles and the same start seat, so neither deck
profits from the start player and two candidates screened on the same seeds meet the same luck.

Parts (each printed as it ends, a goal check at the end):
- ``starters``: the three starters round robin; the best (highest mean) is the search's opponent.
- ``search``: a deck search from many starts, not one hill-climb: the starters, each starter without
  VI+ / IX+ / both, random walks of ``play.mutate`` steps from each starter, thinned decks,
  random legal decks of the base set and the decks earlier searches found (``KNOWN``). All are
  *screened* on common seeds against the best starter (``--screen`` paired seeds each); the better half
  gets as many fresh common seeds again (successive halving); then ``--climb`` rounds mutate the leaders
  (``--children`` each), screened on the same seeds.
- ``verify``: the ``--top`` best finds, each against every starter on fresh seeds (``--verify`` games per
  starter, ≥ 400 in the full run). Goal: none wins > 60 % against the best starter. Without a search, the
  decks ``--finds`` names (``walks``: ``FINDS``; or labels of ``known()``), by default the starters without IX+.
- ``known``: every named find of earlier searches (``KNOWN``, ``KNOWN_DECKS``) against the best starter on fresh
  seeds (``--verify`` games each): the search screens them on a few games only. Same goal.
- ``ranks``: each starter with VI+ (IX+) dropped against the same starter keeping it (``--ranks`` games).
  Goal: 40–60 %.
- ``table``: 2, 3 and 4 player games of the starters rotating over the seats (``--table`` games each):
  each path's share of the wins against its fair share (goal ±4 points), the start player's win share
  (goal ±5 points of fair), decisions per turn (a step of any seat with two or more legal actions,
  per player turn; goal ≥ 5) and options per decision.
- ``engine``: engine time of a 4-player game (setup + every apply, recorded heuristic games replayed;
  ``play.engine_time``; goal ≤ 30 ms). Say the load (``uptime``) with the figure.

The bots' strength against each other is the game simulator's ladder: ``bench/run.py simulate orden``.

At most 2 worker processes (``--procs``; the machine has 2 shared cores). Figures are shares of the
games that ended (the 300-round cap is reported, never reached so far).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import time
from pathlib import Path
from typing import NamedTuple

from bench.orden.play import PATHS, describe, engine_time, mutate, pool, rank_versions
from bench.sim.simulate import playout, seed_ci95
from games.orden import decks as D
from games.orden.catalog import cardset
from games.orden.engine import ENGINE
from games.orden.roster import BOTS
from games.rng import Rng

CAP_ROUNDS = 300
PARTS = ("starters", "search", "verify", "known", "ranks", "table", "engine")

# --quick: the card designer's loop (~1–2 min on 2 cores); full: the report's figures
QUICK = dict(games=4, screen=2, climb=1, children=1, randoms=0, top=1, verify=4, verify_others=4, ranks=4,
             table=3, engine_games=2, reps=2)
FULL = dict(games=100, screen=8, climb=2, children=4, randoms=6, top=2, verify=400, verify_others=400, ranks=200,
            table=150, engine_games=20, reps=7)


# -- one game (runs in a worker) -------------------------------------------------------------

def play_game(task):
    """``task``: decks (per seat), seed, pilots (per seat). Returns the winner's seat (None: cap),
    the start seat and what the game's decisions looked like. The play loop is the simulator's
    (``bench/sim/simulate.py``'s ``playout``); a turn here is Der Orden's own (a main-phase turn of the
    current seat), not the simulator's run of one seat's actions."""
    decks, seed, pilots = task["decks"], task["seed"], task["pilots"]
    n = len(decks)
    st = ENGINE.setup(n, {}, seed, [{"deck": d} for d in decks])
    turns = 0

    def count_turn(st, seat, k):
        nonlocal turns
        t = st["t"]
        turns += st["phase"] == "main" and t["plays"] == t["acts"] == 0 and seat == st["cur"] and not t["once"] \
            and st["res"] is None

    res = playout(ENGINE, st, [BOTS[p] for p in pilots], Rng(seed * 7919 + 17),
                  stop=lambda st: st["round"] > CAP_ROUNDS, observe=count_turn)
    st = res.state
    winner = None
    if st["result"] is not None:
        winner = next(x["seat"] for x in st["result"]["placements"] if x["place"] == 1)
    return {"winner": winner, "start": st["start"], "n": n, "rounds": st["round"], "decisions": res.decisions,
            "options": res.options, "turns": turns, "engine_s": res.engine_s, "cpu_s": res.cpu_s}


class Runner:
    """Plays lists of games in at most ``procs`` processes; results come back in task order."""

    def __init__(self, procs, pilot):
        self.procs, self.pilot, self.games, self.pool = max(1, min(procs, 2)), pilot, 0, None
        if self.procs > 1:
            import multiprocessing as mp
            self.pool = mp.get_context("fork").Pool(self.procs)

    def run(self, tasks):
        self.games += len(tasks)
        if self.pool is None:
            res = [play_game(t) for t in tasks]
        else:
            res = self.pool.map(play_game, tasks, chunksize=1)
        for t, r in zip(tasks, res):
            if r["winner"] is None:  # replay it: bench/run.py orden stalls (--first, and --known or --players)
                print(f"  not ended by round {CAP_ROUNDS}: " + unended(t), flush=True)
        return res

    def close(self):
        if self.pool is not None:
            self.pool.close()
            self.pool.join()

    # paired two-player games: every seed twice, A at seat 0 and at seat 1 (``pilots``: A's and B's, by default
    # the runner's for both)
    def pair_tasks(self, a, b, seeds, pilots=None):
        pa, pb = pilots or (self.pilot, self.pilot)
        out = []
        for seed in seeds:
            out.append({"decks": [a, b], "seed": seed, "pilots": [pa, pb], "a_seat": 0})
            out.append({"decks": [b, a], "seed": seed, "pilots": [pb, pa], "a_seat": 1})
        return out

    def pairings(self, jobs, pilots=None):
        """``jobs``: [(deck_a, deck_b, seeds)] → [Pairing] (all games in one batch); ``pilots``: A's and B's."""
        tasks, spans = [], []
        for a, b, seeds in jobs:
            ts = self.pair_tasks(a, b, seeds, pilots)
            spans.append((len(tasks), len(tasks) + len(ts)))
            tasks += ts
        res = self.run(tasks)
        return [paired_share(tasks[i:j], res[i:j]) for i, j in spans]


def unended(task) -> str:
    """What ``orden stalls`` needs to replay a game that hit the cap."""
    where = f"seats {'/'.join(task['paths'])}" if "paths" in task else f"deck A at seat {task.get('a_seat')}"
    decks = [d if isinstance(d, str) else describe(d) for d in task["decks"]]
    return f"seed {task['seed']}, {where}; decks: " + " | ".join(decks)


def seeds(base, games):
    """Seeds for ``games`` paired games (two per seed)."""
    return list(range(base, base + max(1, games // 2)))


class Pairing(NamedTuple):
    """Deck A's wins among the games that ended, and the 95 % half-width in points over seeds."""
    wins: int
    ended: int
    ci: float


def paired_share(tasks, results) -> Pairing:
    """Deck A's wins over paired games (``pair_tasks``), the interval over seeds."""
    per_seed = {}  # seed -> [A's wins, games ended]
    for t, r in zip(tasks, results):
        if r["winner"] is not None:
            s = per_seed.setdefault(t["seed"], [0, 0])
            s[0] += r["winner"] == t["a_seat"]
            s[1] += 1
    return Pairing(sum(w for w, _ in per_seed.values()), sum(e for _, e in per_seed.values()),
                   seed_ci95([w / e for w, e in per_seed.values()]))


# seed_ci95: each seed counts once. The two games of a seed share its deal, and with the lookahead
# pilot the deal decides much: measured on version 4, Buch's share against the other starters was
# 52 % on seeds 1000–1039 and 38.5 % on seeds 1–50 (160 and 200 games), so ``ci95`` over games
# understates the error. The simulator's function (bench/sim/simulate.py).


def ci95(wins, n):
    """Half-width of a 95 % interval of a share (normal approximation), in points."""
    if not n:
        return 0.0
    p = wins / n
    return 196 * math.sqrt(max(p * (1 - p), 0.25 / n) / n)


# -- parts ------------------------------------------------------------------------------------

def part_starters(run, games, seed0):
    out = {}
    score = {p: [] for p in PATHS}
    jobs = [(f"starter:{a}", f"starter:{b}", seeds(seed0, games)) for i, a in enumerate(PATHS) for b in PATHS[i + 1:]]
    names = [(a, b) for i, a in enumerate(PATHS) for b in PATHS[i + 1:]]
    for (a, b), (w, e, ci) in zip(names, run.pairings(jobs)):
        r = w / max(e, 1)
        out[f"{a}-{b}"] = {"a_wins": r, "ended": e, "ci95": ci, "ci95_games": ci95(w, e)}
        score[a].append(r)
        score[b].append(1 - r)
        print(f"starter {a} vs {b}: {r * 100:.1f}% ±{ci:.1f} over seeds ({e} games)", flush=True)
    best = max(PATHS, key=lambda p: sum(score[p]))
    out["best"] = f"starter:{best}"
    out["mean"] = {p: sum(v) / len(v) for p, v in score.items()}
    print(f"best starter: {best} (mean " + ", ".join(f"{p} {v * 100:.1f}%" for p, v in out["mean"].items()) + ")",
          flush=True)
    return out


def key(deck):
    return (tuple(deck["pfad"]), tuple(sorted(deck["cards"])))


def drop(deck, labels):
    cs = cardset().cards
    return D.validate({"pfad": [no for no in deck["pfad"] if cs[no].rank not in labels], "cards": list(deck["cards"])})


def random_deck(rng):
    """A random legal deck: a path's Pfad (VI+ / IX+ by lot, any path version per rank), 30–50 cards
    drawn from the base set, half of them from the path's own and the Orden's cards."""
    cs = cardset().cards
    path = rng.choice(PATHS)
    versions = rank_versions()
    pfad = []
    for r, nos in sorted(versions.items(), key=lambda kv: cs[kv[1][0]].rank_value):
        if r in ("VI+", "IX+") and rng.below(2):
            continue
        own = [no for no in nos if cs[no].path in (None, path)]
        pfad.append(rng.choice(own if own and rng.below(4) else nos))
    counts = pool()
    size = 30 + rng.below(21)
    start = D.starter(path)["cards"]
    cards = []
    while len(cards) < size:
        no = rng.choice(start) if rng.below(2) else rng.choice(list(counts))
        if D.may_add(cards, no):
            cards.append(no)
    return D.validate({"pfad": pfad, "cards": cards})


def thinned(deck, rng, size):
    cards = list(deck["cards"])
    while len(cards) > size:
        cards.pop(rng.below(len(cards)))
    return D.validate({"pfad": list(deck["pfad"]), "cards": cards})


def edited(path, edits, deck=None):
    """A starter (or ``deck``) with comma-separated edits: ``-IX+`` / ``-VI+`` drop an optional rank, ``-NAME``
    takes one card of that name out, ``+NAME`` puts one (current version) in, ``OLD=NEW`` puts the rank card
    NEW in OLD's place."""
    deck = deck or D.starter(path)
    pfad, cards, ranks = list(deck["pfad"]), list(deck["cards"]), []
    for e in filter(None, (x.strip() for x in edits.split(","))):
        sign, name = e[0], e[1:]
        if "=" in e:
            old, new = e.split("=", 1)
            pfad[pfad.index(D.current_no(old))] = D.current_no(new)
        elif sign == "-" and name in ("VI+", "IX+"):
            ranks.append(name)
        elif sign == "-":
            cards.remove(D.current_no(name))
        elif sign == "+":
            cards.append(D.current_no(name))
        else:
            raise ValueError(f"an edit starts with + or - or holds =: {e!r}")
    return drop({"pfad": pfad, "cards": cards}, tuple(ranks))


def starter_48(path):
    """The 48-card starter of data versions 3-13 (decks.STARTER_CARDS) in current card numbers: what
    KNOWN's edits were written against (version 14's starters are lean, 38 cards)."""
    return {"pfad": D.starter(path)["pfad"], "cards": sorted(D._cards(D.STARTER_CARDS[path]))}


def hammer_with(rank_v):
    """The walks the search found on data version 8: the Hammer starter with another path's rank V in the
    Pfad instead of Geselle, Der Zehnt out, a third Treueschwur and Triumvirat in (49 cards; of the 48-card
    starter)."""
    base = starter_48("hammer")
    pfad = [D.current_no(rank_v) if n == D.current_no("Geselle") else n for n in base["pfad"]]
    cards = list(base["cards"])
    cards.remove(D.current_no("Der Zehnt"))
    cards += [D.current_no("Treueschwur"), D.current_no("Triumvirat")]
    return {**base, "pfad": pfad, "cards": cards}


# --finds walks: verified when a data change is checked against earlier finds without a search
FINDS = {"walk:hammer:3 (Lehrer at V)": lambda: hammer_with("Lehrer"),
         "walk:hammer:3+m13 (Ritter at V)": lambda: hammer_with("Ritter")}


def named_finds(names):
    """``--finds``: ``walks`` (FINDS) and labels of ``known()``, comma-separated → [(label, deck)]."""
    out, have = [], dict(known())
    for name in filter(None, (n.strip() for n in names.split(","))):
        if name == "walks":
            out += [(label, make()) for label, make in FINDS.items()]
        elif name in have or f"known:{name}" in have:
            label = name if name in have else f"known:{name}"
            out.append((label, have[label]))
        else:
            raise SystemExit(f"--finds: no find {name!r} (walks, or one of: {', '.join(have)})")
    return out


# Decks earlier searches found (docs/games/orden.md): players share deck lists, so the search starts
# from them as well; (path, edits of its 48-card starter). One that the current card data no longer allows
# (a count, a card gone) is left out.
KNOWN = (("buch", "-VI+,-Bibliothekarin Berta,-Magister Gregor,+Treueschwur,+Auftrag"),  # v8
         ("hammer", "-Silberling,-Einspruch,+Klosterburg,+Bestechung"),  # two BURGs: none since v9
         ("hammer", "-VI+,-IX+,+Das Fundament,+Zoll"),  # v8; two Fundaments: none since v12
         ("buch", "-VI+,-Bibliothekarin Berta,-Magister Gregor,-Disputation,-Studium,+Treueschwur,+Auftrag,"
                  "+Erlösung"),  # v9: 66.5 % against Hammer; v10: 60.8 ; v11: 58.2
         ("hammer", "-IX+,+Das Fundament,+Zoll"))  # v11: 61.0 % against Hammer; none since v12


# Finds that are no starter's edit, by card names (numbers change with data versions): (label, Pfad, cards).
_THIN_GRACE = {"Das Versprechen": 1, "Gehorsam": 2, "Treueschwur": 1, "Der Beginn des Weges": 2, "Eifer": 1,
               "Mächtige Statur": 1, "Silberling": 1, "Zoll": 1, "Burg Eisenfels": 1, "Mysterium des Lichts": 1,
               "Mysterium der Flamme": 1, "Gebet": 1, "Vision": 1, "Gnade": 2, "Wachsamkeit": 2, "Ordensregel": 1,
               "Talent": 2, "Zunftmeister Konrad": 1, "Goldbarren": 1, "Werkzeug": 1, "Auftrag": 1,
               "Das Fundament": 1, "Schriftrolle": 2, "Zunftbrief": 2, "Bestechung": 1}
KNOWN_DECKS = (
    ("thin-grace", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Lehrling", "Lehrer", "Schmied", "Meister",
                    "Hochmeister", "Erzmeister", "Großmeister", "Seliger"],
     _THIN_GRACE),  # v12: 74.5-75.8 % against every starter
    ("thin-grace-geselle", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Lehrling", "Geselle", "Schmied",
                            "Meister", "Hochmeister", "Erzmeister", "Großmeister", "Seliger"],
     _THIN_GRACE),  # variant (Geselle for Lehrer), v12: 84.5 % against Schwert (200 games)
    ("thin-hammer", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Lehrling", "Geselle", "Schmied", "Meister",
                     "Hochmeister", "Erzmeister", "Großmeister", "Seliger"],
     {**_THIN_GRACE, "Erlösung": 1, "Morgenandacht": 1, "Mysterium der Flamme": 2}),  # v13: 71.0 / 73.8
    # / 67.0 % against Schwert / Hammer / Buch (400 fresh games each); the search's thin-grace-geselle+m00
    ("lean-hammer-t", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Lehrling", "Geselle", "Schmied", "Komtur",
                       "Meister", "Hochmeister", "Erzmeister", "Seliger"],
     {**D.STARTER_CARDS_V14["hammer"], "Treueschwur": 3, "Triumvirat": 1, "Zoll": 1, "Vision": 1}),  # v14:
    # 70.5 / 75.8 / 70.0 % (400 fresh games each); the lean Hammer starter without IX+, with T back
    ("lean-schwert-m", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Knappe", "Ritter", "Freiherr", "Herzog",
                        "Meister", "Hochmeister", "Erzmeister", "Seliger"],
     D._with(D._without(D.STARTER_CARDS_V15["schwert"], {"Eifer": 1}), {"Morgenandacht": 1})),  # v15: 54.0 /
    # 57.8 / 45.8 % against Schwert / Hammer / Buch (400 fresh games each); the v15 Schwert starter without IX+
    ("lean-hammer-gold", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Lehrling", "Geselle", "Schmied", "Komtur",
                          "Meister", "Hochmeister", "Erzmeister", "Seliger"],
     D._with(D._without(D.STARTER_CARDS_V17["hammer"], {"Das Versprechen": 1, "Vision": 1, "Gehorsam": 1, "Werkzeug": 2}),
             {"Goldbarren": 1, "Triumvirat": 1, "Zoll": 1})),  # lean-hammer-t+m03+m13 (v18's search): 64.5 %
    # against version 17's Hammer starter (200 games); the v17 Hammer starter without IX+, a fourth Goldbarren, no Werkzeug
    ("thin-hammer-33", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Lehrling", "Geselle", "Schmied", "Komtur",
                        "Meister", "Hochmeister", "Erzmeister", "Seliger"],
     D._without(D.STARTER_CARDS_V21["hammer"], {"Gehorsam": 1, "Silberling": 1, "Mysterium der Flamme": 1,
                                                "Ordensregel": 1, "Meisterin Hedwig": 1, "Goldbarren": 1,
                                                "Werkzeug": 1, "Auftrag": 1})),  # thin:hammer+m02 (v22's
    # search, --seed 53): 63.7 / 72.2 / 72.5 % against Schwert / Hammer / Buch (400 fresh games each); the v21 Hammer
    # starter without IX+ and eight cards (33)
    ("hammer-vi-werkzeug", ["Vor den Mauern", "Adept", "Novize", "Anwärter", "Lehrling", "Geselle", "Schmied", "Meister",
                            "Hochmeister", "Erzmeister", "Großmeister", "Seliger"],
     D._with(D._without(D.STARTER_CARDS_V23["hammer"], {"Einspruch": 1, "Der Beginn des Weges": 1}),
             {"Werkzeug": 1})),  # starter:hammer-VI++m02+m13 (v23's search, --seed 55): 58.0 / 56.0 / 54.2 %
    # against Schwert / Hammer / Buch (200 / 200 / 400 fresh games); the v23 Hammer starter without VI+ (34 cards)
)


def known_deck(pfad, counts):
    # decks._cards: the starters' own name-counts -> card numbers of the current version
    return D.validate({"pfad": [D.current_no(n) for n in pfad], "cards": D._cards(counts)})


def known_edited(label, edits):
    """A named find (KNOWN_DECKS) with ``edited``'s edits."""
    pfad, counts = next((p, c) for lab, p, c in KNOWN_DECKS if lab == label)
    return edited(None, edits, known_deck(pfad, counts))


def known():
    """The known finds the current card data allows (one it no longer allows is left out)."""
    builders = [(f"known:{path}:{edits}", lambda p=path, e=edits: edited(p, e, starter_48(p))) for path, edits in KNOWN]
    builders += [(f"known:{label}", lambda p=pfad, c=counts: known_deck(p, c)) for label, pfad, counts in KNOWN_DECKS]
    out = []
    for label, build in builders:
        try:
            out.append((label, build()))
        except (ValueError, StopIteration, D.DeckError):
            continue
    return out


def starts(rng, randoms):
    """The search's many starts (label, deck): the starters and their variants, walks, thinned and
    random decks, and the known finds."""
    out = list(known())
    for p in PATHS:
        base = D.starter(p)
        out.append((f"starter:{p}", base))
        for labels in (("VI+",), ("IX+",), ("VI+", "IX+")):
            out.append((f"starter:{p}-" + "-".join(labels), drop(base, labels)))
        for k in range(randoms):
            d = base
            for _ in range(3 + rng.below(10)):
                d = mutate(d, rng)
            out.append((f"walk:{p}:{k}", d))
        # thinned starters: without IX+ by 2-6 and 6-10 cards, with it by 2-6 (thin-hammer-33 was the first kind)
        for k, ranks, cut in ((0, ("IX+",), 2), (1, (), 2), (2, ("IX+",), 6)):
            d = drop(base, ranks)
            out.append((f"thin:{p}" + (f":{k}" if k else ""), thinned(d, rng, len(d["cards"]) - cut - rng.below(5))))
    for k in range(randoms):
        out.append((f"random:{k}", random_deck(rng)))
    seen, uniq = set(), []
    for label, d in out:
        if key(d) not in seen:
            seen.add(key(d))
            uniq.append((label, d))
    return uniq


def part_search(run, opp, screen, climb, children, randoms, seed0):
    """Screen many starts on common seeds, halve, climb from the leaders; returns the ranking."""
    rng = Rng(seed0)
    opp_deck = D.resolve(opp)
    score = {}  # key → [wins, ended, label, deck]
    next_seed = [seed0 * 1000]

    def screen_round(cands, games):
        ss = seeds(next_seed[0], games)
        next_seed[0] += len(ss)
        todo = [(label, d) for label, d in cands]
        res = run.pairings([(d, opp_deck, ss) for _, d in todo])
        for (label, d), (w, e, _) in zip(todo, res):
            s = score.setdefault(key(d), [0, 0, label, d, 0])  # wins, ended, label, deck, rounds
            s[0] += w
            s[1] += e
            s[4] += 1

    def ranking():
        return sorted(score.values(), key=lambda s: (-(s[0] / max(s[1], 1)), s[2]))

    cands = starts(rng, randoms)
    screen_round(cands, screen)
    print(f"search: {len(cands)} starts screened ({screen} paired games each vs {opp})", flush=True)
    half = ranking()[:max(2, len(cands) // 2)]
    screen_round([(s[2], s[3]) for s in half], screen)
    for r in range(climb):
        leaders = [s for s in ranking() if s[4] >= 2][:max(2, len(cands) // 8)]
        kids = []
        for s in leaders:
            for c in range(children):
                d = mutate(s[3], rng)
                if key(d) not in score and key(d) not in {key(k[1]) for k in kids}:
                    kids.append((f"{s[2]}+m{r}{c}", d))
        # kids and their parents on the same fresh seeds: a child meets its parent's luck
        screen_round(kids + [(s[2], s[3]) for s in leaders], screen)
        best_kids = sorted(kids, key=lambda kd: -score[key(kd[1])][0] / max(score[key(kd[1])][1], 1))
        screen_round(best_kids[:max(1, len(kids) // 2)], screen)  # the better half: a second look
        print(f"search climb {r + 1}: {len(kids)} children of {len(leaders)} leaders", flush=True)
    rank = ranking()
    for s in rank[:5]:
        print(f"  screened {s[0] / max(s[1], 1) * 100:5.1f}% over {s[1]:3d} games: {s[2]}", flush=True)
    return rank, len(score)


def part_verify(run, finds, games, seed0, best=None, others=None):
    """Each find against every starter on fresh seeds (``games`` against the best starter,
    ``others`` against the other two)."""
    out = []
    n = {p: games if others is None or f"starter:{p}" == best else others for p in PATHS}
    jobs = [(d, f"starter:{p}", seeds(seed0, n[p])) for _, d in finds for p in PATHS]
    res = iter(run.pairings(jobs))
    for label, d in finds:
        row = {"label": label, "deck": d, "describe": describe(d), "vs": {}}
        for p in PATHS:
            w, e, ci = next(res)
            row["vs"][p] = {"wins": w / max(e, 1), "ended": e, "ci95": ci, "ci95_games": ci95(w, e)}
        out.append(row)
        print(f"find {label}: " + ", ".join(f"vs {p} {v['wins'] * 100:.1f}% ±{v['ci95']:.1f} ({v['ended']})"
                                            for p, v in row["vs"].items()), flush=True)
        print(f"  {row['describe']}", flush=True)
    return out


def part_known(run, games, seed0, best):
    """Every named find of earlier searches (``known()``) against the best starter on fresh seeds. The search
    starts from them but screens each on a few games, where a find that wins 65 % can drop out on noise
    (lean-hammer-gold did)."""
    finds = known()
    res = run.pairings([(d, best, seeds(seed0, games)) for _, d in finds])
    out = []
    for (label, d), (w, e, ci) in zip(finds, res):
        out.append({"label": label, "describe": describe(d), "wins": w / max(e, 1), "ended": e, "ci95": ci})
        print(f"known {label} vs {best}: {w / max(e, 1) * 100:.1f}% ±{ci:.1f} ({e})", flush=True)
    return out


def part_ranks(run, games, seed0):
    out = {}
    names, jobs = [], []
    for p in PATHS:
        full = D.starter(p)
        for label in ("VI+", "IX+"):
            names.append(f"{p}-{label}")
            jobs.append((drop(full, (label,)), full, seeds(seed0, games)))
    for name, (w, e, ci) in zip(names, run.pairings(jobs)):
        out[name] = {"dropped_wins": w / max(e, 1), "ended": e, "ci95": ci, "ci95_games": ci95(w, e)}
        p, label = name.split("-", 1)
        print(f"starter:{p} without {label} vs with it: {w / max(e, 1) * 100:.1f}% ±{ci:.1f} over seeds ({e} games)",
              flush=True)
    return out


TABLE_SEED0 = 3 * 10 ** 6  # + --seed: the table's first game


def table_task(n, g, seed0, pilot, decks=None):
    """Table game ``g`` for ``n`` players: the starters rotating over the seats (``orden stalls`` replays it).
    ``decks``: path → deck for a path whose deck is not its starter (``orden compare``'s table spec)."""
    ps = [PATHS[(g + i) % 3] for i in range(n)]
    decks = decks or {}
    return {"decks": [decks.get(p, f"starter:{p}") for p in ps], "seed": seed0 + g, "pilots": [pilot] * n,
            "paths": ps}


def part_table(run, games, seed0, counts=(2, 3, 4), decks=None):
    """2/3/4 players, the starters rotating over the seats: path shares, start player, decisions."""
    out = {}
    for n in counts:
        tasks = [table_task(n, g, seed0, run.pilot, decks) for g in range(games)]
        res = run.run(tasks)
        wins = {p: 0 for p in PATHS}
        fair = {p: 0.0 for p in PATHS}
        ended = first = 0
        dec = opt = turns = 0
        eng = cpu = 0.0
        rounds = []
        for t, r in zip(tasks, res):
            dec += r["decisions"]
            opt += r["options"]
            turns += r["turns"]
            eng += r["engine_s"]
            cpu += r["cpu_s"]
            rounds.append(r["rounds"])
            if r["winner"] is None:
                continue
            ended += 1
            wins[t["paths"][r["winner"]]] += 1
            first += r["winner"] == r["start"]
            for p in t["paths"]:
                fair[p] += 1 / n
        row = {"paths": {p: {"share": wins[p] / max(ended, 1), "fair": fair[p] / max(ended, 1)} for p in PATHS},
               "start_share": first / max(ended, 1), "start_fair": 1 / n, "start_ci95": ci95(first, ended),
               "games": games, "ended": ended, "decisions_per_turn": dec / max(turns, 1),
               "options_per_decision": opt / max(dec, 1), "rounds_mean": sum(rounds) / len(rounds),
               "rounds_max": max(rounds), "engine_ms_per_game": eng / games * 1000,
               "cpu_s_per_game": cpu / games}
        out[n] = row
        print(f"{n} players ({ended}/{games} ended): " + ", ".join(
            f"{p} {v['share'] * 100:.1f}% (fair {v['fair'] * 100:.1f}, {(v['share'] - v['fair']) * 100:+.1f})"
            for p, v in row["paths"].items())
            + f"; start player {row['start_share'] * 100:.1f}% (fair {100 / n:.1f}) ±{row['start_ci95']:.1f}"
            + f"; {row['decisions_per_turn']:.1f} decisions/turn, {row['options_per_decision']:.1f} options/decision"
            + f"; rounds {row['rounds_mean']:.1f} (max {row['rounds_max']}); engine {row['engine_ms_per_game']:.1f} ms,"
            f" pilot+engine {row['cpu_s_per_game']:.1f} s CPU per game", flush=True)
    return out


# -- goals ------------------------------------------------------------------------------------

def goals(out):
    """[(goal, measured, met)] for what was measured."""
    rows = []
    best = out.get("starters", {}).get("best")
    if ("verify" in out or "known" in out) and best:
        bp = best.split(":")[1]
        worst = max([(f["vs"][bp]["wins"], f["label"]) for f in out.get("verify", [])] +
                    [(f["wins"], f["label"]) for f in out.get("known", [])])
        rows.append(("no found deck > 60 % vs the best starter", f"best find {worst[1]}: {worst[0] * 100:.1f}% vs {best}",
                     worst[0] <= 0.60))
    if "ranks" in out:
        for k, v in out["ranks"].items():
            r = v["dropped_wins"]
            rows.append((f"{k} dropped vs kept within 40–60 %", f"{r * 100:.1f}%", 0.40 <= r <= 0.60))
    if "table" in out:
        for n, row in out["table"].items():
            dev = max(abs(v["share"] - v["fair"]) for v in row["paths"].values())
            rows.append((f"{n}p path shares within ±4 points of fair", f"max deviation {dev * 100:.1f} points",
                         dev <= 0.04))
            d = abs(row["start_share"] - row["start_fair"])
            rows.append((f"{n}p start player within 5 points of fair",
                         f"{row['start_share'] * 100:.1f}% (fair {row['start_fair'] * 100:.1f})", d <= 0.05))
            rows.append((f"{n}p ≥ 5 decisions per turn", f"{row['decisions_per_turn']:.1f}",
                         row["decisions_per_turn"] >= 5))
    if "engine" in out:
        rows.append(("4p game ≤ 30 ms engine time", f"{out['engine']['ms_min']:.1f} ms (min of replays)",
                     out["engine"]["ms_min"] <= 30))
    return rows


def data_version():
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h", "--", "games/orden"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "games/orden"],
                               capture_output=True, text=True).stdout.strip()
    except OSError:
        head, dirty = "?", ""
    import hashlib
    h = hashlib.sha256()
    for f in sorted((root / "games/orden/cards").glob("*.json")):
        h.update(f.read_bytes())
    return {"games_orden_commit": head + ("+dirty" if dirty else ""), "cards_sha256": h.hexdigest()[:12]}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bench/run.py orden report", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small counts: a minute or two on 2 cores")
    ap.add_argument("--only", default=",".join(PARTS), help="comma-separated parts: " + ", ".join(PARTS))
    ap.add_argument("--finds", default="",
                    help="without a search, the decks verify checks: walks (earlier walks of the search) and/or "
                         "labels of the known finds, comma-separated (default: the starters without IX+)")
    ap.add_argument("--pilot", default="lookahead", choices=sorted(BOTS), help="the bot every seat plays with")
    ap.add_argument("--procs", type=int, default=2, help="worker processes (at most 2)")
    ap.add_argument("--seed", type=int, default=1)
    for k, help_ in (("games", "paired games per starter pairing"), ("screen", "paired games per screening round"),
                     ("climb", "hill-climbing rounds from the leaders"), ("children", "mutations per leader and round"),
                     ("randoms", "random walks per starter and random decks"), ("top", "finds to verify"),
                     ("verify", "fresh games per find against the best starter"),
                     ("verify-others", "fresh games per find against each other starter"), ("ranks", "games per optional rank row"),
                     ("table", "games per player count (paths, start player, decisions)"),
                     ("engine-games", "recorded 4-player games for the engine time"), ("reps", "engine replays")):
        ap.add_argument("--" + k, type=int, default=None, help=help_)
    ap.add_argument("--counts", default="2,3,4", help="player counts of the table part")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    conf = dict(QUICK if a.quick else FULL)
    for k in conf:
        v = getattr(a, k.replace("-", "_"))
        if v is not None:
            conf[k] = v
    parts = [p.strip() for p in a.only.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad:
        ap.error(f"unknown part(s) {', '.join(bad)}; choose from {', '.join(PARTS)}")
    out = {"version": data_version(), "conf": conf, "pilot": a.pilot, "load": os.getloadavg()}
    print(f"data {out['version']}, pilot {a.pilot}, {min(a.procs, 2)} process(es), {conf}", flush=True)
    t0, c0 = time.time(), time.process_time()
    run = Runner(a.procs, a.pilot)
    try:
        if {"starters", "search", "verify", "known"} & set(parts):
            out["starters"] = part_starters(run, conf["games"], a.seed)
            save(a.json, out)
        finds = []
        if "search" in parts:
            rank, n = part_search(run, out["starters"]["best"], conf["screen"], conf["climb"], conf["children"],
                                  conf["randoms"], a.seed + 7)
            out["search"] = {"candidates": n, "top": [{"label": s[2], "screened": s[0] / max(s[1], 1),
                                                       "games": s[1]} for s in rank[:10]]}
            finds = [(s[2], s[3]) for s in rank[:conf["top"]]]
            save(a.json, out)
        if "verify" in parts:
            if not finds and a.finds:
                finds = named_finds(a.finds)
            if not finds:  # without a search: the starters' weaker variants as the candidates
                finds = [(f"starter:{p}-IX+", drop(D.starter(p), ("IX+",))) for p in PATHS][:conf["top"]]
            out["verify"] = part_verify(run, finds, conf["verify"], 10 ** 6 + a.seed, out["starters"]["best"],
                                        conf["verify_others"])
            save(a.json, out)
        if "known" in parts:
            out["known"] = part_known(run, conf["verify"], 6 * 10 ** 6 + a.seed, out["starters"]["best"])
            save(a.json, out)
        if "ranks" in parts:
            out["ranks"] = part_ranks(run, conf["ranks"], 2 * 10 ** 6 + a.seed)
            save(a.json, out)
        if "table" in parts:
            out["table"] = part_table(run, conf["table"], TABLE_SEED0 + a.seed,
                                      tuple(int(n) for n in a.counts.split(",")))
            save(a.json, out)
    finally:
        run.close()
    if "engine" in parts:
        out["engine"] = engine_time(conf["engine_games"], conf["reps"], 4 * 10 ** 6 + a.seed)
    out["goals"] = [{"goal": g, "measured": m, "met": ok} for g, m, ok in goals(out)]
    print("\ngoals:")
    for g in out["goals"]:
        print(f"  [{'x' if g['met'] else ' '}] {g['goal']}: {g['measured']}")
    out["games"] = run.games
    out["wall_s"] = time.time() - t0
    print(f"{run.games} games, wall {out['wall_s']:.0f} s, main CPU {time.process_time() - c0:.0f} s, "
          f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    save(a.json, out)
    return out


def save(path, out):
    """Written after every part, so a long run's finished parts survive an interruption."""
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
