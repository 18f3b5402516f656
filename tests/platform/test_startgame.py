"""``manage.py startgame``: the package it writes passes the conformance suite and plays on the
site at once (the board's move form on the game page, then the API to the end); bad slugs and
existing packages are refused with a clear message and nothing written."""
import importlib
import re
import sys

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings
from rest_framework.test import APIClient

import games
from games import registry
from tests.conformance.run import check_plugin
from tests.platform.helpers import to_move_user

SLUG = "kitdemo"


@pytest.fixture
def generated(tmp_path):
    """The package written into a temporary games folder, imported as ``games.<slug>`` and
    registered (templates found) for the test's duration."""
    call_command("startgame", SLUG, dir=str(tmp_path), name_en="Kit demo", name_de="Baukasten-Demo")
    games.__path__.append(str(tmp_path))
    module = importlib.import_module(f"games.{SLUG}")
    registry.plugins()[SLUG] = module.PLUGIN
    templates = [{**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], str(tmp_path / SLUG / "templates")]}]
    try:
        with override_settings(TEMPLATES=templates):
            yield module.PLUGIN, tmp_path / SLUG
    finally:
        registry.plugins().pop(SLUG, None)
        games.__path__.remove(str(tmp_path))
        for name in [n for n in sys.modules if n == f"games.{SLUG}" or n.startswith(f"games.{SLUG}.")]:
            del sys.modules[name]


@pytest.mark.django_db
def test_the_new_package_passes_the_suite_and_plays_on_the_site(generated, make_user, client):
    plugin, home = generated
    assert plugin.meta.name_de == "Baukasten-Demo" and set(plugin.bots()) == {"random", "heuristic"}
    for lang in ("de", "en"):
        assert (home / "templates" / "frontend" / "rules" / f"{SLUG}.{lang}.html").is_file()
    ran = check_plugin(plugin, seeds=(1, 2))
    assert {"test_metadata", "test_playout_keeps_the_contract", "test_views_hide_what_they_must",
            "test_bots_play_legal_moves_to_the_end", "test_secrets_are_kept",
            "test_every_option_combination_plays"} <= set(ran)

    from matches import services

    alice, bob = make_user("alice"), make_user("bob")
    match = services.start_match(game=SLUG, entrants=[{"user": alice}, {"user": bob}], options={}, seed=5)
    # the first move through the board's form on the game page
    mover = to_move_user(match)
    client.force_login(mover)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f'data-game="{SLUG}"' in page and 'name="csrfmiddlewaretoken"' in page
    cards = re.findall(r'<button type="submit" name="card" value="(\d+)"', page)
    assert len(cards) == 3
    r = client.post(f"/matches/{match.pk}/act/", {"version": "0", "card": cards[0]})
    assert r.status_code in (200, 302)
    match.refresh_from_db()
    assert match.version == 1 and len(match.state["trick"]) == 1
    assert f"plays the {cards[0]}." in client.get(f"/matches/{match.pk}/").content.decode()  # its log line
    # the rest through the API, each move the mover's first legal action
    api = {u.pk: APIClient() for u in (alice, bob)}
    for u in (alice, bob):
        api[u.pk].force_authenticate(u)
    for _ in range(20):
        user = to_move_user(match)
        if user is None:
            break
        c = api[user.pk]
        legal = c.get(f"/api/matches/{match.pk}/legal-actions/").json()
        r = c.post(f"/api/matches/{match.pk}/actions/", {"action": legal[0], "version": match.version}, format="json")
        assert r.status_code == 200, r.content
    m = api[alice.pk].get(f"/api/matches/{match.pk}/").json()
    assert m["status"] == "finished" and sorted(p["seat"] for p in m["outcome"]["placements"]) == [0, 1]
    rules = client.get(f"/games/{SLUG}/rules/")
    assert rules.status_code == 200
    if hasattr(plugin, "rules_template"):  # the kit's convention: the package's own rules page
        assert "What it is about" in rules.content.decode()


@pytest.mark.pure
@pytest.mark.parametrize("slug,message", [
    ("Bad-Slug", "not a usable slug"), ("x", "not a usable slug"), ("9lives", "not a usable slug"),
    ("class", "reserved"), ("registry", "reserved"), ("orden", "already registered")])
def test_bad_slugs_are_refused(tmp_path, slug, message):
    with pytest.raises(CommandError, match=message):
        call_command("startgame", slug, dir=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.pure
def test_an_existing_package_is_left_alone(tmp_path):
    (tmp_path / "mygame").mkdir()
    (tmp_path / "mygame" / "engine.py").write_text("# mine")
    with pytest.raises(CommandError, match="already exists; nothing was written"):
        call_command("startgame", "mygame", dir=str(tmp_path))
    assert [p.name for p in (tmp_path / "mygame").iterdir()] == ["engine.py"]
