"""Der Orden as the rule book says, and where this site differs in plain sight:
- Burg Falkenstein against an opponent at the default limit: the text names the floor the engine keeps;
- Stillstand only when neither an ascent nor a descent can change a place (a seat at IX holding
  Verleumdung can make the IX+ leader descend), and the table says why a Stillstand ended the game;
- the house rules listed on the rules pages (de/en) and quoted by the deck builder's refusals;
- paying in one click (the cheapest covering set first, the single cards still there), and Wählen
  without a pile question when the card lies in both piles;
- 5 and 6 players: set-up, views and playouts to the end."""
import html
import json
from pathlib import Path

import pytest
from orden_scenario import Scenario, no_of
from test_orden_standstill import round_played, spent

from games.orden import decks, house
from games.orden.engine import ENGINE
from games.orden.plugin import PLUGIN
from games.orden.roster import BOTS
from games.orden.standstill import may_ascend, may_descend, standstill
from games.orden.text import card_text
from games.rng import Rng

RULES_PAGES = Path(__file__).resolve().parents[3] / "games/orden/templates/frontend/rules"


# -- Burg Falkenstein ------------------------------------------------------------------------------

def test_falkenstein_against_a_default_limit_opponent_does_what_its_text_says():
    base = [{"path": "schwert"}, {"path": "hammer"}]
    castle = [{"path": "schwert", "auslage": ["Burg Falkenstein"]}, {"path": "hammer"}]
    assert Scenario(base).limits(1)["play"] == 1
    sc = Scenario(castle)
    # „Jeder Mitspieler hat AUSSPIELEN-1 (aber mindestens 1)“: the default 1 stays 1, as printed
    assert sc.limits(1)["play"] == 1
    text = " ".join(card_text(sc_card("Burg Falkenstein"), "de"))
    assert "AUSSPIELEN-1 (aber mindestens 1)" in text
    # and it bites on a raised limit: a Herzog's AUSSPIELEN+1 is taken back
    raised = [{"path": "schwert", "auslage": ["Burg Falkenstein"]}, {"path": "schwert", "plus6": True, "rank": "VI+"}]
    assert Scenario([raised[0] | {"auslage": []}, raised[1]]).limits(1)["play"] == 2
    assert Scenario(raised).limits(1)["play"] == 1
    # the owner's own HANDLIMIT+1 holds
    assert sc.limits(0)["hand"] == 8


def sc_card(name):
    from games.orden.catalog import card
    return card(no_of(name))


# -- Stillstand -------------------------------------------------------------------------------------

def test_a_seat_at_ix_holding_verleumdung_keeps_the_game_going():
    """Nobody can ascend any more, but the seat at IX can still make the IX+ leader descend
    (Verleumdung, from RANG III): a place can change, so no Stillstand."""
    seats = [spent(rank="IX", ablage=["Verleumdung"]), spent()]
    sc = round_played(seats)
    assert not may_ascend(sc.state, 0) and not may_ascend(sc.state, 1)
    assert may_descend(sc.state, 0) and not may_descend(sc.state, 1)
    assert sc.state["result"] is None and "standstill" not in sc.event_types()


def test_verleumdung_without_a_higher_opponent_changes_nothing():
    """Both at IX+: nobody ranks above the holder, so its Verleumdung could move nobody."""
    sc = round_played([spent(ablage=["Verleumdung"]), spent()])
    assert not may_descend(sc.state, 0)
    assert sc.state["result"]["end"] == "standstill" and sc.event_types()[-2:] == ["standstill", "end"]


def test_once_verleumdung_is_spent_the_standstill_comes():
    sc = Scenario([spent(rank="IX", auslage=["Mysterium des Lichts", "Vision", "Verleumdung"]), spent()])
    assert not standstill(sc.state)
    sc.activate(0, "Verleumdung", 0)
    assert sc.rank(1) == "IX"  # the leader descended
    sc.end_turn(0)
    sc.end_turn(1)
    assert sc.state["result"] is not None and sc.state["result"]["end"] == "standstill"


