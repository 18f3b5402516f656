"""The card language: schema validation errors, and a test that loads and exercises every
card of the base set (each rule used once in a rich position, its verbs observed)."""
import json

import pytest
from orden_scenario import CS, Scenario

from games.orden import decks
from games.orden import rules as R
from games.orden.schema import CardError, load_sets, parse_card, parse_cards
from games.orden.text import card_text

BASE = {"no": 999, "kind": "deck", "name": {"de": "Probe", "en": "Probe"}, "flavor": {"de": "", "en": ""}}


def bad(**kw):
    d = json.loads(json.dumps({**BASE, **kw}))
    with pytest.raises(CardError) as e:
        parse_card(d)
    assert "card 999" in str(e.value)
    return str(e.value)


def test_schema_rejects_bad_cards_naming_card_and_field():
    assert "field card: unknown key(s) colour" in bad(colour="red")
    assert "liefert[0].X" in bad(liefert=[{"X": 1}])
    assert "liefert[0].K" in bad(liefert=[{"K": 0}])
    assert "rules[0].kind" in bad(rules=[{"kind": "zauber", "do": [{"draw": 1}]}])
    assert "rules[0].if[0].rank_at_least" in bad(rules=[{"kind": "aktion", "if": [{"rank_at_least": "XI"}], "do": [{"draw": 1}]}])
    assert "rules[0].do" in bad(rules=[{"kind": "aktion", "do": [{"prevent": True}]}])
    assert "rules[0].do[0]" in bad(rules=[{"kind": "aktion", "do": [{"fly": 1}]}])
    assert "rules[0].pay" in bad(rules=[{"kind": "aktion", "pay": [
        {"discard": {"props": {"K": 1}, "from": "hand"}}, {"remove": {"props": {"T": 1}, "from": "hand"}}],
        "do": [{"draw": 1}]}])
    assert "rules[0].pay[0].discard.from" in bad(rules=[{"kind": "aktion", "pay": [
        {"discard": {"props": {"K": 1}, "from": "deck"}}], "do": [{"draw": 1}]}])
    assert "rules[0]" in bad(rules=[{"kind": "effekt", "static": [{"limit": "hand", "plus": 1}], "once_per_turn": True,
                                      "do": [{"draw": 1}]}])
    assert "rules[0].do" in bad(rules=[{"kind": "effekt", "on": "ascend",
                                        "do": [{"choose": {"select": {}, "to": "hand"}}]}])
    assert "level" in bad(type="MYSTERIUM")
    assert "type" in bad(type="DRACHE")
    assert "rank" in bad(kind="rank", rank="XI")
    assert "path" in bad(kind="rank", rank="IV")
    assert "count" in bad(kind="rank", rank="I", count=2)
    with pytest.raises(CardError, match="card 0: field no"):
        parse_card({**BASE, "no": 0})
    with pytest.raises(CardError, match="number used twice"):
        parse_cards([BASE, BASE])
    with pytest.raises(CardError, match="unknown card name"):
        parse_cards([{**BASE, "rules": [{"kind": "aktion", "do": [{"choose": {"select": {"name": "Nix"}, "to": "hand"}}]}]}])


def test_base_set_is_complete(tmp_path):
    cards = CS.cards.values()
    ranks = {(c.rank, c.path) for c in cards if c.kind == "rank"}
    for r in ("0", "I", "II", "III", "VII", "VIII", "IX", "IX+", "X"):
        assert (r, None) in ranks
    for r in ("IV", "V", "VI", "VI+"):
        for p in ("schwert", "hammer", "buch"):
            assert (r, p) in ranks
    named = ["Vor den Mauern", "Adept", "Knappe", "Ritter", "Freiherr", "Herzog", "Lehrling", "Geselle", "Schmied",
             "Komtur", "Student", "Lehrer", "Professor", "Dekan", "Meister", "Großmeister", "Seliger", "Einladung",
             "Das Versprechen", "Kraft", "Mächtige Statur", "Der Beginn des Weges", "Gehorsam", "Anwerber Alfred",
             "Mentor Michael", "Eifer", "Triumvirat", "Das Fundament"]
    for n in named:
        assert n in CS.by_name, n
    assert CS.by_name["Anwerber Alfred"][0].type == CS.by_name["Mentor Michael"][0].type == "MENTOR"
    for t in ("MENTOR", "BURG", "MYSTERIUM"):
        assert sum(c.count for c in cards if c.type == t) >= 3
    pool = sum(c.count for c in cards if c.kind == "deck")
    assert pool >= 100 and len([c for c in cards if c.kind == "deck"]) >= 40
    # an expansion is just another file
    f = tmp_path / "x.json"
    f.write_text(json.dumps({"set": "X", "cards": [BASE]}), encoding="utf-8")
    assert 999 in load_sets([f]).cards


def test_every_card_has_generated_text_in_both_languages():
    for c in CS.cards.values():
        for lang in ("de", "en"):
            lines = card_text(c, lang)
            assert len(lines) >= len(c.abilities) + (1 if c.liefert else 0)
            assert all(line and "None" not in line and "{" not in line for line in lines)
        assert card_text(c, "de") != card_text(c, "en") or not (c.abilities or c.liefert)


