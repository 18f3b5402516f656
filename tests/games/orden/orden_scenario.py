"""A small scenario language for Der Orden: set up zones by card name, act, assert.

    sc = Scenario([{"path": "schwert", "rank": "IV", "hand": ["Kraft"], "auslage": ["Mentor Michael"]},
                   {"path": "hammer"}])
    sc.play(0, "Kraft")
    sc.activate(0, "Knappe", 0)
    assert sc.rank(0) == "V"

Cards are named by their German name; ``"auslage:Kraft"`` names a card in a given zone.
Every act goes through ``legal_actions`` (the act must be listed) and ``apply``; the state
is round-tripped through JSON after every step.
"""
from __future__ import annotations

import json
from games.base import IllegalAction
from games.orden import decks
from games.orden.catalog import cardset
from games.orden.effects import V, fresh_turn
from games.orden.engine import ENGINE

CS = cardset()


def no_of(name: str, v=None) -> int:
    """The current version of the card, or the one of data version ``v`` (older versions stay in the
    catalog for old matches)."""
    return decks.current_no(name, V if v is None else v)


def starter_names(path: str, v: int) -> list:
    """A starter's Nachziehstapel by (German) card name, as decks.STARTER_CARDS lists it: a data version
    that renumbers a card keeps the starters."""
    return sorted(CS.cards[no].name.de for no in decks.starter(path, v)["cards"])


def hammer_deck_with(no: int, v=None) -> dict:
    """The Hammer starter of data version ``v`` with card ``no`` added (any version's number)."""
    deck = decks.starter("hammer", V if v is None else v)
    return {**deck, "cards": sorted(deck["cards"] + [no])}


def pfad_for(path: str, plus6=False, plus9=False, v=None) -> list:
    return decks.path_pfad(path, plus6, plus9, V if v is None else v)


