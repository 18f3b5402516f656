"""The game simulator: what bots playing any registered game tell about it.

    bench/run.py simulate alchemist --games 200 --players 3
    bench/run.py simulate orden --games 60 --players 2 --bot heuristic
    bench/run.py simulate <slug> --games 20 --ladder-games 20 --out bench/results

For one game and one player count it reports, each with a 95 % interval over seeds:

- **every game ends**: games that reached no end within ``--max-steps`` actions are counted and
  listed by seed (a stall is a defect of the rules or of a bot);
- **start-player advantage**: the win share of each position in turn order (position 1 is the
  plugin's ``start_seat`` of the set-up: by default the one seat ``to_move`` names; a game where
  several seats act at once has none), against the fair share 1/P, in self-play of
  ``--bot`` (default: the strongest, the last of the game's ladder);
- **game length**: actions and turns per game (a turn: a run of consecutive actions by one seat);
- **decisions per turn**: actions taken with two or more legal actions to choose from, per turn,
  and the options per decision;
- **bot ladder**: each bot of the game's ladder (``bots()`` in declared order, weakest first:
  random < heuristic < the strongest) against the one below it: one seat plays the stronger bot,
  every other seat the weaker; each seed is played once with the stronger bot at every seat (so
  neither profits from the seat). The ladder holds when each step's win share lies above fair.

Wins: the seats placed first share the win (a tie of two counts half for each). Results go to
``<out>/simulate-<slug>-<P>p.json`` and ``.md`` (default ``bench/results/``, not in git); the
Markdown table is what ``docs/performance.md`` quotes. Single process unless ``--procs 2``.

The core (``playout``, ``seed_ci95``) is shared: ``bench/orden/harness.py`` plays its deck
searches through ``playout``.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.rng import Rng  # noqa: E402

MAX_STEPS = 20_000


# -- the core: one game --------------------------------------------------------------------------

@dataclass
class Playout:
    """One game played by bots, and what its decisions looked like."""

    state: dict
    ended: bool
    steps: int = 0  # actions applied
    turns: int = 0  # runs of consecutive actions by one seat
    decisions: int = 0  # actions with two or more legal actions to choose from
    options: int = 0  # legal actions summed over the decisions
    engine_s: float = 0.0  # CPU time in ``apply`` alone
    cpu_s: float = 0.0  # CPU time of the whole game (bots included)
    first: int | None = None  # the first seat to act (None: several at once)


def playout(engine, state: dict, pilots: list[Callable], rng: Rng, *, max_steps: int = MAX_STEPS,
            stop: Callable[[dict], bool] | None = None,
            observe: Callable[[dict, int, int], None] | None = None) -> Playout:
    """Plays ``state`` to its end: the first seat ``to_move`` names acts with its pilot
    (``pilot(state, seat, rng)``, a bot of ``plugin.bots()``), until nobody is to move, ``stop(state)``
    holds or ``max_steps`` actions were applied. ``observe(state, seat, n_legal)`` runs before
    each action (a caller's own counters). Deterministic for a given ``rng``."""
    t_cpu = time.process_time()
    clock = time.process_time
    out = Playout(state=state, ended=False)
    movers = engine.to_move(state)
    out.first = movers[0] if len(movers) == 1 else None
    last = None
    while True:
        movers = engine.to_move(state)
        if not movers:
            out.ended = True
            break
        if (stop is not None and stop(state)) or out.steps >= max_steps:
            break
        seat = movers[0]
        k = len(engine.legal_actions(state, seat))
        if k > 1:
            out.decisions += 1
            out.options += k
        if seat != last:
            out.turns += 1
            last = seat
        if observe is not None:
            observe(state, seat, k)
        action = pilots[seat](state, seat, rng)
        t0 = clock()
        state = engine.apply(state, seat, action).state
        out.engine_s += clock() - t0
        out.steps += 1
    out.state = state
    out.cpu_s = time.process_time() - t_cpu
    return out


def new_game(plugin, players: int, seed: int, options: dict | None = None) -> dict:
    """A game's set-up as the site makes it with default options and seat choices."""
    options = plugin.meta.clean_options(options or {})
    choices = plugin.resolve_choices([plugin.clean_choices({}, None) for _ in range(players)])
    return plugin.engine.setup(players, options, seed, choices)


def win_shares(plugin, state: dict) -> list[float]:
    """Each seat's share of the win: the seats placed first split one win."""
    outcome = plugin.engine.outcome(state) or {"placements": []}
    firsts = [p["seat"] for p in outcome["placements"] if p["place"] == 1]
    shares = [0.0] * len(outcome["placements"])
    for s in firsts:
        shares[s] = 1 / len(firsts)
    return shares


def ladder(plugin) -> list[str]:
    """The game's bots, weakest first: a ``bot_ladder`` the plugin declares, else ``bots()`` in
    declared order (every game in this repository declares them random first, strongest last)."""
    declared = getattr(plugin, "bot_ladder", None)
    names = list(declared() if callable(declared) else declared or plugin.bots())
    return names


# -- intervals ----------------------------------------------------------------------------------

def seed_ci95(scores) -> float:
    """Half-width of a 95 % interval of the mean of per-seed values (shares in 0..1 → points).
    Each seed counts once: games of one seed share its deal and are not independent. With fewer
    than two seeds: 100 (nothing known). The variance is floored at that of a fair coin over the
    seeds' count (0.25 / k), so a handful of equal results does not claim certainty."""
    k = len(scores)
    if k < 2:
        return 100.0
    mean = sum(scores) / k
    var = sum((x - mean) ** 2 for x in scores) / (k - 1)
    return 196 * math.sqrt(max(var, 0.25 / k) / k)


def mean_ci95(values) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal approximation) in the values' unit."""
    k = len(values)
    if not k:
        return 0.0, 0.0
    mean = sum(values) / k
    if k < 2:
        return mean, float("inf")
    var = sum((x - mean) ** 2 for x in values) / (k - 1)
    return mean, 1.96 * math.sqrt(var / k)


