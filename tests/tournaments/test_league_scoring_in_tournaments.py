"""Der Orden's Ligawertung in tournaments played on time or rounds, pods included
(„Wird in einem Turnier auf Zeit oder Runden gespielt, kann auch eine Ligawertung verwendet
werden.“)."""
import pytest

from tournaments import services
from tournaments.errors import Invalid
from tournaments.loading import load, scheme_name
from tournaments.models import Table
from tests.tournaments.helpers import open_round

pytestmark = pytest.mark.django_db


def orden_tournament(org, players, **kw):
    data = dict(game="orden", name="Ordensturnier", format="swiss", structure="custom", rounds=2,
                players_per_match=4, scoring="league", options={"rounds": 40})
    data.update(kw)
    t = services.create_tournament(org, **data)
    for p in players:
        services.register(t, p, deck="starter:schwert")
    return t


def test_pods_on_rounds_score_the_rank_reached(make_user):
    org = make_user("org")
    players = [make_user(f"p{i}") for i in range(4)]
    t = orden_tournament(org, players)
    assert scheme_name(t) == "league"
    services.start(t, org)
    table = Table.objects.get(round=open_round(t))
    a, b, c, d = table.users
    table.result = {"placements": [a, b, c, d], "kind": "win", "source": "game",
                    "ranks": {str(a): "VII", str(b): "VI+", str(c): "II", str(d): "0"}}
    table.save()
    points = {r.user: r.points for r in load(t).standings()}
    assert points == {a: 7, b: 6.5, c: 2, d: 0}


def test_two_player_swiss_on_time_may_use_it(make_user):
    org = make_user("org")
    t = orden_tournament(org, [], players_per_match=2, options={"deadline_days": 14})
    assert scheme_name(t) == "league"


def test_refused_without_time_or_rounds(make_user):
    with pytest.raises(Invalid, match="time or .*rounds"):
        orden_tournament(make_user("org"), [], options={})


def test_refused_for_a_knockout(make_user):
    with pytest.raises(Invalid):
        orden_tournament(make_user("org"), [], format="knockout", players_per_match=2)
