"""The conformance suite: every registered game (and the platform's test game) must keep the
plugin contract of games/base.py. Adding a game to games/ adds it here automatically."""
from __future__ import annotations

import json

import pytest

from games import registry
from games.base import IllegalAction, Plugin
from games.rng import Rng
from tests.support.minigame import PLUGIN as MINI

PLUGINS = {**registry.plugins(), MINI.meta.slug: MINI}
SEEDS = (1, 2, 3)
MAX_STEPS = 20_000


def _cases():
    for slug, plugin in sorted(PLUGINS.items()):
        for players in range(plugin.meta.min_players, plugin.meta.max_players + 1):
            for seed in SEEDS:
                yield pytest.param(plugin, players, seed, id=f"{slug}-{players}p-seed{seed}")


def _dump(value) -> str:
    return json.dumps(value, sort_keys=True)


def _roundtrip(value):
    assert json.loads(json.dumps(value)) == value, "not JSON round-trippable"


def playout(plugin: Plugin, players: int, seed: int, options=None, check=None):
    """Plays random legal actions to the end; ``check(state)`` runs before every move."""
    engine = plugin.engine
    options = plugin.meta.clean_options(options or {})
    choices = plugin.resolve_choices([plugin.clean_choices({}, None) for _ in range(players)])
    state = engine.setup(players, options, seed, choices)
    rng, log = Rng(seed * 7919 + players), []
    for _ in range(MAX_STEPS):
        if check:
            check(state)
        movers = engine.to_move(state)
        if not movers:
            break
        seat = rng.choice(movers)
        action = rng.choice(engine.legal_actions(state, seat))
        state = engine.apply(state, seat, action).state
        log.append((seat, action))
    else:
        pytest.fail(f"{plugin.meta.slug}: no end after {MAX_STEPS} actions")
    return options, choices, state, log


@pytest.mark.parametrize("slug", sorted(PLUGINS))
def test_metadata(slug):
    meta = PLUGINS[slug].meta
    assert meta.slug == slug and meta.name_en and meta.name_de and meta.engine_version
    assert 1 <= meta.min_players <= meta.max_players
    defaults = meta.clean_options({})
    assert set(defaults) == {o.key for o in meta.options}
    _roundtrip(meta.schema())


@pytest.mark.parametrize("plugin,players,seed", list(_cases()))
def test_playout_keeps_the_contract(plugin, players, seed):
    engine = plugin.engine

    def check(state):
        _roundtrip(state)
        movers = engine.to_move(state)
        assert (engine.outcome(state) is None) == bool(movers), "terminal iff outcome"
        before = _dump(state)
        for seat in movers:
            legal = engine.legal_actions(state, seat)
            assert legal, f"seat {seat} must act but has no legal action"
            # Every legal action applies (Alchemist offers up to ~2,500: applying them all is
            # cheap); the JSON round trips of the results are checked on a sample.
            for i, action in enumerate(legal):
                step = engine.apply(state, seat, action)
                if i < 25 or i % 97 == 0:
                    _roundtrip(action)
                    _roundtrip(step.state)
                    _roundtrip(step.events)
            assert _dump(state) == before, "apply mutated its input"
        # Illegal actions: rejected with a reason, nothing changed.
        idle = [s for s in range(players) if s not in movers]
        actor = movers[0] if movers else 0
        bad = [(actor, {}), (actor, {"type": "__not_a_move__"})]
        if idle and movers:
            bad.append((idle[0], engine.legal_actions(state, movers[0])[0]))
        for seat, action in bad:
            with pytest.raises(IllegalAction) as err:
                engine.apply(state, seat, action)
            assert err.value.reason and err.value.reason_de
            assert _dump(state) == before
        for viewer in [None, *range(players)]:
            _roundtrip(engine.view(state, viewer))

    options, choices, final, log = playout(plugin, players, seed, check=check)
    outcome = engine.outcome(final)
    assert outcome is not None and engine.to_move(final) == []
    places = outcome["placements"]
    assert sorted(p["seat"] for p in places) == list(range(players))
    assert all(1 <= p["place"] <= players for p in places)
    assert min(p["place"] for p in places) == 1
    # Replay of the log from the setup record rebuilds the final state exactly.
    state = engine.setup(players, options, seed, choices)
    for seat, action in log:
        state = engine.apply(state, seat, action).state
    assert _dump(state) == _dump(final)