# -- the measurements ----------------------------------------------------------------------------

def _pilots(plugin, names: list[str]) -> list[Callable]:
    bots = plugin.bots()
    return [bots[n] for n in names]


def _one(task: dict) -> dict:
    """One game (a worker's unit): ``task`` = slug, players, seed, bots per seat, max_steps."""
    from games import registry

    plugin = registry.get(task["slug"])
    state = new_game(plugin, task["players"], task["seed"], task.get("options"))
    first = plugin.start_seat(state) if hasattr(plugin, "start_seat") else None  # the kit's hook
    res = playout(plugin.engine, state, _pilots(plugin, task["bots"]), Rng(task["seed"] * 7919 + 17),
                  max_steps=task["max_steps"])
    return {"seed": task["seed"], "ended": res.ended, "wins": win_shares(plugin, res.state) if res.ended else None,
            "first": first if hasattr(plugin, "start_seat") else res.first, "steps": res.steps, "turns": res.turns, "decisions": res.decisions,
            "options": res.options, "engine_s": res.engine_s, "cpu_s": res.cpu_s}


def _run(tasks: list[dict], procs: int) -> list[dict]:
    if procs <= 1 or len(tasks) < 2:
        return [_one(t) for t in tasks]
    import multiprocessing as mp

    with mp.get_context("fork").Pool(min(procs, 2)) as pool:
        return pool.map(_one, tasks, chunksize=1)


@dataclass
class Report:
    slug: str
    players: int
    games: int
    bot: str
    seed: int
    ladder_games: int
    ended: int = 0
    stalled_seeds: list = field(default_factory=list)
    positions: list = field(default_factory=list)  # [{"position", "share", "ci95", "fair"}] (points)
    steps: dict = field(default_factory=dict)
    turns: dict = field(default_factory=dict)
    decisions_per_turn: dict = field(default_factory=dict)
    options_per_decision: float = 0.0
    engine_ms_per_game: float = 0.0
    cpu_s_per_game: float = 0.0
    ladder: list = field(default_factory=list)  # [{"stronger", "weaker", "share", "ci95", "fair", "holds"}]
    date: str = ""
    command: str = ""


