"""The rules pages' pictures are drawn by the games' own board templates from a fixed sample
state: the same markup the table uses, the same every time, without move forms, in
the page's language; the helper that draws them names no game."""
import re
from pathlib import Path

import pytest

from frontend import rules_pictures
from games import registry

pytestmark = pytest.mark.django_db


def _figures(html: str) -> list[str]:
    return re.findall(r'<figure class="rules-picture board".*?</figure>', html, re.S)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_rules_pages_show_boards_and_cards_drawn_by_the_game(client, make_user, lang):
    user = make_user("reader")
    user.profile.language = lang
    user.profile.save()
    client.force_login(user)
    alchemist = _figures(client.get("/games/alchemist/rules/").content.decode())
    orden = _figures(client.get("/games/orden/rules/").content.decode())
    assert len(alchemist) == 1 and len(orden) == 2
    board = alchemist[0]
    assert 'class="alc-board" data-game="alchemist"' in board and board.count('data-cauldron="') >= 10
    # A picture, not a second table: inert (nothing to click or focus), named by its caption.
    for figure in alchemist + orden:
        assert re.search(r'class="[^"]*rules-board" inert role="img" aria-labelledby="caption-', figure)
    assert f'lang="{lang}"' in board
    assert 'class="ord-board" data-game="orden"' in orden[0]
    assert orden[1].count('class="ord-card ') == 3
    # The table's own partial: the same markup as the board helper draws for that sample.
    expected = rules_pictures.board("alchemist", lang, seed=4, moves=10, bot="heuristic")
    assert expected.strip() in board


def test_a_sample_is_fixed_and_the_helper_knows_no_game():
    one = rules_pictures.board("orden", "en", seed=2, moves=12, bot="heuristic")
    rules_pictures._state.cache_clear()
    assert rules_pictures.board("orden", "en", seed=2, moves=12, bot="heuristic") == one
    assert rules_pictures.sample("orden", "en", seed=2, moves=12)["view"] != rules_pictures.sample("orden", "en", seed=2)["view"]
    for path in ("frontend/rules_pictures.py", "frontend/templatetags/rules_pictures.py"):
        code = (Path(__file__).resolve().parents[2] / path).read_text()
        assert not any(f'"{slug}"' in code or f"'{slug}'" in code for slug in registry.plugins()), path
