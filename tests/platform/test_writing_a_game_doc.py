"""docs/writing-a-game.md is enough on its own: its worked example, typed in as written (every
code block whose first line names a file under games/<slug>/), passes the conformance suite's
checks and plays a match on the site through its own board."""
from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from games import registry

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "writing-a-game.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)
FIRST_LINE = re.compile(r"^(?:#|\{#)\s*games/(\w+)/(\S+?)\s*(?:#\})?$")


def example_files() -> dict[str, str]:
    """{path inside the package: text} of the doc's example blocks."""
    files, slugs = {}, set()
    for _lang, body in FENCE.findall(DOC.read_text()):
        m = FIRST_LINE.match(body.split("\n", 1)[0].strip())
        if m:
            slugs.add(m.group(1))
            files[m.group(2)] = body
    assert len(slugs) == 1, f"one example game expected, found {slugs}"
    return files


@pytest.fixture
def example(tmp_path, monkeypatch):
    files = example_files()
    assert {"__init__.py", "engine.py", "plugin.py"} <= set(files), sorted(files)
    package = tmp_path / "docexample"
    for rel, text in files.items():
        (package / rel).parent.mkdir(parents=True, exist_ok=True)
        (package / rel).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("docexample")
    yield module.PLUGIN, package
    for name in [n for n in sys.modules if n == "docexample" or n.startswith("docexample.")]:
        del sys.modules[name]


def test_the_example_passes_the_conformance_suite(example):
    from tests.conformance.run import check_plugin

    plugin, _ = example
    assert plugin.meta.slug not in registry.plugins(), "the example must not be a real game"
    ran = check_plugin(plugin, seeds=(1, 2, 3))
    assert {"test_metadata", "test_playout_keeps_the_contract", "test_views_hide_what_they_must",
            "test_bots_play_legal_moves_to_the_end"} <= set(ran), ran


@pytest.mark.django_db
def test_the_example_plays_a_match_on_the_site(example, settings, make_user, client):
    from lobby import services as lobby
    from matches import services
    from matches.models import Match

    plugin, package = example
    slug = plugin.meta.slug
    templates = [dict(t) for t in settings.TEMPLATES]
    templates[0]["DIRS"] = [*templates[0]["DIRS"], str(package / "templates")]
    registry.plugins()[slug] = plugin
    try:
        with override_settings(TEMPLATES=templates):
            alice = make_user("alice")
            invitation = lobby.create_invitation(alice, game=slug, players=2, bots=[plugin.default_bot_name()])
            invitation.refresh_from_db()
            match = invitation.match
            assert match is not None and plugin.default_bot_name() == "high"
            client.force_login(alice)
            for _ in range(10):
                services.play_bots(match.pk)  # the bot's turns (a Celery task on the site)
                match.refresh_from_db()
                if match.status != Match.Status.ACTIVE:
                    break
                page = client.get(f"/matches/{match.pk}/").content.decode()
                forms = re.findall(r"name=\"action\" value='(\{[^']+\})'", page)
                assert forms and f'name="version" value="{match.version}"' in page
                assert "csrfmiddlewaretoken" in page
                r = client.post(f"/matches/{match.pk}/act/", {"version": match.version,
                                                            "action": json.dumps(json.loads(forms[0]))})
                assert r.status_code in (200, 302)
            match.refresh_from_db()
            assert match.status == Match.Status.FINISHED
            assert "plays" in client.get(f"/matches/{match.pk}/").content.decode()  # the log lines
    finally:
        registry.plugins().pop(slug, None)