def self_play(slug: str, players: int, games: int, bot: str, seed: int, procs: int = 1,
              max_steps: int = MAX_STEPS, report: Report | None = None) -> Report:
    """``games`` games of ``bot`` in every seat: ending, start-player advantage, length, decisions."""
    rep = report or Report(slug, players, games, bot, seed, 0)
    tasks = [{"slug": slug, "players": players, "seed": seed + g, "bots": [bot] * players, "max_steps": max_steps}
             for g in range(games)]
    res = _run(tasks, procs)
    done = [r for r in res if r["ended"]]
    rep.ended = len(done)
    rep.stalled_seeds = [r["seed"] for r in res if not r["ended"]]
    with_first = [r for r in done if r["first"] is not None]
    rep.positions = []
    if with_first:
        for pos in range(players):
            per_seed = [r["wins"][(r["first"] + pos) % players] for r in with_first]
            rep.positions.append({"position": pos + 1, "share": 100 * sum(per_seed) / len(per_seed),
                                  "ci95": seed_ci95(per_seed), "fair": 100 / players})
    for name, key in (("steps", "steps"), ("turns", "turns")):
        m, ci = mean_ci95([r[key] for r in done])
        setattr(rep, name, {"mean": m, "ci95": ci, "max": max((r[key] for r in done), default=0)})
    m, ci = mean_ci95([r["decisions"] / max(r["turns"], 1) for r in done])
    rep.decisions_per_turn = {"mean": m, "ci95": ci}
    rep.options_per_decision = sum(r["options"] for r in done) / max(sum(r["decisions"] for r in done), 1)
    rep.engine_ms_per_game = 1000 * sum(r["engine_s"] for r in res) / max(len(res), 1)
    rep.cpu_s_per_game = sum(r["cpu_s"] for r in res) / max(len(res), 1)
    return rep


def ladder_steps(slug: str, players: int, games: int, seed: int, procs: int = 1,
                 max_steps: int = MAX_STEPS) -> list[dict]:
    """Each bot against the one below it on the ladder: ``games`` seeds, each played once with the
    stronger bot at every seat (the others all weaker). Share: the stronger bot's wins per game."""
    from games import registry

    names = ladder(registry.get(slug))
    out = []
    for weaker, stronger in zip(names, names[1:]):
        tasks = [{"slug": slug, "players": players, "seed": seed + g,
                  "bots": [stronger if s == at else weaker for s in range(players)], "max_steps": max_steps, "at": at}
                 for g in range(games) for at in range(players)]
        res = _run(tasks, procs)
        per_seed: dict[int, list[float]] = {}
        stalls = 0
        for t, r in zip(tasks, res):
            if not r["ended"]:
                stalls += 1
                continue
            per_seed.setdefault(t["seed"], []).append(r["wins"][t["at"]])
        scores = [sum(v) / len(v) for v in per_seed.values()]
        share = 100 * sum(scores) / max(len(scores), 1)
        ci = seed_ci95(scores)
        out.append({"stronger": stronger, "weaker": weaker, "share": share, "ci95": ci, "fair": 100 / players,
                    "games": len(tasks), "stalled": stalls, "holds": share - ci > 100 / players})
    return out


def simulate(slug: str, players: int, games: int, *, bot: str | None = None, ladder_games: int | None = None,
             seed: int = 1, procs: int = 1, max_steps: int = MAX_STEPS) -> Report:
    """The whole report for one game and player count (self-play, then the ladder)."""
    from games import registry

    plugin = registry.get(slug)
    plugin.meta.check_players(players)
    names = ladder(plugin)
    if not names:
        raise SystemExit(f"{slug} declares no bots: the simulator needs at least one (Plugin.bots()).")
    bot = bot or names[-1]
    if bot not in plugin.bots():
        raise SystemExit(f"{slug} has no bot {bot!r}; it has: {', '.join(names)}")
    ladder_games = games if ladder_games is None else ladder_games
    rep = Report(slug, players, games, bot, seed, ladder_games)
    self_play(slug, players, games, bot, seed, procs, max_steps, rep)
    if ladder_games:
        rep.ladder = ladder_steps(slug, players, ladder_games, seed + 10 ** 6, procs, max_steps)
    rep.date = datetime.date.today().isoformat()
    return rep


