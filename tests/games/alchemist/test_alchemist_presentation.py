"""Log lines, form parsing, board context and the board template (rendered standalone)."""
import re
from html.parser import HTMLParser
from itertools import product
from pathlib import Path

import pytest

import games.alchemist as pkg
from games.alchemist import PLUGIN
from games.alchemist.testing import arrange, playout
from games.base import IllegalAction

E = PLUGIN.engine
NAMES = ["Abigail", "Merlin", "Morgana"]


# -- describe --------------------------------------------------------------------------------
def test_describe_design_and_copy_read_like_the_rules():
    design = {"type": "design", "seat": 0, "cauldron": 6,
              "ingredients": {"blue": 2, "grey": 2, "orange": 1}, "value": 9,
              "byproducts": ["green", "yellow"]}
    de = PLUGIN.describe(design, NAMES, "de")
    assert de == ("Abigail entwirft eine neue Rezeptur in Kessel 7 (Schlangengift/Spinnen): "
                  "2 Pilze, 2 Vogelbeine, 1 Trollauge; Ruhmesplättchen 9: 9 Ruhmespunkte. "
                  "Nebenprodukte: 1 Schlangengift, 1 Spinne.")
    en = PLUGIN.describe(design, NAMES, "en")
    assert en.startswith("Abigail designs a new recipe in cauldron 7") and "2 mushrooms" in en
    copy = {"type": "copy", "seat": 1, "cauldron": 6, "owner": 0,
            "ingredients": {"blue": 2, "grey": 2, "orange": 1}, "tribute": "grey", "value": 9,
            "byproducts": ["green", "yellow"]}
    assert PLUGIN.describe(copy, NAMES, "de") == (
        "Merlin kopiert den Trank von Abigail: 9 Ruhmespunkte. Tribut an Abigail: 1 Vogelbein; "
        "aus dem Spiel: 2 Pilze, 1 Vogelbein, 1 Trollauge. Nebenprodukte: 1 Schlangengift, 1 Spinne.")
    assert PLUGIN.describe(copy, NAMES, "en").startswith(
        "Merlin copies Abigail's potion: 9 fame points. Tribute to Abigail: 1 bird leg")


@pytest.mark.parametrize("event,de,en", [
    ({"type": "pass_take", "seat": 2, "colour": "yellow"},
     "Morgana passt und nimmt 1 Spinne aus dem offenen Vorrat.",
     "Morgana passes and takes 1 spider from the reserve."),
    ({"type": "pass_draw", "seat": 1, "count": 2},
     "Merlin passt und zieht 2 Ingredienzien aus dem Beutel.",
     "Merlin passes and draws 2 ingredients from the bag."),
    ({"type": "drawn", "seat": 1, "ingredients": {"blue": 1, "yellow": 1}, "to": [1]},
     "Merlin zieht aus dem Beutel: 1 Pilz, 1 Spinne.", "Merlin draws from the bag: 1 mushroom, 1 spider."),
    ({"type": "pass_empty", "seat": 0}, "Abigail passt; Vorrat und Beutel sind leer.",
     "Abigail passes; reserve and bag are empty."),
    ({"type": "end", "round": 9, "exhausted": ["blue", "green", "grey"]},
     "Ende des Wettstreits nach Runde 9: im offenen Vorrat sind 3 Sorten aufgebraucht "
     "(Pilze, Schlangengift, Vogelbeine).",
     "The contest ends after round 9: 3 kinds are gone from the reserve "
     "(mushrooms, snake venom, bird legs)."),
    ({"type": "score", "seat": 0, "fame": 40, "leftover_points": 3, "school_rank": 1,
      "school_points": 10, "total": 53, "place": 1, "ingredients": {"grey": 7}, "school": "blue"},
     "Abigail: 40 Ruhmespunkte + 3 für übrige Ingredienzien (7 Vogelbeine) + 10 für Rang I der "
     "Schule (Pilze) = 53, Platz 1.",
     "Abigail: 40 fame points + 3 for leftover ingredients (7 bird legs) + 10 for rank I of the "
     "school (mushrooms) = 53, place 1."),
])
def test_describe_other_events(event, de, en):
    assert PLUGIN.describe(event, NAMES, "de") == de
    assert PLUGIN.describe(event, NAMES, "en") == en