class Scenario:
    ZONES = ("deck", "hand", "auslage", "ablage", "aussen")

    def __init__(self, seats, cur=0, seed=7, options=None, version=None):
        """``version``: the data version whose cards the names mean (default: the current one)."""
        ci, own, ps = [], [], []
        for s, spec in enumerate(seats):
            pfad = pfad_for(spec.get("path", "schwert"), spec.get("plus6", False), spec.get("plus9", False), version)
            rank = spec.get("rank", "0")
            k = [CS.cards[no].rank for no in pfad].index(rank)
            pfad = pfad[k:] + pfad[:k]  # ascended k times
            p = {"pfad": [], "deck": [], "hand": [], "auslage": [], "ablage": [], "aussen": [],
                 "known": [], "never": spec.get("never_ask", False), "path": spec.get("path", "schwert")}
            for no in pfad:
                p["pfad"].append(len(ci))
                ci.append(no)
                own.append(s)
            for z in self.ZONES:
                for name in spec.get(z, []):
                    p[z].append(len(ci))
                    ci.append(no_of(name, version))
                    own.append(s)
            p["deck"].reverse()  # listed top first; the engine draws from the end
            ps.append(p)
        opts = ENGINE.meta.clean_options(options or {})
        self.state = {"n": len(seats), "opts": opts, "rng": seed, "ci": ci, "own": own, "p": ps,
                      "cur": cur, "start": cur, "round": 1, "rounds_left": opts["rounds"],
                      "t": fresh_turn(), "phase": "main", "pend": None, "res": None, "trig": [],
                      "result": None, "v": V if version is None else version}
        self.events = []
        self.steps = []
        self.plan = {}
        self.auto_decline = True  # acts decline for seats that cannot react (see pass_idle)

    # -- helpers ----------------------------------------------------------------------------
    def _find(self, seat, ref, zones=("hand", "auslage", "pfad")):
        if ":" in ref:
            z, name = ref.split(":", 1)
            zones = (z,)
        else:
            name = ref
        p = self.state["p"][seat]
        for z in zones:
            ids = p[z][:1] if z == "pfad" else p[z]
            for iid in ids:
                if CS.cards[self.state["ci"][iid]].name.de == name:
                    return iid
        raise AssertionError(f"seat {seat} has no {ref!r} in {zones}")

    def _names(self, ids):
        return [CS.cards[self.state["ci"][i]].name.de for i in ids]

    def legal(self, seat):
        return ENGINE.legal_actions(self.state, seat)

    def do(self, seat, action):
        assert action in self.legal(seat), f"not listed as legal: {action}\nlegal: {self.legal(seat)}"
        before = json.dumps(self.state, sort_keys=True)
        step = ENGINE.apply(self.state, seat, action)
        assert json.dumps(self.state, sort_keys=True) == before, "apply mutated its input"
        self.state = json.loads(json.dumps(step.state))
        self.events += json.loads(json.dumps(step.events))
        self.steps.append(step)
        return step

    def legacy(self, seat, action):
        """An action the engine no longer offers but still accepts (old logs replay)."""
        assert action not in self.legal(seat)
        step = ENGINE.apply(self.state, seat, action)
        self.state = json.loads(json.dumps(step.state))
        self.events += json.loads(json.dumps(step.events))
        self.steps.append(step)
        return step

    def illegal(self, seat, action):
        try:
            ENGINE.apply(self.state, seat, action)
        except IllegalAction as e:
            return e
        raise AssertionError(f"{action} was accepted")

    # -- acts -------------------------------------------------------------------------------
    def play(self, seat, name):
        return self.do(seat, {"type": "play", "card": self._find(seat, name, ("hand",))})

    def _pick(self, seat, ref):
        """A legal pay action for the card named ``ref`` (optionally ``zone:Name``)."""
        zone, name = ref.split(":", 1) if ":" in ref else (None, ref)
        p = self.state["p"][seat]
        for a in self.legal(seat):
            if "cards" in a:  # the cheapest covering set at once (legal.pay_options): not one named card
                continue
            i = a["card"]
            z = "hand" if i in p["hand"] else "auslage"
            if self._names([i])[0] == name and zone in (None, z):
                return a
        raise AssertionError(f"{ref!r} cannot pay now; legal: {self.legal(seat)}")

    def _continue(self, seat):
        """Pay and choose as planned once the rule of ``seat`` is being resolved."""
        pay, choose = self.plan.get(seat, ([], []))
        while self.state["res"] is not None and self.state["res"]["seat"] == seat:
            phase = self.state["phase"]
            if phase == "pay":
                assert pay, f"payment not finished; could still pay with {self.legal(seat)}"
                self.do(seat, self._pick(seat, pay.pop(0)))
            elif phase == "choose":
                assert choose, f"a choice is asked: {self.legal(seat)}"
                self.do(seat, {"type": "choose", "card": no_of(choose.pop(0))})
            else:
                break
        if self.state["res"] is None or self.state["res"]["seat"] != seat:
            assert not pay or self.state["phase"] == "react", f"cards left over after paying: {pay}"
            # a single possible pick is taken without asking, so ``choose`` may be left over
            if self.state["phase"] != "react":
                self.plan.pop(seat, None)

    def pass_idle(self):
        """Every opponent is asked in a reaction window (the engine does not tell who holds a
        reaction); a seat whose only choice is to decline declines here, as its player would.
        The window stops at the first seat that could react: the test decides for it."""
        while self.state["phase"] == "react" and self.auto_decline:
            seat = self.to_move()[0]
            if any(a["type"] == "react" for a in self.legal(seat)):
                return
            self.do(seat, {"type": "decline"})

    def _resume(self):
        for seat in list(self.plan):
            if self.state["res"] is not None and self.state["res"]["seat"] == seat:
                self._continue(seat)

    def activate(self, seat, card, ability=0, pay=None, choose=None):
        iid = self._find(seat, card)
        step = self.do(seat, {"type": "activate", "card": iid, "ability": ability})
        self.plan[seat] = (list(pay or []), list(choose or []))
        self.pass_idle()
        self._continue(seat)
        return step

    def react(self, seat, card, ability=0, pay=None):
        iid = self._find(seat, card, ("hand", "auslage", "pfad"))
        step = self.do(seat, {"type": "react", "card": iid, "ability": ability})
        self.plan[seat] = (list(pay or []), [])
        self._continue(seat)
        self.pass_idle()
        self._resume()
        return step

    def usable(self, seat, card, ability):
        iid = self._find(seat, card)
        return {"type": "activate", "card": iid, "ability": ability} in self.legal(seat)

    def decline(self, seat):
        step = self.do(seat, {"type": "decline"})
        self.pass_idle()
        self._resume()
        return step

    def end_turn(self, seat):
        return self.do(seat, {"type": "end_turn"})

    def discard(self, seat, name):
        return self.do(seat, {"type": "discard", "card": self._find(seat, name, ("hand",))})

    # -- asserts ----------------------------------------------------------------------------
    def rank(self, seat):
        return ENGINE.view(self.state, seat)["seats"][seat]["rank"]

    def zone(self, seat, zone):
        return self._names(self.state["p"][seat][zone])

    def hand_size(self, seat):
        return len(self.state["p"][seat]["hand"])

    def limits(self, seat):
        return ENGINE.view(self.state, seat)["seats"][seat]["limits"]

    def to_move(self):
        return ENGINE.to_move(self.state)

    def event_types(self):
        return [e["type"] for e in self.events]
