"""Card data that cannot be wrong silently.

The lint runs over every loaded card file: no rule twice on a card (the schema refuses it at
load time, and the printed text shows it), and the printed text follows every field of the
data that changes behaviour — each such field is changed in turn and the generated text must
change with it, so two cards that play differently never read alike."""
import json
from dataclasses import replace
from pathlib import Path

import pytest

from games.orden.catalog import CARD_DIR, cardset
from games.orden.schema import (FORCE_ZONES, LIMITS, PLAIN, PROPS, RANKS, TYPES, WAPPEN, WHO, WILD, ZONES,
                                CardError, Condition, Cost, Selector, Static, Verb, parse_card)
from games.orden.text import ability as ability_text
from games.orden.text import card_text, delivery_line

CARDS = list(cardset().cards.values())
NAMES = sorted(cardset().by_name)

# the fields of each primitive that its kind reads (the rest keep their defaults)
VERB_FIELDS = {"draw": ("n",), "ascend": ("n",), "descend": ("n", "who"), "choose": ("n", "select", "to", "zones"),
               "extra": ("n", "limit"), "force_discard": ("n", "who", "src", "select", "weaker"),
               "prevent": (), "discard_self": (), "remove_self": ()}
COND_FIELDS = {"rank_at_least": ("rank",), "rank_below": ("rank",), "rank_in_pfad": ("rank",),
               "possess": ("select", "count"), "lacks": ("select",), "possess_props": ("props",), "behind": (), "yet_to_move": (),
               "next_to_move": (), "stronger": ("prop",)}
STATIC_FIELDS = {"limit": ("limit", "plus"), "opp_limit": ("limit", "plus"), "ban": ("select",),
                 "multiply": ("prop", "factor")}
DOMAIN = {"who": WHO, "to": ("hand", "play", "play_now"), "limit": LIMITS, "src": FORCE_ZONES, "weaker": PLAIN,
          "rank": tuple(RANKS), "zone": ZONES, "prop": PLAIN, "verb": ("discard", "remove"),
          "type": TYPES, "wappen": WAPPEN, "delivers": PROPS + (WILD,), "name": NAMES}


