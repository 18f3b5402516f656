"""The conformance suite's proofs that a game keeps its secrets (pure: no Django).

Each check is metamorphic: it redraws what a viewer cannot see (``Plugin.resample_hidden`` for
every other owner of secrets, and for ``None``: what nobody sees, such as the draw pile's order
and the RNG) and asks whether anything that viewer receives changes. A check that fails raises
``Breach``: the rule's name, what differed, and the earliest state of a random playout where it
does (with the fewest players and the smallest seed the caller tried first, so it is small).

Channels covered here: legal actions, views (``test_conformance``), the events and log lines of
a move as each viewer sees them, ``public_action``, the mover's own view after a move
(``reveals``), the bots' choices. ``resample_hidden``'s coverage is checked by perturbing each
part of the state: a part no view of a viewer shows must change under that viewer's redraws,
unless the plugin declares why not (``fixed_secrets``: ``{path pattern: reason}``).
Channels that go through Django (export, replays, notification texts, rendered forms) are
checked in ``test_platform_channels``.
"""
from __future__ import annotations

import itertools
import json
import re

from games.base import IllegalAction, Plugin
from games.rng import Rng

RULES = {
    "waiting-seats-idle": "a seat that is not to move has no legal action",
    "legal-actions-hide": "a seat's legal actions do not depend on the other seats' secrets",
    "log-lines-hide": "the log lines a viewer reads of a move do not depend on secrets it cannot see",
    "events-hide": "the events a viewer receives of a move do not depend on secrets it cannot see",
    "public-action-hides": "a move as others see it (public_action) does not name the mover's secrets",
    "reveals-flagged": "a move whose result for the mover depends on others' secrets or chance is flagged reveals",
    "bots-blind": "a bot's choice does not change when the other seats' secrets are redrawn",
    "resample-covers": "resample_hidden redraws every part of the state a viewer cannot see",
    "options-play": "every combination of declared options plays to the end",
    "log-both-languages": "every event has a log line in German and in English",
    "form-round-trip": "every legal action survives the trip through its form (action_from_form)",
}


class Breach(AssertionError):
    def __init__(self, rule: str, detail: str, state=None, where: str = ""):
        self.rule = rule
        text = f"[{rule}] rule: {RULES[rule]}\n{detail}"
        if state is not None:
            dump = json.dumps(state, sort_keys=True)
            text += f"\nminimal reproducing state{(' (' + where + ')') if where else ''}:\n" + (
                dump if len(dump) <= 3000 else dump[:3000] + " …")
        super().__init__(text)


def dump(value) -> str:
    return json.dumps(value, sort_keys=True)


def first_diff(a, b, path="$"):
    """The path of the first difference between two JSON values and both values there."""
    if type(a) is not type(b):
        return path, a, b
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}", a.get(k, "<missing>"), b.get(k, "<missing>")
            if a[k] != b[k]:
                return first_diff(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}[len]", len(a), len(b)
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_diff(x, y, f"{path}[{i}]")
    return path, a, b


def diff_text(a, b) -> str:
    path, x, y = first_diff(a, b)
    return f"first difference at {path}: {json.dumps(x)[:300]} vs {json.dumps(y)[:300]}"


def new_game(plugin: Plugin, players: int, seed: int, options: dict | None = None):
    options = plugin.meta.clean_options(options or {})
    choices = plugin.resolve_choices([plugin.clean_choices({}, None) for _ in range(players)])
    return plugin.engine.setup(players, options, seed, choices)


def positions(plugin: Plugin, players: int, seed: int, options=None, max_steps: int = 20_000):
    """(index, state, events of the move that led to it) along a random playout, the final
    state included."""
    engine = plugin.engine
    state, events = new_game(plugin, players, seed, options), []
    rng = Rng(seed * 7919 + players)
    for k in range(max_steps):
        yield k, state, events
        movers = engine.to_move(state)
        if not movers:
            return
        seat = rng.choice(movers)
        step = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        state, events = step.state, step.events
    raise Breach("options-play", f"no end after {max_steps} actions", state)


def redraw(plugin: Plugin, state: dict, keep, rng: Rng) -> dict:
    """``state`` with every secret redrawn except those of the seats in ``keep`` (what nobody
    sees is always redrawn)."""
    out = plugin.resample_hidden(state, None, Rng(rng.next64()))
    for owner in range(state_players(plugin, state)):
        if owner not in keep:
            out = plugin.resample_hidden(out, owner, Rng(rng.next64()))
    return out


