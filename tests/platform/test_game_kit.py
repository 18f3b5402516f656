"""The game kit (games/base.py, docs/writing-a-game.md): a game is one package.

- No module outside ``games/<slug>/`` names a game's slug: everything a game brings reaches the
  site through the plugin's hooks.
- A plugin written against the interface before the kit's hooks still plays on the site, its
  deprecated ``board_styles`` included (with a DeprecationWarning).
"""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from django.test import override_settings

from games import registry

ROOT = Path(__file__).resolve().parents[2]
# Where the site's own code lives. Not searched: tests/ and docs/ (they name games on purpose),
# migrations (history), locale/ (the games' words in German), bench/ (measurements that pick a
# concrete game as their workload, and the balance harnesses of one game each).
SCOPE = ("platform", "frontend", "accounts", "tools")
TEXT = {".py", ".html", ".css", ".js", ".txt", ".json", ".svg", ".webmanifest"}


def _slugs() -> set[str]:
    packages = {p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").is_file()}
    return (set(registry.plugins()) | packages) - {"__pycache__"}


def _files():
    for top in SCOPE:
        for path in sorted((ROOT / top).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.is_file() and path.suffix in TEXT and not parts & {"migrations", "__pycache__"}:
                yield path


def test_no_module_outside_a_game_names_its_slug():
    slugs = _slugs()
    assert {"alchemist", "orden"} <= slugs  # the test looks for real names
    pattern = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, sorted(slugs))) + r")(?![A-Za-z0-9])")
    found = []
    for path in _files():
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for m in pattern.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {m.group(1)!r} in {line.strip()[:100]}")
    assert not found, "a game's slug outside its package (use a plugin hook):\n" + "\n".join(found)


def test_the_slug_test_finds_a_slug():
    """The search above is not blind: it matches a slug as a word, in code and in text."""
    pattern = re.compile(r"(?<![A-Za-z0-9])(orden)(?![A-Za-z0-9])")
    assert pattern.search('EXTRACTORS = {"orden": f}') and pattern.search("der_orden_league")
    assert not pattern.search("Der Orden's deck") and not pattern.search("ordentlich")


# -- a plugin of the old interface -----------------------------------------------------------------
OLD_TEMPLATES = str(ROOT / "tests" / "support" / "oldstyle" / "templates")


@pytest.fixture
def old_game(settings):
    from tests.support.oldstyle import PLUGIN

    templates = [dict(t) for t in settings.TEMPLATES]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], OLD_TEMPLATES]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry._warn_deprecated(PLUGIN)
    assert any(issubclass(w.category, DeprecationWarning) and "board_styles" in str(w.message) for w in caught)
    registry.plugins()[PLUGIN.meta.slug] = PLUGIN
    try:
        with override_settings(TEMPLATES=templates):
            yield PLUGIN
    finally:
        registry.plugins().pop(PLUGIN.meta.slug, None)


@pytest.mark.django_db
def test_a_plugin_of_the_old_interface_plays_on_the_site(old_game, make_user, client):
    from lobby import services as lobby
    from matches.models import Match

    # the defaults the kit finds for it
    assert old_game.default_bot_name() == "heuristic"
    assert old_game.rules_template("de") is None and old_game.stylesheets() == ()
    assert old_game.guide()["intro"][1] == "Ein Spiel der alten Schnittstelle."
    alice, bob = make_user("alice"), make_user("bob")
    invitation = lobby.create_invitation(alice, game="altspiel", players=2)
    lobby.join(invitation.pk, bob)
    invitation.refresh_from_db()
    match = invitation.match
    for turn in range(40):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        mover = match.seats.get(seat=match.to_move[0]).user
        client.force_login(mover)
        page = client.get(f"/matches/{match.pk}/").content.decode()
        head = page.split("</head>")[0]
        assert "data-old-styles" in head  # the deprecated board_styles, still in <head>
        board = page[page.index('id="old-board"'):]
        # the board saw the platform's version, not the -1 its board_context tried to set
        assert f'data-version="{match.version}"' in board
        hand = re.findall(r"value='(\{\"type\": \"play\", \"card\": \d+\})'", board)
        action = json.loads(hand[0]) if hand else {"type": "draw"}
        r = client.post(f"/matches/{match.pk}/act/", {"version": match.version, "action": json.dumps(action)})
        assert r.status_code in (200, 302), r.content[:300]
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, turn
    # rules page: the summary (no rules template); statistics and the guided match know it
    client.force_login(alice)
    assert "A game of the old interface." in client.get("/games/altspiel/rules/").content.decode()
    from gamestats.summaries import summarize_match

    assert summarize_match(match.pk)
    stats = client.get("/stats/altspiel/")
    assert stats.status_code == 200 and "chart-moves" in stats.content.decode()
    assert 'id="learn-altspiel"' in client.get("/learn/").content.decode()


@pytest.mark.django_db
def test_a_games_own_rows_are_exported_and_erased_with_the_account(make_user):
    """What a game's Django app declares as a person's (``AppConfig.personal_data``: Der Orden's
    saved decks) is in the export and goes with the account; nobody else's rows are touched."""
    from django.apps import apps

    from privacy.erase import erase, personal_rows
    from privacy.export import export

    config = apps.get_app_config("orden_web")
    model_name, lookups = "SavedDeck", config.personal_data["SavedDeck"]
    assert (config.label, model_name, tuple(lookups)) in personal_rows()
    model = config.get_model(model_name)
    anna, bert = make_user("anna"), make_user("bert")
    field = lookups[0]
    mine = model.objects.create(**{field: anna}, name="Annas Deck", pfad=[], cards=[])
    theirs = model.objects.create(**{field: bert}, name="Berts Deck", pfad=[], cards=[])
    rows = export(anna)["games"][config.label][model_name]
    assert [r["id"] for r in rows] == [mine.pk] and rows[0]["name"] == "Annas Deck"
    erase(anna)
    assert not model.objects.filter(pk=mine.pk).exists() and model.objects.filter(pk=theirs.pk).exists()