# -- forms ---------------------------------------------------------------------------------
def test_action_from_form():
    f = PLUGIN.action_from_form
    assert f({"type": "design", "cauldron": "6", "value": "9", "recipe": "blue:2,grey:2,orange:1",
              "version": "3", "csrfmiddlewaretoken": "x"}) == {
        "type": "design", "cauldron": 6, "ingredients": {"blue": 2, "grey": 2, "orange": 1}, "value": 9}
    assert f({"type": "design", "cauldron": "6", "value": "9", "blue": "2", "grey": "1", "orange": "0"}) == {
        "type": "design", "cauldron": 6, "ingredients": {"blue": 2, "grey": 1}, "value": 9}
    assert f({"type": "copy", "cauldron": "6", "tribute": "grey"}) == {
        "type": "copy", "cauldron": 6, "tribute": "grey"}
    assert f({"type": "pass", "take": "yellow"}) == {"type": "pass", "take": "yellow"}
    assert f({"type": "pass", "draw": "1"}) == {"type": "pass", "draw": True}
    assert f({"type": "pass"}) == {"type": "pass"}


@pytest.mark.parametrize("data", [
    {}, {"type": "fly"}, {"type": "design", "cauldron": "x", "value": "9", "recipe": "blue:1"},
    {"type": "design", "cauldron": "1", "value": "", "recipe": "blue:1"},
    {"type": "design", "cauldron": "1", "value": "3", "recipe": "purple:1"},
    {"type": "design", "cauldron": "1", "value": "3", "recipe": "blue:1,blue:1"},
    {"type": "design", "cauldron": "1", "value": "3", "recipe": "blue:-1"},
    {"type": "design", "cauldron": "1", "value": "3"},
    {"type": "design", "cauldron": "1", "value": "3", "grey": "two"},
    {"type": "copy", "cauldron": "1", "tribute": "pink"}, {"type": "copy", "tribute": "blue"},
    {"type": "pass", "take": "pink"},
])
def test_action_from_form_rejects_bad_input(data):
    with pytest.raises(IllegalAction) as exc:
        PLUGIN.action_from_form(data)
    assert exc.value.reason and exc.value.reason_de


# -- template ------------------------------------------------------------------------------
class _Forms(HTMLParser):
    """Collects each <form>: attributes, hidden/radio/select fields and submit buttons."""

    def __init__(self):
        super().__init__()
        self.forms, self._select = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"attrs": a, "hidden": {}, "radio": {}, "select": {}, "buttons": []})
        elif not self.forms:
            return
        f = self.forms[-1]
        if tag == "input" and a.get("type") == "hidden":
            f["hidden"][a["name"]] = a.get("value", "")
        elif tag == "input" and a.get("type") == "radio":
            f["radio"].setdefault(a["name"], []).append(a["value"])
        elif tag == "select":
            self._select = a["name"]
            f["select"][a["name"]] = []
        elif tag == "option" and self._select:
            f["select"][self._select].append(a["value"])
        elif tag == "button" and "disabled" not in a:  # a disabled button submits nothing
            f["buttons"].append((a.get("name"), a.get("value")))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def _render(view, seat, legal, lang, names=None):
    from django.conf import settings
    from django.template import Context, Engine

    if not settings.configured:  # run without pytest-django: a bare standalone engine
        settings.configure(USE_I18N=False)

    engine = Engine(dirs=[str(Path(pkg.__file__).parent / "templates")], debug=True,
                    libraries={"static": "django.templatetags.static"})
    ctx = {"match": {"id": 1}, "view": view, "seat": seat, "legal": legal, "lang": lang,
           "act_url": "/matches/1/act/", "version": 17, "csrf_token": "TOKEN123"}
    if names:
        ctx["names"] = names
    ctx.update(PLUGIN.board_context(view, seat, legal, lang))
    return engine.get_template(PLUGIN.board_template).render(Context(ctx))


