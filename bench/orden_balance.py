"""Der Orden: balance harness — bot-vs-bot tournaments over decks and a deck search.

    python bench/orden_balance.py starters --games 200        # the three starters pairwise (2 players)
    python bench/orden_balance.py startplayer --games 300     # start player's win share, 2/3/4 players
    python bench/orden_balance.py bots --games 200            # heuristic vs random, lookahead vs heuristic
    python bench/orden_balance.py limits --games 200          # starters swapped toward AUSSPIELEN+1
    python bench/orden_balance.py search --iters 12 --search-games 40 --final 200
    python bench/orden_balance.py all --games 200             # everything above (the report's numbers)
    python bench/orden_balance.py engine --games 20 --reps 7  # engine time of a 4-player game (replayed)
    python bench/orden_balance.py paths --games 120           # path win shares vs fair, 2/3/4 players; decisions per turn
    python bench/orden_balance.py ranks --games 100           # each optional rank (VI+, IX+) dropped vs kept

A pairing plays ``--games`` two-player games, seats swapped: games 2k and 2k+1 share the seed
(same shuffles, same start seat), deck A sits at seat 0 in one and at seat 1 in the other, so
neither deck profits from the start player. The deck search hill-climbs over legal decks of
the base set (``decks.validate``): a step swaps, adds or removes Nachziehstapel cards (within
the base-set counts, 30–60 cards) or changes the Pfad (the path version of IV–VI+, with or
without VI+ and IX+); a step is kept when it beats the current deck's score against the best
starter deck. The best find is then replayed over ``--final`` fresh games. One process, CPU time.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from simulate import playout  # noqa: E402

from games.orden import decks as D  # noqa: E402
from games.orden.roster import BOTS  # noqa: E402
from games.orden.catalog import cardset  # noqa: E402
from games.orden.engine import ENGINE  # noqa: E402
from games.orden.schema import PATH_RANKS, RANKS  # noqa: E402
from games.rng import Rng  # noqa: E402

PATHS = ("schwert", "hammer", "buch")
CAP_ROUNDS = 300


def play(decks, seed, bots, stats=None):
    """One game; ``decks``/``bots`` per seat. Returns the winner's seat (None: cap reached). The
    play loop is the simulator's (``bench/simulate.py``'s ``playout``); the turns counted here are
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


def paths(games, seed0=1):
    """Each path's win share against its fair share in 2, 3 and 4 player games (the starters
    in rotation over the seats, so every path sits everywhere), and decisions per turn."""
    out = {}
    for n in (2, 3, 4):
        stats = new_stats(decisions=True)
        wins = {p: 0 for p in PATHS}
        fair = {p: 0.0 for p in PATHS}
        ended = 0
        for g in range(games):
            ps = [PATHS[(g + i) % 3] for i in range(n)]
            w = play([f"starter:{p}" for p in ps], seed0 + g, ["heuristic"] * n, stats)
            if w is None:
                continue
            ended += 1
            wins[ps[w]] += 1
            for p in ps:
                fair[p] += 1 / n
        row = {p: {"share": wins[p] / max(ended, 1), "fair": fair[p] / max(ended, 1)} for p in PATHS}
        dpt = stats["decisions"] / max(stats["turns"], 1)
        out[n] = {"paths": row, "ended": ended, "games": games, "decisions_per_turn": dpt}
        print(f"{n} players ({ended}/{games} ended): " + ", ".join(
            f"{p} {row[p]['share'] * 100:.1f}% (fair {row[p]['fair'] * 100:.1f}, "
            f"{(row[p]['share'] - row[p]['fair']) * 100:+.1f})" for p in PATHS)
            + f"; decisions per turn {dpt:.1f}", flush=True)
    return out


def without_rank(deck, label):
    cs = cardset().cards
    return D.validate({"pfad": [no for no in deck["pfad"] if cs[no].rank != label], "cards": list(deck["cards"])})


def ranks(games, seed0=1):
    """Each optional rank dropped against the same starter keeping it (paired games, seats swapped)."""
    out = {}
    for p in PATHS:
        full = D.starter(p)
        for label in ("VI+", "IX+"):
            rate, ended = pairing(without_rank(full, label), full, games, seed0)
            out[f"{p}-{label}"] = {"dropped_wins": rate, "ended": ended, "games": games}
            print(f"starter:{p} without {label} vs with it: {rate * 100:.1f}% ({ended}/{games} ended)", flush=True)
    return out


