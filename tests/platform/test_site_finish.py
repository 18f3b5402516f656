"""The site's finish: error pages inside the site's frame in both languages,
icons as SVG (no emoji), favicon and manifest, game names instead of slugs (pages, notification
texts, the API's ``game_name``), plurals."""
import json
import re
from pathlib import Path

import pytest
from django.db import connection
from django.template import Context, Template
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from web.errors import server_error_or_unavailable
from notifications.kinds import text
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static" / "frontend"
FRAME = '<header class="top">'


def test_404_is_inside_the_site_frame_in_both_languages(client, make_user):
    r = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")
    page = r.content.decode()
    assert r.status_code == 404 and FRAME in page and "Page not found" in page and 'lang="en"' in page
    r = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="de")
    page = r.content.decode()
    assert r.status_code == 404 and FRAME in page and "Seite nicht gefunden" in page and 'lang="de"' in page
    client.force_login(make_user("nina"))
    page = client.get("/matches/999999/").content.decode()  # a view's Http404, signed in: the full header
    assert "Page not found" in page and 'href="/my-games/"' in page and "Log out" in page


def _server_error(lang: str, exc: Exception):
    with translation.override(lang):
        try:
            raise exc
        except type(exc):
            return server_error_or_unavailable(RequestFactory().get("/lobby/"))


@pytest.mark.parametrize("lang,words", [("en", "Something went wrong"), ("de", "Etwas ist schiefgegangen")])
def test_500_renders_in_the_frame_without_any_query(lang, words):
    with CaptureQueriesContext(connection) as queries:
        r = _server_error(lang, KeyError("bug"))
    page = r.content.decode()
    assert r.status_code == 500 and FRAME in page and words in page and f'lang="{lang}"' in page
    assert len(queries.captured_queries) == 0, "the 500 page must not need the database"
    assert "Log out" not in page and "Abmelden" not in page  # no user: only links that need nothing


def test_500_falls_back_to_plain_text_when_the_template_fails(monkeypatch):
    from django.template import loader

    def broken(name, *args, **kwargs):
        raise RuntimeError("template machinery down")

    monkeypatch.setattr(loader, "get_template", broken)
    r = _server_error("en", KeyError("bug"))
    assert r.status_code == 500 and b"500" in r.content


def test_500_of_the_api_is_json():
    with translation.override("en"):
        try:
            raise KeyError("bug")
        except KeyError:
            r = server_error_or_unavailable(RequestFactory().get("/api/matches/1/"))
    assert r.status_code == 500 and json.loads(r.content)["error"] == "server_error"


def test_400_and_403_pages_are_inside_the_frame():
    from django.views.defaults import bad_request, permission_denied

    request = RequestFactory().get("/lobby/")
    with translation.override("de"):
        page = bad_request(request, Exception("x")).content.decode()
    assert FRAME in page and "Ungültige Anfrage" in page
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    r = permission_denied(request, Exception("x"))
    assert r.status_code == 403 and FRAME in r.content.decode() and "Not allowed" in r.content.decode()


def test_a_form_without_its_csrf_token_gets_the_framed_403(make_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("olga"))
    r = client.post("/accounts/logout/", HTTP_ACCEPT_LANGUAGE="en")
    page = r.content.decode()
    assert r.status_code == 403 and FRAME in page and "The form was out of date" in page