def test_the_table_says_why_a_standstill_ended_the_game():
    sc = round_played([spent(), spent()])
    for lang, words in (("de", ("Stillstand", "gedruckte Regelheft")), ("en", ("Standstill", "printed rules"))):
        ctx = PLUGIN.board_context(ENGINE.view(sc.state, 0), 0, [], lang)
        assert all(w in ctx["ord"]["end_why"] for w in words)
    ended = round_played([spent(rank="IX"), spent()])  # a Stillstand with different ranks
    ctx = PLUGIN.board_context(ENGINE.view(ended.state, 1), 1, [], "en")
    assert ctx["ord"]["end_why"] and ctx["ord"]["result"][0]["seat"] == 1
    fixed = Scenario([{"path": "schwert"}, {"path": "hammer"}], options={"rounds": 1})
    fixed.end_turn(0)
    fixed.end_turn(1)
    assert fixed.state["result"] is not None and "end" not in fixed.state["result"]
    assert PLUGIN.board_context(ENGINE.view(fixed.state, 0), 0, [], "en")["ord"]["end_why"] == ""


# -- house rules in plain sight ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_rules_pages_list_every_house_rule_with_its_reason(lang):
    page = (RULES_PAGES / f"orden.{lang}.html").read_text()
    head = {"de": "Wo diese Seite vom gedruckten Regelheft abweicht",
            "en": "Where this site differs from the printed rules"}[lang]
    assert f'<h2 id="house">{head}</h2>' in page
    section = page.split('<h2 id="house">', 1)[1].split("<h2", 1)[0]
    for key, (de, en, why_de, why_en) in house.RULES.items():
        rule, why = (de, why_de) if lang == "de" else (en, why_en)
        assert html.escape(rule, quote=False) in section, key
        assert html.escape(why, quote=False) in section, key


def test_the_deck_builders_refusals_quote_the_house_rule():
    hammer = decks.starter("hammer")
    two_castles = {**hammer, "cards": sorted(hammer["cards"] + [no_of("Klosterburg")])}
    with pytest.raises(decks.DeckError) as e:
        decks.validate(two_castles)
    assert house.RULES["one_burg"][0] in e.value.de and house.RULES["one_burg"][1] in e.value.en
    assert house.RULES["one_burg"][2] in e.value.de and house.RULES["one_burg"][3] in e.value.en
    too_many = {**hammer, "cards": sorted(hammer["cards"] + [no_of("Einladung")] * 3)}
    with pytest.raises(decks.DeckError) as e:
        decks.validate(too_many)
    assert house.RULES["copies"][0] in e.value.de and house.RULES["copies"][1] in e.value.en


# -- paying in one click ------------------------------------------------------------------------------

def paying_scenario():
    """Vor den Mauern's ascent: „Lege 4x T von der Hand oder aus der Auslage ab“, with a hand of
    Gehorsam (2x T or 1x ?), Treueschwur (2x T), Einladung and Das Versprechen (1x T each)."""
    sc = Scenario([{"path": "schwert", "hand": ["Einladung", "Gehorsam", "Das Versprechen", "Treueschwur"]},
                   {"path": "hammer"}])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Vor den Mauern"), "ability": 1})
    sc.pass_idle()
    assert sc.state["phase"] == "pay"
    return sc


def test_the_payment_prompt_offers_the_cheapest_covering_set_first():
    sc = paying_scenario()
    legal = sc.legal(0)
    first = legal[0]
    assert set(first) == {"type", "cards"} and first["type"] == "pay"
    assert sorted(sc._names(first["cards"])) == ["Gehorsam", "Treueschwur"]  # 2 cards cover 4x T
    singles = [a for a in legal[1:] if "card" in a]
    assert len(singles) == 4 and len(legal) == 5  # each card can still be chosen
    ctx = PLUGIN.board_context(ENGINE.view(sc.state, 0), 0, legal, "en")
    top = ctx["ord"]["payments"][0]
    assert top.get("set") and json.loads(top["json"]) == first
    assert "Obedience" in top["label"] and "Oath of Fealty" in top["label"]
    step = sc.do(0, first)
    assert sc.rank(0) == "I" and step.reveals
    assert sorted(sc.zone(0, "ablage") + sc.zone(0, "deck")) == ["Gehorsam", "Treueschwur"]  # paid (the
    # empty Nachziehstapel took the Ablage at once)
    assert sorted(sc.zone(0, "hand")) == ["Das Versprechen", "Einladung"]


