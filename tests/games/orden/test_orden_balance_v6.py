"""Data version 6 — a reaction that prevents an ascent costs its owner for good.

On version 5 a preventer was discarded and came straight back: in a late game every deck lies in
its Auslage, so the empty Nachziehstapel takes the Ablage in at once and the end-of-turn draw hands
the Einspruch (or Dekan's 2x W) back; the ascent it stopped cost its actor nothing. 8 of 150
3-player lookahead games prevented each other's ascents until the 300-round cap
(bench/orden/stalls.py). Now Einspruch, Bestechung, Ruf zu den Waffen and Disputation remove
themselves, and Dekan removes the 2x W it pays with: every prevention shrinks its owner's cards,
so preventions run out and the game ends. A match set up under version 5 keeps its cards.

Pilgerfahrt (179 → 379) is paid with itself besides: "discard 2, draw 3" from the Auslage was a card
engine any deck could take; one Pilgerfahrt for a Demut lifted the Schwert starter from 48.0 to
68.5 % against the Hammer starter (seeds 1000-1099, 200 games; docs/games/orden.md, "Balance (data
version 6)"); paid with itself as well, 46.0 %."""
import pytest
from orden_scenario import CS, Scenario, no_of

from games.orden import decks
from games.orden.plugin import PLUGIN

T_HAND = ["Treueschwur", "Gehorsam", "Gehorsam"]
FILL = ["Demut"] * 10
NEW = {"Einspruch": (175, 275), "Bestechung": (238, 338), "Ruf zu den Waffen": (223, 323),
       "Disputation": (246, 346), "Dekan": (35, 42), "Pilgerfahrt": (179, 379)}


def _may_prevent_an_ascent(rule) -> bool:
    # (the schema gives a reaktion without "on" its default, "aktion"; "hostile" never meets an ascent)
    return rule.kind == "reaktion" and rule.on in ("ascend", "aktion") and any(
        v.kind == "prevent" for v in rule.verbs)


def test_every_reaction_that_can_prevent_an_ascent_removes_a_card():
    """The data lint behind the fix: with discard-only payments prevention is free for ever."""
    offenders = [c.name.de for c in CS.cards.values() if c.in_version(decks.CURRENT)
                 for r in c.abilities if _may_prevent_an_ascent(r) and not any(p.verb == "remove" for p in r.costs)]
    assert offenders == []
    old = {c.name.de for c in CS.cards.values() if c.in_version(5)
           for r in c.abilities if _may_prevent_an_ascent(r) and not any(p.verb == "remove" for p in r.costs)}
    assert old == set(NEW) - {"Pilgerfahrt"}  # what version 5 let loop


def test_new_numbers_and_the_old_ones_retired():
    for name, (old, new) in NEW.items():
        assert no_of(name, 6) == new and CS.cards[old].until == 5 and CS.cards[new].since == 6, name


def test_einspruch_removes_itself_and_pays_its_treue_to_the_ablage():
    # version 20's Einspruch (275): version 21's (475) costs only itself
    sc = Scenario([{"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft"],
                    "deck": FILL},
                   {"path": "hammer", "rank": "IV", "hand": ["Einspruch"] + T_HAND, "deck": FILL}], version=20)
    sc.activate(0, "Knappe", 1, pay=["Mächtige Statur", "Mächtige Statur", "Kraft"])
    sc.react(1, "Einspruch", 0, pay=["Treueschwur"])
    assert sc.rank(0) == "IV"
    assert sc.zone(1, "aussen") == ["Einspruch"] and sc.zone(1, "ablage") == ["Treueschwur"]


def test_dekan_removes_the_two_w_it_prevents_with():
    sc = Scenario([{"path": "schwert", "rank": "IV", "auslage": ["Kraft"], "deck": FILL},
                   {"path": "buch", "rank": "VI+", "plus6": True, "hand": ["Schriftrolle", "Schriftrolle"], "deck": FILL}])
    sc.activate(0, "Kraft", 0)
    sc.react(1, "Dekan", 1, pay=["Schriftrolle", "Schriftrolle"])
    assert sorted(sc.zone(1, "aussen")) == ["Schriftrolle", "Schriftrolle"] and sc.zone(1, "ablage") == []


def test_version_5_matches_keep_their_preventers():
    old = PLUGIN.setup_recorded("5", 2, {}, 5, [{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert old["v"] == 5 and 175 in old["ci"] and 275 not in old["ci"]
    new = PLUGIN.setup_recorded("6", 2, {}, 5, [{"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    assert new["v"] == 6 and 275 in new["ci"] and 175 not in new["ci"]
    deck = decks.starter("hammer", 6)
    with pytest.raises(decks.DeckError, match="old version"):
        decks.validate({**deck, "cards": [175 if no == 275 else no for no in deck["cards"]]})


def test_the_3_player_table_game_that_never_ended_now_ends():
    """Table game 12 at 3 players (lookahead on every seat) passed round 300 on version 5."""
    from bench.orden import stalls as S

    paths, seed, st, _ = S.play(3, 12, 60, "lookahead")
    assert st["result"] is not None, S.report(paths, st)


def test_pilgerfahrt_pays_with_itself_and_two_cards_for_three():
    sc = Scenario([{"auslage": ["Pilgerfahrt"], "hand": ["Demut", "Gehorsam", "Kraft"], "deck": ["Talent"] * 5},
                   {"deck": FILL}])
    sc.activate(0, "Pilgerfahrt", 0, pay=["Demut", "Gehorsam"])
    assert sorted(sc.zone(0, "ablage")) == ["Demut", "Gehorsam", "Pilgerfahrt"]
    assert sorted(sc.zone(0, "hand")) == ["Kraft", "Talent", "Talent", "Talent"] and sc.zone(0, "auslage") == []
