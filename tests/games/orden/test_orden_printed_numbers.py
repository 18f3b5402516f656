"""Every card's printed text, read in both languages, carries exactly the numbers of its data:
the properties with their counts, the limit changes, the floor a lowering keeps, and every other
count (cards drawn, chosen, discarded, extra plays and actions, levels, multipliers). The text is
generated from the data (games/orden/text.py); this reads it back, so a generator slip that
drops, doubles or misplaces a number fails here."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from games.orden.catalog import cardset
from games.orden.schema import FLOORS
from games.orden.text import card_text

PAIR = re.compile(r"(\d+)x ([TKVWES?])")
LIMIT_WORDS = {"AUSSPIELEN": "play", "AKTIONEN": "actions", "HANDLIMIT": "hand",
               "PLAYS": "play", "ACTIONS": "actions", "HAND LIMIT": "hand"}
LIMIT = re.compile(r"(HAND LIMIT|HANDLIMIT|AUSSPIELEN|AKTIONEN|PLAYS|ACTIONS)([+-]\d+)")
FLOOR = re.compile(r"\((?:aber mindestens|but at least) (\d+)\)")
DOUBLE = re.compile(r"\b(doppelt|double)\b")


def _selector_count(n):
    return [n] if n > 1 else []  # one card reads as an article („eine Karte“, „a CASTLE“)


def data_numbers(card):
    """(property pairs, limit changes, floors, other numbers > 1) the data says the text must show."""
    pairs, limits, floors, other = Counter(), Counter(), Counter(), Counter()

    def conds(cs):
        for c in cs:
            if c.kind == "possess_props":
                pairs.update((n, p) for p, n in c.props)
            elif c.kind == "possess":
                other.update(_selector_count(c.count))

    for d in card.liefert:
        pairs.update((n, p) for p, n in d.props)
        conds(d.conditions)
    if card.level:
        other[card.level] += 1
    for a in card.abilities:
        conds(a.conditions)
        if a.when is not None:
            conds((a.when,))
        for c in a.costs:
            if c.what == "props":
                pairs.update((n, p) for p, n in c.props)
            elif c.what == "cards":
                other.update(_selector_count(c.count))
        for v in a.verbs:
            if v.kind in ("draw", "extra", "force_discard"):
                other[v.n] += 1
            elif v.kind in ("ascend", "descend", "choose"):
                other.update(_selector_count(v.n))
        for st in a.statics:
            if st.kind == "limit":
                limits[(st.limit, st.plus)] += 1
                if st.plus < 0:
                    floors[FLOORS[st.limit]] += 1
            elif st.kind == "opp_limit":
                limits[(st.limit, -st.plus)] += 1
                floors[FLOORS[st.limit]] += 1
            elif st.kind == "multiply":
                other[st.factor] += 1
    return pairs, limits, floors, Counter({n: k for n, k in other.items() if n > 1})


def text_numbers(text):
    pairs = Counter((int(n), p) for n, p in PAIR.findall(text))
    limits = Counter((LIMIT_WORDS[w], int(n)) for w, n in LIMIT.findall(text))
    floors = Counter(int(n) for n in FLOOR.findall(text))
    rest = FLOOR.sub("", LIMIT.sub("", PAIR.sub("", text)))
    other = Counter(int(n) for n in re.findall(r"\d+", rest))
    other[2] += len(DOUBLE.findall(rest))
    return pairs, limits, floors, Counter({n: k for n, k in other.items() if n > 1}), other[1]


CARDS = sorted(cardset().cards.values(), key=lambda c: c.no)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("card", CARDS, ids=lambda c: str(c.no))
def test_the_printed_numbers_are_the_data(card, lang):
    text = " ".join(card_text(card, lang))
    want = data_numbers(card)
    got = text_numbers(text)
    assert got[0] == want[0], f"{card.name.de} ({lang}) properties: {text}"
    assert got[1] == want[1], f"{card.name.de} ({lang}) limits: {text}"
    assert got[2] == want[2], f"{card.name.de} ({lang}) floors: {text}"
    assert got[3] == want[3], f"{card.name.de} ({lang}) counts: {text}"


def test_a_lowering_names_its_floor_and_the_engine_keeps_it():
    """Burg Falkenstein: „Jeder Mitspieler hat AUSSPIELEN-1 (aber mindestens 1)“ — the text names
    the floor the engine applies (rules.limit), in both languages."""
    falk = next(c for c in CARDS if c.name.de == "Burg Falkenstein" and c.until is None)
    assert "Jeder Mitspieler hat AUSSPIELEN-1 (aber mindestens 1)" in " ".join(card_text(falk, "de"))
    assert "Each opponent has PLAYS-1 (but at least 1)" in " ".join(card_text(falk, "en"))


def test_the_reader_sees_a_changed_number():
    """The reader is not blind: a text with one number changed no longer matches its data."""
    card = next(c for c in CARDS if c.name.de == "Burg Falkenstein" and c.until is None)
    text = " ".join(card_text(card, "en"))
    for bad in (text.replace("PLAYS-1", "PLAYS-2"), text.replace("at least 1", "at least 2"),
                text.replace("2x K", "3x K")):
        assert text_numbers(bad)[:4] != data_numbers(card)