def state_players(plugin: Plugin, state: dict) -> int:
    spectator = plugin.engine.view(state, None)
    for key in ("players", "n"):
        if isinstance(spectator.get(key), int):
            return spectator[key]
    for key in ("players", "n"):
        if isinstance(state.get(key), int):
            return state[key]
    raise KeyError("the number of players (view or state key 'players' or 'n')")


def names_for(n: int) -> list[str]:
    return [f"Seat{i}" for i in range(n)]


# -- the cheap checks, every position ------------------------------------------------------------
def check_waiting_idle(plugin, state, n, where=""):
    movers = plugin.engine.to_move(state)
    for seat in range(n):
        if seat not in movers:
            legal = plugin.engine.legal_actions(state, seat)
            if legal:
                raise Breach("waiting-seats-idle", f"seat {seat} waits (to move: {movers}) but is offered "
                             f"{len(legal)} action(s), e.g. {legal[0]!r}", state, where)


def check_legal_actions_hide(plugin, state, n, rng, where=""):
    for seat in range(n):
        legal = plugin.engine.legal_actions(state, seat)
        other = redraw(plugin, state, {seat}, rng)
        again = plugin.engine.legal_actions(other, seat)
        if dump(again) != dump(legal):
            raise Breach("legal-actions-hide", f"seat {seat}'s legal actions changed when the others' secrets "
                         f"were redrawn; {diff_text(legal, again)}", state, where)


# -- a move as each viewer receives it --------------------------------------------------------------
def observed(plugin, state, seat, action, viewer, n):
    """What ``viewer`` receives of ``seat`` playing ``action``: (public action, log lines de+en,
    events, view after); None if the action is not legal in ``state``."""
    try:
        step = plugin.engine.apply(state, seat, action)
    except IllegalAction:
        return None
    visible = [e for e in step.events if e.get("to") is None or (viewer is not None and viewer in e["to"])]
    names = names_for(n)
    lines = [plugin.describe(e, names, lang) for e in visible for lang in ("en", "de")]
    shown = action if viewer == seat else plugin.public_action(action, seat, viewer)
    return {"public_action": shown, "log": lines, "events": visible,
            "view": plugin.engine.view(step.state, viewer), "reveals": step.reveals}


def check_moves_hide(plugin, state, n, rng, where="", per_mover=3, candidates=40):
    """For a sample of moves: every other viewer's observations of the move (log lines, events,
    public_action) are the same in a world where everything it cannot see is redrawn, once the
    view after the move is the same (a move that shows the viewer something new, e.g. a reveal,
    differs in the view itself). The mover's secrets are redrawn too, so the action matched in
    the other world is any one that leaves the viewer's view alike (the mover may hold other
    cards there). The mover's own view: a difference means the move must be flagged reveals."""
    engine = plugin.engine
    for mover in engine.to_move(state):
        legal = engine.legal_actions(state, mover)
        sample = legal if len(legal) <= per_mover else [legal[rng.below(len(legal))] for _ in range(per_mover)]
        for action in sample:
            # The mover's own result: redraw everyone else's secrets.
            mine = observed(plugin, state, mover, action, mover, n)
            other = redraw(plugin, state, {mover}, rng)
            theirs = observed(plugin, other, mover, action, mover, n)
            if theirs is not None and not mine["reveals"]:
                for key in ("view", "events"):
                    if dump(mine[key]) != dump(theirs[key]):
                        raise Breach("reveals-flagged", f"seat {mover} plays {action!r}: its {key} afterwards depends "
                                     f"on secrets it could not see, but the step is not flagged reveals; "
                                     f"{diff_text(mine[key], theirs[key])}", state, where)
            for viewer in [None, *range(n)]:
                if viewer == mover:
                    continue
                seen = observed(plugin, state, mover, action, viewer, n)
                world = redraw(plugin, state, {viewer}, rng)
                other_legal = engine.legal_actions(world, mover)
                pool = [action] + [a for a in other_legal if a != action]
                if len(pool) > candidates:
                    pool = pool[:1] + [pool[1 + rng.below(len(pool) - 1)] for _ in range(candidates)]
                alike = []
                for cand in pool:
                    obs = observed(plugin, world, mover, cand, viewer, n)
                    if obs is not None and dump(obs["view"]) == dump(seen["view"]):
                        alike.append(obs)
                        if all(dump(obs[k]) == dump(seen[k]) for k in ("log", "events", "public_action")):
                            break
                else:
                    if not alike:
                        continue  # the move shows this viewer something its view shows too
                    who = "the spectator" if viewer is None else f"seat {viewer}"
                    best = alike[0]
                    for key, rule in (("log", "log-lines-hide"), ("events", "events-hide"),
                                      ("public_action", "public-action-hides")):
                        if all(dump(o[key]) != dump(seen[key]) for o in alike):
                            raise Breach(rule, f"seat {mover} plays {action!r}: what {who} receives as {key} "
                                         f"changes with secrets {who} cannot see; {diff_text(seen[key], best[key])}",
                                         state, where)
                    raise Breach("events-hide", f"seat {mover} plays {action!r}: no move in the redrawn world "
                                 f"looks alike to {who} on every channel at once", state, where)