@pytest.mark.parametrize("plugin,players,seed", list(_cases()))
def test_views_hide_what_they_must(plugin, players, seed):
    """Non-interference: redrawing one seat's secrets (or what nobody sees) changes no other
    seat's view and not the spectator's. Proves that no view carries those secrets."""
    engine, rng = plugin.engine, Rng(seed + 1000)
    changed = {"count": 0}

    def check(state):
        if rng.below(4):  # a sample of positions keeps the suite fast
            return
        viewers = [None, *range(players)]
        for owner in viewers:
            other = plugin.resample_hidden(state, owner, Rng(rng.next64()))
            _roundtrip(other)
            if _dump(other) != _dump(state):
                changed["count"] += 1
            for viewer in viewers:
                if viewer == owner and owner is not None:
                    continue  # a seat's own view shows its own secrets
                assert engine.view(other, viewer) == engine.view(state, viewer), (
                    f"view of {viewer} depends on secrets of {'nobody' if owner is None else owner}")

    playout(plugin, players, seed, check=check)
    assert changed["count"] > 0, "resample_hidden never changed anything: it proves nothing"


@pytest.mark.parametrize("slug", sorted(PLUGINS))
def test_bots_play_legal_moves_to_the_end(slug):
    plugin = PLUGINS[slug]
    engine = plugin.engine
    for name, bot in plugin.bots().items():
        players = plugin.meta.min_players
        state = engine.setup(players, plugin.meta.clean_options({}), 5,
                             plugin.resolve_choices([plugin.clean_choices({}, None) for _ in range(players)]))
        rng = Rng(5)
        for _ in range(MAX_STEPS):
            movers = engine.to_move(state)
            if not movers:
                break
            action = bot(state, movers[0], rng)
            assert action in engine.legal_actions(state, movers[0]), f"bot {name} chose an illegal move"
            state = engine.apply(state, movers[0], action).state
        assert engine.outcome(state) is not None, f"bot {name} did not finish a game"


def _sample_orders(kind) -> list[dict]:
    """Orders of a declared kind, from its schema: every value of each ``enum`` property in
    turn (the others at their first value), ``const`` as given; clean_order decides."""
    props = {k: v for k, v in (kind.schema.get("properties") or {}).items() if k != "kind" and isinstance(v, dict)}
    base = {"kind": kind.kind}
    for name, prop in props.items():
        if "const" in prop:
            base[name] = prop["const"]
        elif prop.get("enum"):
            base[name] = prop["enum"][0]
    out = [base]
    for name, prop in props.items():
        for value in (prop.get("enum") or [])[1:]:
            out.append({**base, name: value})
            out.append({k: v for k, v in {**base, name: value}.items() if k not in props or k == name
                        or "const" in props[k]})
    return out


@pytest.mark.parametrize("plugin,players,seed", list(_cases()))
def test_orders_keep_the_contract(plugin, players, seed):
    """Orders (platform.md "Playing over days"): every declared kind is a valid OrderKind and
    cleans; ``ordered_action`` is pure and answers with a legal action or None; the moves a
    waiting seat may queue (``premove_actions``) are JSON, pure, and do not depend on the other
    seats' secrets (the seat sees them on its own table)."""
    from games.base import BadOptions

    engine, rng = plugin.engine, Rng(seed + 2000)
    kinds = plugin.order_kinds()
    assert len({k.kind for k in kinds}) == len(kinds) and "premove" not in {k.kind for k in kinds}
    orders = []
    for kind in kinds:
        assert set(kind.as_json()) == {"schema", "text"} and kind.text_en and kind.text_de
        for order in _sample_orders(kind):
            try:
                orders.append(plugin.clean_order(order))
            except BadOptions:
                continue
    assert not kinds or orders, "no sampled order of any declared kind cleans"
    seen = {"premoves": 0}

    def check(state):
        if rng.below(4):
            return
        frozen = _dump(state)
        movers = engine.to_move(state)
        for seat in range(players):
            if seat in movers:
                legal = [_dump(a) for a in engine.legal_actions(state, seat)]
                for order in orders:
                    action = plugin.ordered_action(state, seat, [order])
                    assert action == plugin.ordered_action(state, seat, [order]), "ordered_action is not deterministic"
                    assert action is None or _dump(action) in legal, f"ordered action {action!r} is not legal"
                continue
            premoves = plugin.premove_actions(state, seat)
            _roundtrip(premoves)
            seen["premoves"] += len(premoves)
            for other in [None, *range(players)]:
                if other == seat:
                    continue
                redrawn = plugin.resample_hidden(state, other, Rng(rng.next64()))
                assert plugin.premove_actions(redrawn, seat) == premoves, (
                    f"the moves seat {seat} may queue depend on secrets of {'nobody' if other is None else other}")
        assert _dump(state) == frozen, "an order hook changed its input"

    playout(plugin, players, seed, check=check)
    if type(plugin).premove_actions is not Plugin.premove_actions:
        assert seen["premoves"] > 0, "premove_actions offered nothing in a whole playout"