def test_the_payment_is_changeable_card_by_card():
    sc = paying_scenario()
    pick = next(a for a in sc.legal(0) if "card" in a and sc._names([a["card"]]) == ["Einladung"])
    sc.do(0, pick)
    assert sc.state["phase"] == "pay"
    first = sc.legal(0)[0]
    assert "cards" in first and "Einladung" not in sc._names(first["cards"]) and len(first["cards"]) == 2
    sc.do(0, first)
    assert sc.rank(0) == "I" and "Einladung" not in sc.zone(0, "hand")


def test_a_set_that_was_not_offered_is_refused():
    sc = paying_scenario()
    ids = [a["card"] for a in sc.legal(0) if "card" in a]
    err = sc.illegal(0, {"type": "pay", "cards": ids})  # all four: not the offered set
    assert "does not help" in str(err) or "not possible" in str(err)
    assert sc.illegal(0, {"type": "pay", "cards": "x"})


# -- Wählen without a pile question -------------------------------------------------------------------

def test_wahlen_asks_no_pile_question_when_the_card_lies_in_both_piles():
    sc = Scenario([{"path": "schwert", "deck": ["Einladung", "Kraft"], "ablage": ["Einladung"]}, {"path": "hammer"}])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Vor den Mauern"), "ability": 0})
    sc.pass_idle()
    assert sc.state["phase"] == "choose"
    legal = sc.legal(0)
    assert {(a["card"], a["zone"]) for a in legal} == {(no_of("Einladung"), "deck"), (no_of("Einladung"), "ablage")}
    ctx = PLUGIN.board_context(ENGINE.view(sc.state, 0), 0, legal, "de")
    buttons = [json.loads(b["json"]) for b in ctx["ord"]["choose"]]
    assert buttons == [{"type": "choose", "card": no_of("Einladung"), "zone": "ablage"}]
    sc.do(0, buttons[0])
    assert "Einladung" in sc.zone(0, "hand") and "Einladung" not in sc.zone(0, "ablage")


def test_a_card_in_play_is_a_different_choice():
    sc = Scenario([{"path": "schwert", "auslage": ["Einladung"], "ablage": ["Einladung"], "deck": ["Kraft"]},
                   {"path": "hammer"}])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Vor den Mauern"), "ability": 0})
    sc.pass_idle()
    legal = sc.legal(0)
    ctx = PLUGIN.board_context(ENGINE.view(sc.state, 0), 0, legal, "en")
    zones = sorted(json.loads(b["json"])["zone"] for b in ctx["ord"]["choose"])
    assert zones == ["ablage", "auslage"]


# -- 5 and 6 players ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [5, 6])
def test_n_players_set_up_and_play_to_the_end(n):
    paths = ("schwert", "hammer", "buch")
    st = ENGINE.setup(n, {}, 40 + n, [{"deck": f"starter:{paths[i % 3]}"} for i in range(n)])
    assert st["n"] == n and all(len(p["hand"]) == 7 for p in st["p"])
    view = ENGINE.view(st, n - 1)
    assert len(view["seats"]) == n and "hand" in view["seats"][n - 1]
    rng = Rng(n)
    for _ in range(60000):
        if ENGINE.outcome(st) is not None:
            break
        mover = ENGINE.to_move(st)[0]
        st = ENGINE.apply(st, mover, BOTS["heuristic"](st, mover, rng)).state
    out = ENGINE.outcome(st)
    assert out is not None
    assert sorted(p["place"] for p in out["placements"]) == list(range(1, n + 1))


def test_seven_players_are_refused():
    from games.base import BadOptions
    with pytest.raises(BadOptions) as e:
        ENGINE.setup(7, {}, 1, [{} for _ in range(7)])
    assert "2 to 6" in e.value.text("en") and "2 bis 6" in e.value.text("de")
