"""The board partial renders with Django's built-in tags only, for every seat and phase,
and offers a form for every legal action."""
import html
import json
from pathlib import Path

import django

from games.orden.roster import BOTS
from games.orden.engine import ENGINE
from games.orden.plugin import PLUGIN
from games.rng import Rng

TEMPLATES = Path(__file__).resolve().parents[3] / "games" / "orden" / "templates"


def engine():
    from django.conf import settings
    if not settings.configured:
        settings.configure(USE_I18N=False)
        django.setup()
    from django.template import Engine
    return Engine(dirs=[str(TEMPLATES)], libraries={"static": "django.templatetags.static"})


def render(st, seat, lang):
    from django.template import Context
    view = ENGINE.view(st, seat)
    legal = ENGINE.legal_actions(st, seat) if seat is not None else []
    ctx = {"view": view, "seat": seat, "legal": legal, "lang": lang, "act_url": "/act/", "version": 3,
           "names": ["Ada", "Bert", "Cleo"], "csrf_token": "tok"}
    ctx.update(PLUGIN.board_context(view, seat, legal, lang))
    out = engine().get_template(PLUGIN.board_template).render(Context(ctx))
    return out, legal


def test_board_renders_every_legal_action_in_every_phase():
    st = ENGINE.setup(3, {}, 11, [{"deck": "starter:schwert"}, {"deck": "starter:hammer"}, {"deck": "starter:buch"}])
    rng = Rng(3)
    phases = set()
    for step in range(400):
        if ENGINE.outcome(st) is not None:
            break
        mover = ENGINE.to_move(st)[0]
        if step % 7 == 0 or st["phase"] != "main":
            phases.add(st["phase"])
            for seat in (mover, None):
                out, legal = render(st, seat, "de" if step % 2 else "en")
                for a in legal:
                    if a["type"] == "choose" and a["zone"] == "deck" and {**a, "zone": "ablage"} in legal:
                        # Wählen: the same card in both piles is one choice (presentation.PILES)
                        assert html.escape(json.dumps(a, separators=(",", ":"))) not in out
                        a = {**a, "zone": "ablage"}
                    assert html.escape(json.dumps(a, separators=(",", ":"))) in out, a
                assert 'name="version" value="3"' in out or not legal
        st = ENGINE.apply(st, mover, BOTS["heuristic"](st, mover, rng)).state
    out, _ = render(st, 0, "de")
    assert "Vor den Mauern" in out or "Seliger" in out
    assert {"main", "pay"} <= phases


def test_action_from_form_reads_the_action_field():
    a = PLUGIN.action_from_form({"action": '{"type":"play","card":"12"}', "version": "3"})
    assert a == {"type": "play", "card": 12}


def test_card_markup_built_in_python_is_what_card_html_prints():
    """presentation.card_html stands in for card.html on cards without buttons: every card of
    the catalogue, both languages, with and without id, mark, reason and a label of its own."""
    from django.template import Context

    from games.orden import rules as R
    from games.orden.presentation import T, card_html, card_view

    template = engine().get_template("orden/card.html")
    for lang in ("de", "en"):
        for i, no in enumerate(sorted(R.C)):
            c = card_view(no, None if i % 3 == 0 else i, lang, last=i % 2 == 0)
            if i % 4 == 1:
                c["why"] = "Nicht <jetzt> & \"nie\""
                if i % 8 == 1:
                    c["off_label"] = T[lang]["use_card"]
            if i % 5 == 0:
                c["rows"] = 1
            expected = template.render(Context({"c": c, "ord": {"t": T[lang]}, "act_url": "/act/", "version": 1}))
            assert card_html(c, lang) == expected, (lang, no)
    assert card_html(card_view(next(iter(R.C)), 1, "de", actions=[{"label": "x"}]), "de") is None
