"""The secrets proofs (tests/conformance/proofs.py) over every registered game, the platform's
test game and the suite's own test game: each rule on a random playout per player count."""
from __future__ import annotations

import pytest

from games import registry
from tests.conformance import proofs
from tests.support.chipgame import PLUGIN as CHIPS
from tests.support.minigame import PLUGIN as MINI

PLUGINS = {**registry.plugins(), MINI.meta.slug: MINI, CHIPS.meta.slug: CHIPS}


def _cases():
    for slug, plugin in sorted(PLUGINS.items()):
        for players in range(plugin.meta.min_players, plugin.meta.max_players + 1):
            yield pytest.param(plugin, players, id=f"{slug}-{players}p")


@pytest.mark.parametrize("plugin,players", list(_cases()))
def test_secrets_are_kept(plugin, players):
    proofs.prove(plugin, players, seed=players + 10)


def _option_cases():
    for slug, plugin in sorted(PLUGINS.items()):
        for options in proofs.option_combinations(plugin.meta):
            label = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "none"
            yield pytest.param(plugin, options, id=f"{slug}-{label}")


@pytest.mark.parametrize("plugin,options", list(_option_cases()))
def test_every_option_combination_plays(plugin, options):
    """Rule options-play: a random playout to the end with the cheap checks on every position."""
    engine = plugin.engine
    players = plugin.meta.min_players
    final = None
    for k, state, events in proofs.positions(plugin, players, seed=3, options=options):
        where = f"{plugin.meta.slug}, options {options}, after {k} moves"
        movers = engine.to_move(state)
        if (engine.outcome(state) is None) != bool(movers):
            raise proofs.Breach("options-play", "terminal iff outcome fails", state, where)
        proofs.check_waiting_idle(plugin, state, players, where)
        for event in events:
            proofs.check_log_languages(plugin, event, players, state, where)
        final = state
    assert engine.outcome(final) is not None