def check_bots_blind(plugin, state, n, rng, where=""):
    engine = plugin.engine
    for mover in engine.to_move(state):
        for name, bot in sorted(plugin.bots().items()):
            seed = rng.next64()
            choice = bot(state, mover, Rng(seed))
            other = redraw(plugin, state, {mover}, rng)
            again = bot(other, mover, Rng(seed))
            if dump(choice) != dump(again):
                raise Breach("bots-blind", f"bot {name!r} for seat {mover} chose {choice!r}, and {again!r} when the "
                             f"others' secrets (and what nobody sees) were redrawn", state, where)


# -- resample_hidden's coverage --------------------------------------------------------------------
def leaves(value, path=()):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, path + (i,))
    else:
        yield path, value


def path_text(path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _get(value, path):
    for p in path:
        value = value[p]
    return value


def _set(value, path, new):
    for p in path[:-1]:
        value = value[p]
    value[path[-1]] = new


def _bumped(x):
    if isinstance(x, bool):
        return not x
    if isinstance(x, (int, float)):
        return x + 1
    if isinstance(x, str):
        return x + "~"
    return 1  # None


def hidden_paths(plugin, state, viewer) -> set:
    """The leaves of ``state`` whose change no view of ``viewer`` shows (a view that fails on the
    changed state counts as showing it: nothing can be concluded)."""
    engine = plugin.engine
    base = dump(engine.view(state, viewer))
    work = json.loads(json.dumps(state))
    out = set()
    for path, value in list(leaves(work)):
        if not path:
            continue
        _set(work, path, _bumped(value))
        try:
            same = dump(engine.view(work, viewer)) == base
        except Exception:  # noqa: BLE001 - a view that cannot read the changed state "shows" it
            same = False
        _set(work, path, value)
        if same:
            out.add(path)
    return out


def declared_match(pattern: str, text: str) -> bool:
    """``p[*].hand`` matches ``p[2].hand``: ``*`` stands for one index or key, nothing else is special."""
    return re.fullmatch(re.escape(pattern).replace(r"\*", r"[^.\[\]]*"), text) is not None


class Coverage:
    """Per viewer, the parts of the state it could not see somewhere in a playout, and whether
    a redraw ever changed them there."""

    def __init__(self, plugin):
        self.plugin = plugin
        self.hidden: dict = {}  # (viewer, path) -> earliest state where hidden
        self.changed: set = set()

    def add(self, state, n, rng, draws=8, where=""):
        for viewer in [None, *range(n)]:
            hidden = hidden_paths(self.plugin, state, viewer)
            if not hidden:
                continue
            for path in hidden:
                self.hidden.setdefault((viewer, path), (state, where))
            keep = set() if viewer is None else {viewer}
            for _ in range(draws):
                other = redraw(self.plugin, state, keep, rng)
                for path in hidden:
                    if (viewer, path) in self.changed:
                        continue
                    try:
                        if _get(other, path) != _get(state, path):
                            self.changed.add((viewer, path))
                    except (KeyError, IndexError, TypeError):
                        self.changed.add((viewer, path))

    def check(self):
        declared = getattr(self.plugin, "fixed_secrets", None) or {}
        for (viewer, path), (state, where) in sorted(self.hidden.items(), key=lambda kv: (str(kv[0][0]), kv[0][1].__repr__())):
            if (viewer, path) in self.changed:
                continue
            text = path_text(path)
            if any(declared_match(pattern, text) for pattern in declared):
                continue
            who = "the spectator" if viewer is None else f"seat {viewer}"
            raise Breach("resample-covers", f"{text} ({json.dumps(_get(state, path))}) is never shown to {who}, "
                         f"but no redraw of what {who} cannot see ever changed it: resample_hidden forgets it, "
                         f"or the plugin declares why it cannot change (fixed_secrets = {{'{text}': 'why'}})",
                         state, where)


# -- options, languages, forms -----------------------------------------------------------------------
def option_values(option) -> list:
    if option.kind == "bool":
        return [False, True]
    if option.kind == "choice":
        return [c[0] for c in option.choices]
    values = [option.default]
    for bound in (option.min, option.max):
        if bound is not None and bound not in values:
            values.append(bound)
    return values


def option_combinations(meta, limit=64) -> list[dict]:
    """Every combination of the options' values (bool, each choice, an int's default and bounds);
    past ``limit``, each option's values in turn with the others at their defaults."""
    keys = [o.key for o in meta.options]
    values = [option_values(o) for o in meta.options]
    total = 1
    for v in values:
        total *= len(v)
    if total <= limit:
        return [dict(zip(keys, combo)) for combo in itertools.product(*values)]
    defaults = {o.key: o.default for o in meta.options}
    return [defaults] + [{**defaults, o.key: v} for o, vs in zip(meta.options, values) for v in vs if v != o.default]


_WORD = re.compile(r"[^\W\d_]{3,}")


def check_log_languages(plugin, event, n, state=None, where=""):
    names = names_for(n)
    texts = {}
    for lang in ("en", "de"):
        try:
            text = plugin.describe(event, names, lang)
        except Exception as exc:  # noqa: BLE001 - the failure is the finding
            raise Breach("log-both-languages", f"describe({event!r}, lang={lang!r}) raised {exc!r}", state, where) from exc
        if not isinstance(text, str) or not text.strip() or text == event.get("type") or "{" in text:
            raise Breach("log-both-languages", f"describe({event!r}, lang={lang!r}) gave {text!r}: no log line",
                         state, where)
        texts[lang] = text
    if texts["en"] == texts["de"]:
        bare = texts["en"]
        for name in names:
            bare = bare.replace(name, "")
        if _WORD.search(bare):
            raise Breach("log-both-languages", f"the event {event!r} reads the same in both languages: "
                         f"{texts['en']!r} (one of them is missing)", state, where)


def default_form(action) -> dict:
    return {"action": json.dumps(action)}


def check_form_round_trip(plugin, state, n, where=""):
    """Every legal action comes back from its form as it was: the default form (one field
    ``action`` with the JSON), or the fields a plugin says its board posts (``form_fields(action)``,
    optional). Other games with their own fields: test_platform_channels renders the board and
    submits its forms."""
    declared = getattr(type(plugin), "form_fields", Plugin.form_fields) is not Plugin.form_fields
    if declared:
        fields = plugin.form_fields
    elif type(plugin).action_from_form is Plugin.action_from_form or getattr(plugin, "json_action_form", False):
        fields = default_form
    else:
        return
    for seat in plugin.engine.to_move(state):
        for action in plugin.engine.legal_actions(state, seat):
            try:
                back = plugin.action_from_form(fields(action))
            except IllegalAction as exc:
                raise Breach("form-round-trip", f"the form of {action!r} is refused: {exc.reason}", state, where) from None
            if dump(back) != dump(action):
                raise Breach("form-round-trip", f"the form of {action!r} comes back as {back!r}", state, where)


# -- one run over a game ----------------------------------------------------------------------------
def prove(plugin: Plugin, players: int, seed: int, *, sample: int = 6, bots_sample: int = 10,
          coverage_states: int = 3, options=None, rules=None):
    """Runs every pure check along one random playout. ``sample``: one position in ``sample``
    gets the costly move checks (bots one in ``bots_sample``); ``coverage_states`` positions
    get the coverage perturbation. ``rules``: only these (the suite's own tests)."""
    def want(rule):
        return (rules is None or rule in rules)
    rng = Rng(seed * 31 + players)
    coverage = Coverage(plugin)
    states = list(positions(plugin, players, seed, options))
    picks = {len(states) * (i + 1) // (coverage_states + 1) for i in range(coverage_states)}
    for k, state, events in states:
        where = f"{plugin.meta.slug}, {players} players, seed {seed}, options {options or 'default'}, after {k} moves"
        if want("waiting-seats-idle"):
            check_waiting_idle(plugin, state, players, where)
        if want("form-round-trip") and k % sample == 0:
            check_form_round_trip(plugin, state, players, where)
        if k % sample == 0 and want("legal-actions-hide"):
            check_legal_actions_hide(plugin, state, players, rng, where)
        if k % sample == 0 and (rules is None or {"log-lines-hide", "events-hide", "public-action-hides",
                                                  "reveals-flagged"} & set(rules)):
            check_moves_hide(plugin, state, players, rng, where)
        if k % bots_sample == 0 and want("bots-blind"):
            check_bots_blind(plugin, state, players, rng, where)
        if k in picks and want("resample-covers"):
            coverage.add(state, players, rng, where=where)
        if want("log-both-languages"):
            for event in events:  # every event of the playout
                check_log_languages(plugin, event, players, state, where)
    if want("resample-covers"):
        coverage.check()
    return states