# -- exercising every card ----------------------------------------------------------------

HAND = ["Treueschwur", "Treueschwur", "Gehorsam", "Mächtige Statur", "Mächtige Statur", "Goldbarren", "Goldbarren",
        "Foliant", "Foliant", "Vision", "Vision", "Gebet", "Gnade", "Gnade", "Erlösung"]
AUSLAGE = ["Mächtige Statur", "Mächtige Statur", "Kraft", "Kraft", "Goldbarren", "Goldbarren", "Silberling",
           "Silberling", "Silberling", "Silberling", "Foliant", "Foliant", "Schriftrolle", "Schriftrolle",
           "Schriftrolle", "Schriftrolle", "Treueschwur", "Treueschwur", "Vision", "Vision",
           "Mysterium der Flamme", "Burg Falkenstein", "Magister Gregor"]  # a MENTOR: Student, Lehrer (v10)
DECK = ["Einladung", "Das Versprechen", "Kraft", "Silberling", "Schriftrolle", "Gebet", "Demut", "Demut",
        "Anwerber Alfred", "Klosterburg"]
OPP = {"path": "schwert", "rank": "VII", "auslage": ["Mysterium der Flamme", "Ordensburg"], "hand": ["Vision", "Vision"],
       "deck": ["Demut"] * 6}
EVENT = {"draw": "draw", "ascend": "ascend", "descend": "descend", "choose": "choose", "discard_self": "discard",
         "remove_self": "remove", "prevent": "prevented"}


def table(c, rank, where, cur=0):
    aus = [n for n in AUSLAGE if not (c.type and CS.by_name[n][0].type == c.type)]
    me = {"path": c.path or "schwert", "rank": c.rank if c.kind == "rank" else rank, "plus6": True, "plus9": True,
          "hand": HAND + ([c.name.de] if where == "hand" else []),
          "auslage": aus + ([c.name.de] if where == "auslage" else []),
          "deck": DECK, "ablage": ["Gebet", "Foliant"], "aussen": ["Kraft"]}
    sc = Scenario([me, dict(OPP)], cur=cur)
    if c.kind == "deck":  # the exercised card is the last one placed in its zone
        sc.iid = sc.state["p"][0][where][-1]
    else:
        sc.iid = sc.state["p"][0]["pfad"][0]
    return sc


def drive(sc):
    for _ in range(200):
        ph = sc.state["phase"]
        if ph == "react":
            sc.do(sc.to_move()[0], {"type": "decline"})
        elif ph in ("pay", "choose"):
            s = sc.to_move()[0]
            sc.do(s, sc.legal(s)[0])
        else:
            return


def check_verbs(sc, ability, since, seat=0):
    types = [e["type"] for e in sc.events[since:] if e.get("seat", seat) == seat or e["type"] in ("descend", "prevented")]
    for v in ability.verbs:
        if v.kind == "extra":
            assert sc.state["t"]["xplay" if v.limit == "play" else "xact"] >= v.n
        elif v.kind == "force_discard":  # an opponent lost cards, by this seat's rule
            assert any(e["type"] == "discard" and e.get("forced_by") == seat and e["seat"] != seat
                       for e in sc.events[since:]), sc.events[since:]
        else:
            assert EVENT[v.kind] in types, (v.kind, types)


RANKS_TO_TRY = ("IV", "0", "VII", "I")
# the current card versions: the tables name cards by name, and a name means its current version
# (the old versions, schema.Card.until, only replay old matches; test_orden_versions.py)
CARDS = sorted(no for no, c in CS.cards.items() if c.until is None)