def _submissions(html):
    p = _Forms()
    p.feed(html)
    out = []
    for f in p.forms:
        assert f["attrs"]["method"] == "post" and f["attrs"]["action"] == "/matches/1/act/"
        assert f["hidden"]["version"] == "17" and f["hidden"]["csrfmiddlewaretoken"] == "TOKEN123"
        assert f["attrs"]["data-action"] == f["hidden"]["type"]
        keys = list(f["radio"]) + list(f["select"])
        for combo in product(*[f["radio"].get(k) or f["select"][k] for k in keys]):
            for name, value in f["buttons"]:
                data = dict(f["hidden"], **dict(zip(keys, combo)))
                if name:
                    data[name] = value
                out.append(PLUGIN.action_from_form(data))
    return out


def _key(a):
    import json
    return json.dumps(a, sort_keys=True)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_board_forms_offer_exactly_the_legal_moves(lang):
    states = []
    playout(3, 4, on_step=lambda st, *_: states.append(st))
    playout(2, 9, no_schools=True, on_step=lambda st, *_: states.append(st))
    for st in states[::3] + [states[-1]]:
        for seat in list(range(st["n"])) + [None]:
            legal = E.legal_actions(st, seat) if seat is not None else []
            html = _render(E.view(st, seat), seat, legal, lang)
            offered = _submissions(html)
            assert sorted(map(_key, offered)) == sorted(map(_key, legal))
            assert html.count('data-cauldron="') >= 10


def test_board_shows_screen_school_and_final():
    st = E.setup(3, {}, 2, [])
    seat = st["turn"]
    html = _render(E.view(st, seat), seat, E.legal_actions(st, seat), "de")
    assert 'class="alc-screen"' in html and "Meine Schule" in html
    assert "Pilze" in html and "mushrooms" not in html  # names in the page's language only
    assert 'data-action="design"' in html and 'data-action="pass"' in html
    spectator = _render(E.view(st, None), None, [], "en")
    assert 'class="alc-screen"' not in spectator and "<form" not in spectator
    done = playout(3, 2)
    html = _render(E.view(done, 0), 0, [], "en")
    assert 'class="alc-final"' in html and "<form" not in html
    assert "Player 2" in html
    named = _render(E.view(done, 0), 0, [], "en", names=["Abigail", "Merlin", "Morgana"])
    assert "Merlin" in named and "Player 2" not in named


def test_board_context_design_groups():
    st = arrange(E.setup(3, {}, 2, []), hands={0: {"grey": 1}}, turn=0, start=0)
    ctx = PLUGIN.board_context(E.view(st, 0), 0, E.legal_actions(st, 0), "en")["alc"]
    with_design = [c for c in ctx["cauldrons"] if c["design"]]
    assert len(with_design) == 6  # cauldrons not producing grey
    assert all(c["design"]["values"] == list(range(1, 11)) for c in with_design)
    assert all([r["code"] for r in c["design"]["recipes"]] == ["grey:1"] for c in with_design)


def test_design_form_names_each_recipe_also_with_player_names():
    """The recipe radios read "2 Pilze, 1 Vogelbein" whether or not the page passes the
    players' names (it always does on the match page)."""
    st = arrange(E.setup(3, {}, 2, []), hands={0: {"blue": 2, "grey": 1}}, turn=0, start=0)
    for names in (None, ["Abigail", "Merlin", "Morgana"]):
        html = _render(E.view(st, 0), 0, E.legal_actions(st, 0), "de", names=names)
        assert re.search(r'value="blue:2,grey:1">(<i class="c-(blue|grey)"></i>){3} <small>2 Pilze, 1 Vogelbein</small>',
                         html, re.S)