def pairing(deck_a, deck_b, games, seed0=1, bot_a="heuristic", bot_b="heuristic", stats=None):
    """A's win share over ``games`` two-player games with the seats swapped."""
    wins = ended = 0
    for g in range(games):
        seed = seed0 + g // 2
        a_seat = g % 2
        ds = [deck_a, deck_b] if a_seat == 0 else [deck_b, deck_a]
        bs = [bot_a, bot_b] if a_seat == 0 else [bot_b, bot_a]
        w = play(ds, seed, bs, stats)
        if w is not None:
            ended += 1
            wins += w == a_seat
    return wins / max(ended, 1), ended


def starters(games, seed0=1):
    out = {}
    for i, a in enumerate(PATHS):
        for b in PATHS[i + 1:]:
            rate, ended = pairing(f"starter:{a}", f"starter:{b}", games, seed0)
            out[f"{a}-{b}"] = {"a_wins": rate, "ended": ended, "games": games}
            print(f"starter {a} vs {b}: {rate * 100:.1f}% ({ended}/{games} ended)", flush=True)
    return out


def startplayer(games, seed0=1):
    out = {}
    for n in (2, 3, 4):
        stats = new_stats()
        first = ended = 0
        for g in range(games):
            ds = [f"starter:{PATHS[(g + i) % 3]}" for i in range(n)]
            w = play(ds, seed0 + g, ["heuristic"] * n, stats)
            if w is not None:
                ended += 1
                first += w == stats["start"][-1]
        r = stats["rounds"]
        out[n] = {"start_share": first / max(ended, 1), "fair": 1 / n, "ended": ended, "games": games,
                  "rounds_mean": sum(r) / len(r), "rounds_max": max(r),
                  "engine_ms_per_game": stats["engine_s"] / games * 1000}
        print(f"{n} players: start player wins {first / max(ended, 1) * 100:.1f}% (fair {100 / n:.1f}%), "
              f"{ended}/{games} ended, rounds mean {sum(r) / len(r):.1f} max {max(r)}, "
              f"engine {stats['engine_s'] / games * 1000:.1f} ms/game (apply only, CPU)", flush=True)
    return out