def _variants(value, key):
    """Other values of one field: numbers ±1, enumerations every other member, selectors and
    property lists field by field."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [v for v in (value + 1, value - 1) if v != 0]
    if isinstance(value, Selector):
        return [replace(value, **{f: v}) for f in ("name", "type", "wappen", "delivers")
                for v in DOMAIN[f] if v != getattr(value, f)][:40]
    if key == "props":
        out = []
        for i, (p, n) in enumerate(value):
            rest = value[:i] + value[i + 1:]
            out.append(tuple(sorted(rest + ((p, n + 1),))))
            out += [tuple(sorted(rest + ((q, n),))) for q in PROPS + (WILD,) if q != p and q not in dict(rest)]
        return out
    if key == "zones":
        return [value[:-1]] if len(value) > 1 else [value + ("ablage" if "ablage" not in value else "hand",)]
    if key in DOMAIN:
        return [v for v in DOMAIN[key] if v != value]
    if value is None:
        return []
    raise AssertionError(f"no variants for {key}={value!r}")


def _mutants(x):
    """(description, mutant) for every behaviour-bearing field of a primitive."""
    if isinstance(x, Verb):
        keys = VERB_FIELDS[x.kind]
    elif isinstance(x, Condition):
        keys = COND_FIELDS[x.kind]
    elif isinstance(x, Static):
        keys = STATIC_FIELDS[x.kind]
    elif isinstance(x, Cost):
        keys = ("verb",) if x.what == "self" else ("verb", "zone") + (("props",) if x.what == "props" else ("select", "count"))
    else:
        raise AssertionError(type(x))
    for k in keys:
        v = getattr(x, k)
        if k == "weaker" and v is None:
            continue
        alts = ("play", "actions") if isinstance(x, Verb) and k == "limit" else _variants(v, k)
        for alt in alts:
            if alt == v:
                continue
            yield f"{type(x).__name__}.{k}={alt!r}", replace(x, **{k: alt})


def _ability_mutants(a):
    for attr in ("conditions", "costs", "verbs", "statics"):
        items = getattr(a, attr)
        for i, x in enumerate(items):
            for what, m in _mutants(x):
                yield f"{attr}[{i}] {what}", replace(a, **{attr: items[:i] + (m,) + items[i + 1:]})
    if a.when is not None:
        for what, m in _mutants(a.when):
            yield f"when {what}", replace(a, when=m)


def _safe_text(a, lang):
    try:
        return ability_text(a, lang)
    except (KeyError, ValueError, AttributeError, TypeError):
        return None  # a mutant the text cannot express at all differs from the original


@pytest.mark.parametrize("card", CARDS, ids=lambda c: f"{c.no}-{c.name.en}")
def test_no_rule_twice_on_a_card(card):
    for lang in ("de", "en"):
        lines = card_text(card, lang)
        assert len(lines) == len(set(lines)), f"{card.no} {card.name.de}: a line twice: {lines}"
    for i, a in enumerate(card.abilities):
        assert a not in card.abilities[:i], f"{card.no} {card.name.de}: rules[{i}] repeats an earlier rule"
    limits = [(st.limit, a.conditions) for a in card.abilities for st in a.statics if st.kind == "limit"]
    assert len(limits) == len(set(limits)), f"{card.no} {card.name.de}: one limit changed twice"


@pytest.mark.parametrize("card", CARDS, ids=lambda c: f"{c.no}-{c.name.en}")
def test_generated_text_follows_every_field_of_the_data(card):
    gaps = []
    for ai, a in enumerate(card.abilities):
        for lang in ("de", "en"):
            base = ability_text(a, lang)
            for what, m in _ability_mutants(a):
                if m == a:
                    continue
                if _safe_text(m, lang) == base:
                    gaps.append(f"rules[{ai}] {what} ({lang}): {base}")
    for di, d in enumerate(card.liefert):
        for lang in ("de", "en"):
            base = delivery_line(card, lang)
            for alt in _variants(d.props, "props"):
                liefert = card.liefert[:di] + (replace(d, props=alt),) + card.liefert[di + 1:]
                if delivery_line(replace(card, liefert=liefert), lang) == base:
                    gaps.append(f"liefert[{di}] props={alt} ({lang})")
    assert not gaps, f"{card.no} {card.name.de}: the text does not show\n" + "\n".join(gaps[:20])


def test_no_two_different_rules_read_alike():
    seen = {}
    for c in CARDS:
        for a in c.abilities:
            for lang in ("de", "en"):
                t = ability_text(a, lang)
                assert seen.setdefault((lang, t), a) == a, f"two different rules print as {t!r}"


def _card_dict(no):
    for path in sorted(CARD_DIR.glob("*.json")):
        for d in json.loads(Path(path).read_text(encoding="utf-8"))["cards"]:
            if d["no"] == no:
                return d
    raise AssertionError(no)


@pytest.mark.parametrize("no", [16, 20])
def test_the_schema_refuses_a_repeated_rule(no):
    # the issue's data defect: Dekan (16) and Großmeister (20) carried AKTIONEN+1 (and the
    # Großmeister its cheap ascent) three times
    d = _card_dict(no)
    assert parse_card(d).no == no
    for rule in d["rules"]:
        bad = {**d, "rules": d["rules"] + [rule]}
        with pytest.raises(CardError, match="repeats"):
            parse_card(bad)


def test_the_schema_refuses_a_limit_changed_twice_under_the_same_conditions():
    d = _card_dict(16)
    bad = {**d, "rules": d["rules"] + [{"kind": "effekt", "static": [{"limit": "actions", "plus": 2}]}]}
    with pytest.raises(CardError, match="give the total once"):
        parse_card(bad)
    ok = {**d, "rules": d["rules"] + [{"kind": "effekt", "if": [{"rank_at_least": "VII"}],
                                        "static": [{"limit": "actions", "plus": 1}]}]}
    assert parse_card(ok)


def test_a_verb_twice_in_one_rule_is_refused():
    d = _card_dict(16)
    bad = {**d, "rules": [{"kind": "effekt", "once_per_turn": True, "do": [{"draw": 1}, {"draw": 1}]}]}
    with pytest.raises(CardError, match="repeats an earlier entry"):
        parse_card(bad)


def test_the_card_table_in_the_docs_is_the_current_data():
    """docs/games/orden.md lists every current card with its generated text; a card change that
    forgets the page fails here (rewrite it with games/orden/doc_table.py)."""
    from games.orden import doc_table as T

    lines, table = T.DOC.read_text().split("\n"), T.current_table()
    start, end = T.table_span(lines, table[0])
    assert lines[start:end] == table, "run .venv/bin/python -m games.orden.doc_table"
