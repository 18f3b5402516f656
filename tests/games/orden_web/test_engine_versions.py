"""Der Orden's engine version 2 changed the set-up (instance ids apart from the draw
order) and the rules of the draw pile; a match set up under version 1 keeps its version, and
its log replays from its own set-up (``Plugin.setup_recorded``)."""
import pytest

from games import registry
from games.orden.bots import heuristic_bot
from games.rng import Rng
from matches import services as match_services
from matches.models import Match

pytestmark = pytest.mark.django_db


def _play(match, users, moves):
    rng = Rng(3)
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = match.to_move[0]
        action = heuristic_bot(match.state, seat, rng)
        user = match.seats.get(seat=seat).user
        match_services.submit_action(match.pk, user, action, match.version)
    match.refresh_from_db()


def _start(users, version=None):
    plugin = registry.get("orden")
    entrants = [{"user": u, "bot": "", "choices": plugin.clean_choices({}, u.id)} for u in users]
    opts = plugin.meta.clean_options({})
    # a seed whose start player is the same under both set-ups, so the seats to move agree; compared
    # on the match's own choices: the match records each deck as its current card list, which the old
    # set-up shuffles as recorded (the start player is drawn after the shuffles)
    for seed in range(100):
        m = match_services.start_match(game="orden", entrants=entrants, options=opts, seed=seed)
        if version is None:
            return m
        old = plugin.setup_recorded(version, m.players, m.options, m.seed, m.choices)
        if old["start"] == m.state["start"]:
            break
        m.delete()
    else:
        raise AssertionError("no seed below 100 gives both set-ups the same start player")
    m.engine_version = version  # as a match started before the engine's version 2
    m.state = old
    m.save()
    return m


@pytest.mark.parametrize("version", [None, "1", "4"])
def test_a_match_replays_under_the_engine_version_it_was_set_up_with(make_user, version):
    users = [make_user("a"), make_user("b")]
    m = _start(users, version)
    assert m.engine_version == (version or registry.get("orden").meta.engine_version)
    assert ("v" in m.state) == (version != "1")
    _play(m, users, 40)
    assert match_services.replay(m) == m.state