def bots(games, seed0=1, look_games=None):
    """Bot strength: mirror matches (both seats the same starter deck, the three in turn),
    seats swapped in pairs of games with the same seed."""
    out = {}
    for a, b, n in (("heuristic", "random", games), ("lookahead", "heuristic", look_games or games)):
        wins = ended = 0
        for g in range(n):
            deck = f"starter:{PATHS[(g // 2) % 3]}"
            a_seat = g % 2
            w = play([deck, deck], seed0 + g // 2, [a, b] if a_seat == 0 else [b, a])
            if w is not None:
                ended += 1
                wins += w == a_seat
        out[f"{a}-{b}"] = {"a_wins": wins / max(ended, 1), "ended": ended, "games": n}
        print(f"{a} vs {b} (mirror starters, seats swapped): {wins / max(ended, 1) * 100:.1f}% "
              f"({ended}/{n} ended)", flush=True)
    return out


def limits(games, seed0=1):
    """The audit's exploit: a starter swapped toward the limit raisers (both Fleiß, the path's
    AUSSPIELEN card, a second Eifer for Gehorsam ×2, Gebet, Treueschwur; the lean starters of version
    14 hold no Demut) against the unchanged starter."""
    no = D.current_no
    extra = {"schwert": [], "hammer": [], "buch": ["Hörsaal"]}  # (Das Fundament: one per deck since v12)
    out = {}
    for path in PATHS:
        base = D.starter(path)
        cards = list(base["cards"])
        adds = ["Fleiß", "Fleiß", "Eifer"] + extra[path]
        for n in ["Gehorsam", "Gehorsam", "Gebet", "Treueschwur"][:len(adds)]:
            cards.remove(no(n))
        for n in adds:
            cards.append(no(n))
        deck = D.validate({"pfad": base["pfad"], "cards": cards})
        rate, ended = pairing(deck, base, games, seed0)
        out[path] = {"swapped_wins": rate, "ended": ended, "games": games, "added": adds}
        print(f"{path}: starter + {', '.join(adds)} vs the starter: {rate * 100:.1f}% ({ended}/{games} ended)",
              flush=True)
    return out


def engine_time(games, reps, seed0=1, players=4):
    """Engine time per game without the bots: play ``games`` heuristic games (starters in
    rotation), then replay their actions (setup + every apply) ``reps`` times. The minimum over
    the replays is the figure least disturbed by other work on a shared machine."""
    recorded = []
    for g in range(games):
        seed = seed0 + g
        decks = [f"starter:{PATHS[(g + i) % 3]}" for i in range(players)]
        st = ENGINE.setup(players, {}, seed, [{"deck": d} for d in decks])
        rng = Rng(seed * 7919 + 17)
        acts = []
        while st["result"] is None and st["round"] <= CAP_ROUNDS:
            seat = ENGINE.to_move(st)[0]
            action = BOTS["heuristic"](st, seat, rng)
            acts.append((seat, action))
            st = ENGINE.apply(st, seat, action).state
        recorded.append((seed, decks, acts))
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


def search(iters, games, final, seed0=1000, starts=PATHS, against=None):
    against = against or best_starter()
    opp = D.resolve(against)
    rng = Rng(seed0)
    log = []
    best_overall = None
    for path in starts:
        cur = D.starter(path)
        cur_score, _ = pairing(cur, opp, games, seed0)
        for it in range(iters):
            cand = mutate(cur, rng)
            sc, _ = pairing(cand, opp, games, seed0 + 7 * (it + 1))
            base, _ = pairing(cur, opp, games, seed0 + 7 * (it + 1))  # same seeds: a paired comparison
            if sc > base:
                cur, cur_score = cand, sc
            log.append((path, it, sc, base))
        print(f"search from {path}: last step score {cur_score * 100:.1f}% vs {against} ({games} games)", flush=True)
        if best_overall is None or cur_score > best_overall[1]:
            best_overall = (cur, cur_score, path)
    deck, _, path = best_overall
    rate, ended = pairing(deck, opp, final, seed0 + 99991)
    print(f"best find (from {path}), replayed over {final} fresh games: {rate * 100:.1f}% vs {against} "
          f"({ended} ended)", flush=True)
    return {"against": against, "best": deck, "from": path, "final_rate": rate, "final_games": final,
            "ended": ended, "iters": iters, "games": games}


def best_starter(games=60):
    """The starter with the best results against the other two (a quick round robin)."""
    score = {p: 0.0 for p in PATHS}
    for i, a in enumerate(PATHS):
        for b in PATHS[i + 1:]:
            r, _ = pairing(f"starter:{a}", f"starter:{b}", games, 424242)
            score[a] += r
            score[b] += 1 - r
    return "starter:" + max(PATHS, key=score.get)


def describe(deck):
    cs = cardset().cards
    names = {}
    for no in deck["cards"]:
        names[cs[no].name.de] = names.get(cs[no].name.de, 0) + 1
    pfad = " ".join(f"{cs[no].name.de}" for no in deck["pfad"])
    return f"Pfad: {pfad}; {len(deck['cards'])} cards: " + ", ".join(
        f"{n}×{k}" if n > 1 else k for k, n in sorted(names.items()))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=("starters", "startplayer", "bots", "limits", "search", "engine", "paths",
                                     "ranks", "all"))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--look-games", type=int, default=None, help="games for lookahead vs heuristic")
    ap.add_argument("--iters", type=int, default=40)
    ap.add_argument("--search-games", type=int, default=40)
    ap.add_argument("--final", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=7, help="replays for engine")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    t0 = time.process_time()
    out = {}
    if a.what in ("starters", "all"):
        out["starters"] = starters(a.games, a.seed)
    if a.what in ("startplayer", "all"):
        out["startplayer"] = startplayer(a.games, a.seed)
    if a.what in ("bots", "all"):
        out["bots"] = bots(a.games, a.seed, a.look_games)
    if a.what in ("limits", "all"):
        out["limits"] = limits(a.games, a.seed)
    if a.what in ("search", "all"):
        out["search"] = search(a.iters, a.search_games, a.final)
        print("best find:", describe(out["search"]["best"]))
    if a.what in ("paths", "all"):
        out["paths"] = paths(a.games, a.seed)
    if a.what in ("ranks", "all"):
        out["ranks"] = ranks(a.games, a.seed)
    if a.what == "engine":
        out["engine"] = engine_time(a.games, a.reps, a.seed)
    print(f"CPU {time.process_time() - t0:.0f} s", flush=True)
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(out, indent=1, default=str))
    return out


if __name__ == "__main__":
    main()