def test_pages_link_favicon_and_manifest_and_the_files_exist(client):
    page = client.get("/lobby/").content.decode()
    for href in re.findall(r'<link rel="(?:icon|manifest|apple-touch-icon)" href="/static/frontend/([^"]+)"', page):
        assert (STATIC / href).is_file(), href
    assert 'rel="manifest"' in page and 'type="image/svg+xml"' in page
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "/lobby/" and {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"]).is_file()
    assert (STATIC / "favicon.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    r = client.get("/favicon.ico")
    assert r.status_code == 301 and r["Location"] == "/static/frontend/favicon.ico"


EMOJI = re.compile("[\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")
NOT_YET: set[str] = set()  # templates allowed to keep an emoji for now: none


def _templates():
    """(path relative to the repository, text) of every template of the project's own."""
    for path in ROOT.glob("**/templates/**/*.html"):
        rel = path.relative_to(ROOT).as_posix()
        if ".venv" not in rel:
            yield rel, path.read_text()


def test_no_template_shows_emoji_but_svg_icons():
    found = []
    for rel, text in _templates():
        if rel not in NOT_YET:
            found += [f"{rel}: {m.group()!r}" for m in EMOJI.finditer(text)]
    assert not found, found
    symbols = set(re.findall(r'<symbol id="([a-z-]+)"', (STATIC / "icons.svg").read_text()))
    used = set()
    for path in list(ROOT.glob("platform/**/templates/**/*.html")) + list(ROOT.glob("frontend/templates/**/*.html")):
        used |= set(re.findall(r'{% icon "([a-z-]+)"', path.read_text()))
    assert used and used <= symbols, used - symbols


def test_no_template_comment_spans_lines():
    """Django's {# #} ends at the line's end: one that goes on to the next line is printed as
    text (base.html's showed above the header of every page); longer ones are {% comment %}."""
    found = []
    for rel, text in _templates():
        for n, line in enumerate(text.splitlines(), 1):
            found += [f"{rel}:{n}" for m in re.finditer(r"{#", line) if "#}" not in line[m.end():]]
    assert not found, found


def test_pages_show_no_template_syntax(client):
    """What reaches the player holds no template comment or tag (the lint above, on a page)."""
    for url in ("/", "/lobby/", "/help/"):
        page = client.get(url).content.decode()
        assert "{#" not in page and "#}" not in page and "{%" not in page, url


def test_the_icon_tag_is_decorative_or_named():
    out = Template('{% load icons %}{% icon "bell" %}|{% icon "lock" "private" %}').render(Context())
    plain, named = out.split("|")
    assert 'aria-hidden="true"' in plain and "#bell" in plain
    assert 'role="img"' in named and 'aria-label="private"' in named and "<title>private</title>" in named


def test_notification_texts_name_the_game_not_its_slug():
    data = {"tournament": "Pokal", "round": 2, "match": 12, "game": "alchemist"}  # as tournaments store it
    assert "you play Alchemist #12" in text("tournament_paired", data, "en")
    assert "du spielst Alchemist #12" in text("tournament_paired", data, "de")
    orden = text("tournament_paired", {**data, "game": "orden"}, "en")
    assert "The Order #12" in orden and "orden" not in orden
    assert "about 1 hour left" in text("reminder", {"match": 3, "game": "orden", "hours_left": 1}, "en")
    assert "etwa 1 Stunde für" in text("reminder", {"match": 3, "game": "orden", "hours_left": 1}, "de")
    assert "a game not installed" in text("match_started", {"match": 3, "game": "a game not installed"}, "en")


def test_the_api_adds_game_name_in_the_language_of_the_request(make_user):
    from rest_framework.test import APIClient

    host, guest = make_user("hana"), make_user("gero")
    match = start_minigame(host, guest)
    api = APIClient()
    api.force_authenticate(host)
    for lang, name in (("en", "Card duel"), ("de", "Kartenduell")):
        detail = api.get(f"/api/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=lang).json()
        assert detail["game"] == "kartenduell" and detail["game_name"] == name
        rows = api.get("/api/matches/?mine=1", HTTP_ACCEPT_LANGUAGE=lang).json()
        assert rows[0]["game"] == "kartenduell" and rows[0]["game_name"] == name
        inv = api.get(f"/api/invitations/{match.invitation.pk}/", HTTP_ACCEPT_LANGUAGE=lang).json()
        assert inv["game"] == "kartenduell" and inv["game_name"] == name
        created = api.post("/api/invitations/", {"game": "kartenduell", "players": 2}, format="json",
                           HTTP_ACCEPT_LANGUAGE=lang).json()
        assert created["game_name"] == name


def test_my_games_names_waiting_invitations_by_game_name(client, make_user):
    from lobby import services as lobby

    host = make_user("wanda")
    lobby.create_invitation(host, game="alchemist", players=2)
    client.force_login(host)
    page = client.get("/my-games/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Alchemist (1/2)" in page and "alchemist (1/2)" not in page


def test_one_day_per_move_is_singular(client, make_user):
    from lobby import services as lobby

    one = lobby.create_invitation(make_user("ute"), game="kartenduell", players=2, move_days=1)
    three = lobby.create_invitation(make_user("udo"), game="kartenduell", players=2, move_days=3)
    assert "1 day per move" in client.get(f"/invitations/{one.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3 days per move" in client.get(f"/invitations/{three.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_clock_record_line_has_singular_forms():
    src = (ROOT / "frontend/templates/frontend/match_clocks.html").read_text()
    line = re.search(r"<small class=\"record\">(.*?)\{% if row.record.usual_seconds", src).group(1)
    out = Template("{% load i18n %}" + line).render(Context({"row": {"record": {"timeouts": 1, "games": 1}}}))
    assert out.strip() == "1 timeout in 1 game"
    out = Template("{% load i18n %}" + line).render(Context({"row": {"record": {"timeouts": 0, "games": 4}}}))
    assert out.strip() == "0 timeouts in 4 games"


def test_the_header_language_switch_works_for_a_signed_in_player(client, make_user):
    """The profile's language wins on every request, so the header's switch must change it
    (before, the DE button did nothing for a signed-in player)."""
    user = make_user("lena")
    client.force_login(user)
    assert 'lang="en"' in client.get("/lobby/").content.decode()
    r = client.post("/accounts/language/", {"language": "de", "next": "/lobby/"})
    assert r.status_code == 302 and r["Location"] == "/lobby/"
    user.profile.refresh_from_db()
    assert user.profile.language == "de"
    page = client.get("/lobby/").content.decode()
    assert 'lang="de"' in page and "Offene Einladungen" in page
    client.post("/accounts/language/", {"language": "xx", "next": "/lobby/"})  # unknown: nothing changes
    user.profile.refresh_from_db()
    assert user.profile.language == "de"
