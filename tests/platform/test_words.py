"""One language per page ("Words"): the main pages rendered in English carry no
German word of the known list, in German no English one, and neither uses "(s)"-style plural
hacks or a time that doubles the sentence's dot ("5:25 a.m.."). The rules pages' glossary names
the German original of an English term: such originals are marked ``lang="de"`` and skipped."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from lobby import services as lobby
from matches import services as matches

pytestmark = pytest.mark.django_db

# Words of the other language that have leaked into pages before (game terms, tournament options).
NOT_EN = ["Auslage", "BURG", "MYSTERIUM", "Burg ", "Eiserner Thron", "Mittelerde", "Fortgeschritten", "Ruhmespunkt",
          "Karte", "Ablage", "Nachziehstapel", "AUSSPIELEN", "AKTIONEN", "RANG ", "Spieler", " und ", "Pilze",
          "Schlangengift", "Vogelbeine", "Trollaugen", "Spinnen"]
NOT_DE = ["Display", "CASTLE", "Castle", "fame point", "draw pile", "discard pile", "Rules text", "Iron Throne",
          "Middle-earth", "Advanced", " the ", " and ", "PLAYS", "RANK ", "Take back",
          "mushrooms", "snake venom", "bird legs", "troll eyes", "spiders"]
PLURAL_HACK = re.compile(r"\w\((s|n|en|e|er)\)", re.I)
DOUBLE_DOT = re.compile(r"[ap]\.m\.\.|\.\.(?!\.)")


def visible_text(html: str, lang: str) -> str:
    """The page's text as a reader meets it: no scripts, styles, tags or attributes, and without
    the parts marked as the other language (a glossary's originals)."""
    html = re.sub(r"(?is)<(script|style|template)\b.*?</\1>", " ", html)
    other = "de" if lang == "en" else "en"
    html = re.sub(rf'(?is)<(\w+)[^>]*\blang="{other}"[^>]*>.*?</\1>', " ", html)
    html = re.sub(r"(?s)<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html)


def _site(make_user):
    from tournaments import services as tournaments

    a, b = make_user("anna"), make_user("bert")
    ids = {}
    for game in ("alchemist", "orden"):
        inv = lobby.create_invitation(a, game=game, players=2)
        lobby.join(inv.pk, b)
        inv.refresh_from_db()
        ids[game] = inv.match_id
    for _ in range(6):  # a few moves, so the log and the last-move box have lines
        for game in ("alchemist", "orden"):
            from matches.models import Match

            m = Match.objects.get(pk=ids[game])
            if m.status != "active":
                continue
            from games import registry

            plugin = registry.get(game)
            seat = plugin.engine.to_move(m.state)[0]
            user = m.seats.get(seat=seat).user
            action = plugin.engine.legal_actions(m.state, seat)[0]
            matches.submit_action(m.pk, user, action, m.version)
    open_inv = lobby.create_invitation(b, game="orden", players=3)
    t = tournaments.create_tournament(a, game="orden", name="Cup")
    return a, ids, open_inv.pk, t.pk


def _pages(ids, inv, t):
    return ["/lobby/", "/my-games/", f"/matches/{ids['alchemist']}/", f"/matches/{ids['orden']}/",
            f"/matches/{ids['orden']}/replay/", f"/invitations/{inv}/", "/invitations/new/orden/",
            "/invitations/new/alchemist/", "/games/alchemist/rules/", "/games/orden/rules/", "/tournaments/",
            "/tournaments/new/", f"/tournaments/{t}/", "/notifications/", "/accounts/profile/", "/help/"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_main_pages_speak_one_language(client, make_user, lang):
    user, ids, inv, t = _site(make_user)
    user.profile.language = lang
    user.profile.save()
    client.force_login(user)
    wrong = NOT_EN if lang == "en" else NOT_DE
    problems = []
    for path in _pages(ids, inv, t):
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code)
        text = visible_text(r.content.decode(), lang)
        for word in wrong:
            if word in text:
                i = text.index(word)
                problems.append(f"{lang} {path}: {word!r} in …{text[max(0, i - 60):i + 60]}…")
        for pattern in (PLURAL_HACK, DOUBLE_DOT):
            for m in pattern.finditer(text):
                problems.append(f"{lang} {path}: {m.group()!r} in …{text[max(0, m.start() - 60):m.end() + 60]}…")
    assert not problems, "\n".join(problems)


def test_plural_forms_in_log_lines():
    from games import registry

    orden, alchemist = registry.get("orden"), registry.get("alchemist")
    names = ["Ann", "Bob"]
    assert orden.describe({"type": "draw", "seat": 0, "n": 1}, names, "en") == "Ann draws 1 card."
    assert orden.describe({"type": "draw", "seat": 0, "n": 3}, names, "en") == "Ann draws 3 cards."
    assert orden.describe({"type": "must_discard", "seat": 1, "n": 1}, names, "de") == "Bob muss 1 Karte ablegen."
    assert orden.describe({"type": "draw", "seat": 1, "n": 2}, names, "de") == "Bob zieht 2 Karten."
    design = {"type": "design", "seat": 0, "cauldron": 0, "ingredients": {"red": 1}, "value": 1, "byproducts": []}
    assert "value tile 1: 1 fame point." in alchemist.describe(design, names, "en")
    assert "Ruhmesplättchen 1: 1 Ruhmespunkt." in alchemist.describe(design, names, "de")
    assert "9 fame points" in alchemist.describe({**design, "value": 9}, names, "en")


def test_times_end_a_sentence_with_one_dot(settings):
    from django.template import Context, Template
    from django.utils import translation

    when = dt.datetime(2026, 3, 1, 5, 25, tzinfo=dt.timezone.utc)
    tpl = Template('{% load i18n %}until {{ t|date:"SHORT_DATETIME_FORMAT" }}. {{ t|date:"DATETIME_FORMAT" }}.')
    for lang in ("en", "de"):
        with translation.override(lang):
            out = tpl.render(Context({"t": when}))
        assert "05:25." in out and not DOUBLE_DOT.search(out), out