# -- output ------------------------------------------------------------------------------------

def markdown(rep: Report) -> str:
    """The report as a small Markdown table (what docs/performance.md quotes)."""
    lines = [f"**{rep.slug}, {rep.players} players** ({rep.date}; `{rep.command}`)", "",
             "| Figure | Measured |", "|---|---|",
             f"| games ended | {rep.ended} / {rep.games}"
             + (f" (no end: seeds {', '.join(map(str, rep.stalled_seeds[:10]))})" if rep.stalled_seeds else "") + " |"]
    if rep.positions:
        lines.append(f"| wins by turn order ({rep.bot} self-play; fair {100 / rep.players:.1f} %) | "
                     + ", ".join(f"{p['position']}. {p['share']:.1f} ±{p['ci95']:.1f}" for p in rep.positions) + " |")
    else:
        lines.append("| start player | none (several seats act first at once) |")
    lines += [f"| actions per game | {rep.steps['mean']:.1f} ±{rep.steps['ci95']:.1f} (max {rep.steps['max']}) |",
              f"| turns per game | {rep.turns['mean']:.1f} ±{rep.turns['ci95']:.1f} (max {rep.turns['max']}) |",
              f"| decisions per turn | {rep.decisions_per_turn['mean']:.2f} ±{rep.decisions_per_turn['ci95']:.2f}"
              f" ({rep.options_per_decision:.1f} options per decision) |",
              f"| CPU per game | {rep.cpu_s_per_game * 1000:.0f} ms (engine {rep.engine_ms_per_game:.1f} ms) |"]
    for step in rep.ladder:
        lines.append(f"| ladder: {step['stronger']} vs {step['weaker']} ({step['games']} games) | "
                     f"{step['share']:.1f} % ±{step['ci95']:.1f} (fair {step['fair']:.1f}) "
                     f"{'holds' if step['holds'] else 'NOT shown'}"
                     + (f", {step['stalled']} without end" if step["stalled"] else "") + " |")
    return "\n".join(lines) + "\n"


def write(rep: Report, out_dir: Path) -> tuple[Path, Path]:
    """``simulate-<slug>-<P>p.json`` and ``.md`` in ``out_dir`` (stable names: a rerun diffs)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = out_dir / f"simulate-{rep.slug}-{rep.players}p"
    data = asdict(rep)
    data["load"] = os.getloadavg()
    js = stem.with_suffix(".json")
    js.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    md = stem.with_suffix(".md")
    md.write_text(markdown(rep))
    return js, md


def main(argv=None) -> Report:
    ap = argparse.ArgumentParser(description="Simulate bots playing a registered game (bench/run.py simulate).")
    ap.add_argument("slug")
    ap.add_argument("--games", type=int, default=100, help="self-play games (one seed each)")
    ap.add_argument("--players", type=int, help="default: the game's minimum")
    ap.add_argument("--bot", help="the self-play bot (default: the strongest of the ladder)")
    ap.add_argument("--ladder-games", type=int, help="seeds per ladder step, each played P times (default: --games; 0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=1, help="worker processes (at most 2)")
    ap.add_argument("--max-steps", type=int, default=MAX_STEPS, help="a game with more actions counts as stalled")
    ap.add_argument("--out", default=str(ROOT / "bench" / "results"), help="folder for the JSON and Markdown")
    a = ap.parse_args(argv)
    from games import registry

    if a.slug not in registry.plugins():
        ap.error(f"no game {a.slug!r}; registered: {', '.join(sorted(registry.plugins()))}")
    players = a.players or registry.get(a.slug).meta.min_players
    try:
        registry.get(a.slug).meta.check_players(players)
    except ValueError as exc:  # BadOptions
        ap.error(str(exc))
    rep = simulate(a.slug, players, a.games, bot=a.bot, ladder_games=a.ladder_games, seed=a.seed, procs=a.procs,
                   max_steps=a.max_steps)
    rep.command = "bench/run.py simulate " + " ".join(argv if argv is not None else sys.argv[1:])
    js, md = write(rep, Path(a.out))
    print(markdown(rep))
    print(f"written: {js} and {md}")
    return rep


if __name__ == "__main__":
    main()
