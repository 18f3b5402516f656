"""Tests of the suite itself: each rule of tests/conformance/proofs.py fails on a copy of the
chip duel (tests/support/chipgame.py) with one mistake planted, and passes on the game as it is.
A rule that never fails proves nothing."""
from __future__ import annotations

import pytest

from games.base import Step
from tests.conformance import proofs
from tests.support import chipgame
from tests.support.chipgame import ChipPlugin, Engine


def _copy(engine_cls=Engine, plugin_cls=ChipPlugin):
    return plugin_cls(engine_cls())


# -- the planted mistakes, one per copy ------------------------------------------------------------
class NextCardEngine(Engine):  # a public event naming the next hidden card
    def draw_events(self, state, seat, card):
        events = super().draw_events(state, seat, card)
        events[0] = {**events[0], "next": state["deck"][0] if state["deck"] else None}
        return events


class ChipCountEngine(Engine):  # a log event naming a seat's hidden chip count
    def draw_events(self, state, seat, card):
        events = super().draw_events(state, seat, card)
        events[0] = {**events[0], "chips": state["chips"][seat] + (card % 2 == 0)}
        return events


class ChipCountPlugin(ChipPlugin):
    def describe(self, event, names, lang):
        line = super().describe(event, names, lang)
        return line + (f" ({event['chips']})" if "chips" in event else "")


class UnflaggedEngine(Engine):  # drawing (chance) not flagged reveals: undo would let one peek
    def apply(self, state, seat, action):
        step = super().apply(state, seat, action)
        return Step(step.state, step.events, False)


class ForgetfulPlugin(ChipPlugin):  # resample_hidden forgets the chips
    def resample_hidden(self, state, seat, rng):
        out = super().resample_hidden(state, seat, rng)
        out["chips"] = list(state["chips"])
        return out


class PeekingPlugin(ChipPlugin):  # a bot peeking at the draw pile
    def bots(self):
        def peek(state, seat, rng):
            if state["deck"] and state["deck"][0] > 6:
                return {"type": "draw"}
            return {"type": "play", "card": min(state["hands"][seat])} if state["hands"][seat] else {"type": "draw"}
        return {"peek": peek}


class BusyWaitingEngine(Engine):  # legal actions offered to waiting seats
    def legal_actions(self, state, seat):
        if self.over(state):
            return []
        return super().legal_actions({**state, "turn": seat}, seat)


class ChipsViewEngine(Engine):  # a view leaking the others' chips
    def view(self, state, seat):
        return {**super().view(state, seat), "all_chips": state["chips"]}


class MutatingEngine(Engine):  # apply mutating its input
    def apply(self, state, seat, action):
        state["touched"] = True
        return super().apply(state, seat, action)


class StashShownPlugin(ChipPlugin):  # public_action naming the card put aside face down
    def public_action(self, action, seat, viewer):
        return action


class KnowingLegalEngine(Engine):  # legal actions depending on the pile (a secret of nobody)
    def legal_actions(self, state, seat):
        legal = super().legal_actions(state, seat)
        if state["deck"] and state["deck"][0] % 3 == 0 and len(legal) > 1:
            legal = [a for a in legal if a["type"] != "draw"]
        return legal


class OptionCrashEngine(Engine):  # a combination of options that breaks the set-up
    def setup(self, players, options, seed, choices):
        if options.get("short") and options.get("chips") == 0:
            raise ValueError("no chips with a short deck")
        return super().setup(players, options, seed, choices)


class OneLanguagePlugin(ChipPlugin):  # a log line forgotten in German
    def describe(self, event, names, lang):
        if event["type"] == "stashed" and lang == "de":
            return super().describe(event, names, "en")
        return super().describe(event, names, lang)


class FormPlugin(ChipPlugin):  # a form that turns the card into text
    def action_from_form(self, data):
        action = super().action_from_form(data)
        return {k: str(v) if k == "card" else v for k, v in action.items()}

    json_action_form = True


BROKEN = {
    "events-hide": _copy(NextCardEngine),
    "log-lines-hide": _copy(ChipCountEngine, ChipCountPlugin),
    "reveals-flagged": _copy(UnflaggedEngine),
    "resample-covers": _copy(plugin_cls=ForgetfulPlugin),
    "bots-blind": _copy(plugin_cls=PeekingPlugin),
    "waiting-seats-idle": _copy(BusyWaitingEngine),
    "public-action-hides": _copy(plugin_cls=StashShownPlugin),
    "legal-actions-hide": _copy(KnowingLegalEngine),
    "log-both-languages": _copy(plugin_cls=OneLanguagePlugin),
    "form-round-trip": _copy(plugin_cls=FormPlugin),
}


def _prove_all(plugin, rules=None):
    for players in (2, 3):
        for seed in (1, 2, 3):
            proofs.prove(plugin, players, seed, sample=1, bots_sample=1, rules=rules)


@pytest.mark.parametrize("rule", sorted(BROKEN))
def test_the_rule_fails_on_its_broken_copy(rule):
    with pytest.raises(proofs.Breach) as err:
        _prove_all(BROKEN[rule], rules={rule})
    assert err.value.rule == rule
    text = str(err.value)
    assert f"[{rule}]" in text and "minimal reproducing state" in text


@pytest.mark.parametrize("rule", sorted(BROKEN))
def test_the_rule_passes_on_the_game_as_written(rule):
    _prove_all(chipgame.PLUGIN, rules={rule})


def test_every_rule_has_a_broken_copy():
    pure = set(proofs.RULES) - {"options-play"}
    assert pure <= set(BROKEN)


def test_options_rule_plays_every_combination():
    from tests.conformance.test_proofs import test_every_option_combination_plays

    plugin = _copy(OptionCrashEngine)
    combos = proofs.option_combinations(plugin.meta)
    assert {(c["short"], c["chips"]) for c in combos} == {(s, c) for s in (False, True) for c in (0, 1, 2)}
    with pytest.raises(ValueError):
        for options in combos:
            test_every_option_combination_plays(plugin, options)


def test_the_views_rule_fails_on_its_broken_copy():
    """The views rule (test_conformance.test_views_hide_what_they_must) and apply's purity."""
    from tests.conformance import test_conformance as tc

    with pytest.raises(AssertionError, match="view of .* depends on secrets"):
        tc.test_views_hide_what_they_must(_copy(ChipsViewEngine), 2, 1)
    with pytest.raises(AssertionError, match="apply mutated its input"):
        tc.test_playout_keeps_the_contract(_copy(MutatingEngine), 2, 1)


def test_form_fields_round_trip_is_checked():
    """A plugin declaring its board's fields (Goofspiel's ``form_fields``) is checked through them."""
    from games.goofspiel import PLUGIN as GOOF

    class Lossy(type(GOOF)):
        def form_fields(self, action):
            return {"card": str(action["card"] - 1)}

    with pytest.raises(proofs.Breach, match=r"\[form-round-trip\]"):
        proofs.prove(Lossy(GOOF.engine), 2, 1, sample=1, rules={"form-round-trip"})