@pytest.mark.parametrize("no", CARDS)
def test_exercise_card(no):
    c = CS.cards[no]
    for lang in ("de", "en"):
        assert card_text(c, lang)
    if c.liefert:
        sc = table(c, "VII", "auslage" if c.kind == "deck" else None)
        assert R.deliveries(sc.state, 0, c, "hand"), "delivers nothing even at rank VII with VI+ and IX+"
    for ai, a in enumerate(c.abilities):
        if a.kind == "aktion" or a.once_per_turn:
            for rank in RANKS_TO_TRY:
                sc = table(c, rank, "auslage")
                act = {"type": "activate", "card": sc.iid, "ability": ai}
                if act in sc.legal(0):
                    break
            else:
                pytest.fail(f"rule {ai} of {c.name.de} never usable")
            since = len(sc.events)
            sc.do(0, act)
            drive(sc)
            check_verbs(sc, a, since)
        elif a.kind == "reaktion":
            sc = table(c, "IV", "hand" if c.kind == "deck" else None, cur=1)
            if c.kind == "rank":
                sc = table(c, None, None, cur=1)
            if a.on == "hostile":  # answers only an Aktion that hurts: the opponent's Kraft contest
                kraft = sc.state["p"][1]["deck"].pop()
                sc.state["ci"][kraft] = CS.by_name["Kraft"][0].no
                sc.state["p"][1]["auslage"].append(kraft)
                sc.state["p"][0]["auslage"] = []  # seat 0 owns less K than seat 1
                sc.state["p"][1]["auslage"].append(sc.state["p"][1]["deck"].pop())
                sc.state["ci"][sc.state["p"][1]["auslage"][-1]] = CS.by_name["Mächtige Statur"][0].no
                assert {"type": "activate", "card": kraft, "ability": 0} in sc.legal(1)
                sc.do(1, {"type": "activate", "card": kraft, "ability": 0})
            else:
                sc.do(1, {"type": "activate", "card": sc.state["p"][1]["pfad"][0], "ability": 0})
            assert sc.to_move() == [0]
            react = {"type": "react", "card": sc.iid, "ability": ai}
            assert react in sc.legal(0)
            since = len(sc.events)
            sc.do(0, react)
            drive(sc)
            check_verbs(sc, a, since)
            if any(v.kind == "prevent" for v in a.verbs):
                assert sc.rank(1) == "VII"
        elif a.statics:
            where = "auslage" if c.kind == "deck" else None
            sc = table(c, "IV", where)
            without = Scenario([{"path": "schwert", "rank": "IV"}, dict(OPP)])
            for cond in a.conditions:  # make the effect's conditions true
                if cond.kind == "rank_at_least" or (c.rank_gate and R.RANKS[c.rank_gate] > 4):
                    sc = table(c, cond.rank if cond.kind == "rank_at_least" else c.rank_gate, where)
            for cond in a.conditions:
                if cond.kind == "possess":
                    owned = next(cs[0].no for cs in CS.by_name.values() if R.matches(cs[0], cond.select))
                    sc.state["p"][0]["auslage"].insert(0, sc.state["p"][0]["ablage"].pop())
                    sc.state["ci"][sc.state["p"][0]["auslage"][0]] = owned
            if c.rank_gate and not a.conditions:
                sc = table(c, c.rank_gate, where)
            assert R.holds(sc.state, 0, a.conditions)
            for st in a.statics:
                if st.kind == "limit" and st.plus > 0:
                    assert R.limit(sc.state, 0, st.limit) >= R.limit(without.state, 0, st.limit) + st.plus
                elif st.kind == "limit":  # a drawback: lower than without it
                    alone = Scenario([{"path": "schwert", "rank": "IV", "auslage": [c.name.de]}, dict(OPP)])
                    assert R.limit(alone.state, 0, st.limit) == max(R.BASE_LIMITS[st.limit] + st.plus, R.FLOORS[st.limit]) \
                        or not R.holds(alone.state, 0, a.conditions)
                elif st.kind == "opp_limit":  # the opponent's limit drops (to its floor at least)
                    bare = Scenario([{"path": "schwert", "rank": "IV"}, dict(OPP)])
                    hit = R.limit(sc.state, 1, st.limit)
                    assert hit < R.limit(bare.state, 1, st.limit) or hit == R.FLOORS[st.limit]
                elif st.kind == "ban":  # the opponent cannot play such a card
                    victim = next(n for n, cs in CS.by_name.items() if cs[0].kind == "deck" and R.matches(cs[0], st.select))
                    sc.state["p"][1]["hand"].append(sc.state["p"][1]["deck"].pop())
                    sc.state["ci"][sc.state["p"][1]["hand"][-1]] = CS.by_name[victim][0].no
                    sc.state["cur"] = 1
                    assert R.banned(sc.state, 1, sc.state["p"][1]["hand"][-1])
                    assert {"type": "play", "card": sc.state["p"][1]["hand"][-1]} not in sc.legal(1)
                else:
                    assert R.multipliers(sc.state, 0)[st.prop] == st.factor
        elif a.when is not None:
            sc = table(c, "VII", "hand")
            since = len(sc.events)
            sc.do(0, {"type": "play", "card": sc.iid})
            check_verbs(sc, a, since)
        elif a.on == "ascend":
            sc = table(c, "IV", "auslage")
            since = len(sc.events)
            sc.do(0, {"type": "activate", "card": sc.state["p"][0]["pfad"][0], "ability": 0})  # Knappe: 6x K lie out
            drive(sc)
            assert sc.rank(0) == "V"
            check_verbs(sc, a, since)
        elif a.on == "turn_start":
            sc = Scenario([{"auslage": [c.name.de], "deck": ["Demut"] * 12}, {"deck": ["Demut"] * 12}])
            sc.end_turn(0)
            since = len(sc.events)
            sc.end_turn(1)
            check_verbs(sc, a, since)
        else:
            pytest.fail(f"untested rule kind in {c.name.de}")


def test_starter_decks_use_only_base_set_cards_within_counts():
    for p in ("schwert", "hammer", "buch"):
        d = decks.starter(p)
        assert len(d["cards"]) >= 30  # 40-41 from data version 15, 38 in 14 (lean starters), 48 before
        for no in set(d["cards"]):
            assert d["cards"].count(no) <= CS.cards[no].count
