"""Der Orden: a fingerprint of the engine's behaviour, to check that speed work changes no result.

    bench/run.py orden fingerprint record /tmp/fp.json   # before a change: games, actions, hashes
    bench/run.py orden fingerprint check /tmp/fp.json    # after it: exit 1 on any difference

``record`` plays heuristic bot games (the 20 four-player games of ``play.engine_time``, seeds
1–20, plus 10 two-player and 10 three-player ones) and stores every game's actions and, per game, a hash
over every state after setup and each ``apply`` (``json.dumps(state, sort_keys=True)``), each step's events
and ``reveals``, and the legal actions of the seat to move next. ``check`` replays the stored actions
(also checking that no ``apply`` changed its input) and plays the games with the bots again (the same
actions must come out). For the cost without the timer's noise on a shared machine, count instructions
(the load does not change them): ``PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no`` of a replay
script, less the same script replaying nothing.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from bench.orden.play import heuristic_game
from games.orden.engine import ENGINE

GAMES = ((4, 1, 20), (2, 101, 10), (3, 201, 10))  # players, first seed, games


def record_games() -> list:
    out = []
    for players, seed0, games in GAMES:
        for g in range(games):
            decks, acts = heuristic_game(players, seed0 + g, g)
            out.append({"seed": seed0 + g, "decks": decks, "actions": acts})
    return out


def fingerprint(game) -> str:
    h = hashlib.sha256()
    st = ENGINE.setup(len(game["decks"]), {}, game["seed"], [{"deck": d} for d in game["decks"]])
    h.update(json.dumps(st, sort_keys=True).encode())
    for seat, action in game["actions"]:
        before = json.dumps(st, sort_keys=True)
        step = ENGINE.apply(st, seat, action)
        if json.dumps(st, sort_keys=True) != before:
            raise AssertionError(f"apply changed its input (seed {game['seed']}, {action})")
        h.update(json.dumps(step.state, sort_keys=True).encode())
        h.update(json.dumps([step.events, step.reveals], sort_keys=True).encode())
        movers = ENGINE.to_move(step.state)
        if movers:
            h.update(json.dumps(ENGINE.legal_actions(step.state, movers[0]), sort_keys=True).encode())
        st = step.state
    return h.hexdigest()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] not in ("record", "check"):
        print("usage: bench/run.py orden fingerprint record|check FILE\n\n" + __doc__)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    what, path = argv
    if what == "record":
        games = record_games()
        for g in games:
            g["hash"] = fingerprint(g)
        Path(path).write_text(json.dumps(games))
        print(f"recorded {len(games)} games, {sum(len(g['actions']) for g in games)} actions: {path}")
        return 0
    games = json.loads(Path(path).read_text())
    differ = []
    for g in games:
        try:
            same = fingerprint(g) == g["hash"]
        except Exception as e:  # noqa: BLE001 - a recorded action refused or a crash: a difference too
            print(f"seed {g['seed']}: {type(e).__name__}: {e}")
            same = False
        if not same:
            differ.append(g["seed"])
    again = record_games()
    bots_differ = [g["seed"] for g, h in zip(games, again) if g["actions"] != h["actions"]]
    print(f"{len(games)} games: states/events/legal lists differ in {differ or 'none'}; "
          f"the bots' actions differ in {bots_differ or 'none'}")
    return 1 if differ or bots_differ else 0


if __name__ == "__main__":
    sys.exit(main())
