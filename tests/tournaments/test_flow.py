"""The service layer end to end: sign-up → Swiss rounds → cut → knockout → winner."""
import pytest

from tournaments import services
from tournaments.loading import load
from tournaments.models import Table
from tests.tournaments.helpers import T0, decide_open_round, make_tournament, open_round

pytestmark = pytest.mark.django_db


def test_swiss_with_a_cut_to_the_winner(make_user):
    org = make_user("org")
    players = [make_user(f"p{i}") for i in range(6)]
    t = make_tournament(org, players, format="swiss_cut", rounds=3, cut=4)
    services.start(t, org, now=T0)
    t.refresh_from_db()
    assert (t.status, t.swiss_rounds, t.cut_size, t.stage) == ("running", 3, 4, "swiss")
    for n in range(1, 4):
        rnd = open_round(t)
        assert (rnd.number, rnd.stage, rnd.stage_round) == (n, "swiss", n)
        assert rnd.tables.count() == 3 and rnd.byes == []
        decide_open_round(t, org)
    t.refresh_from_db()
    assert t.stage == "knockout"
    field = load(t)
    seeds = [r.user for r in field.standings("swiss")][:4]
    ko1 = open_round(t)
    assert ko1.bracket == [{"match": 1, "users": [seeds[0], seeds[3]]}, {"match": 2, "users": [seeds[1], seeds[2]]}]
    # Lower seed wins every knockout match: seed 4 then seed 3... -> the upsets make seeds[3] champion.
    decide_open_round(t, org, better=lambda u: -seeds.index(u))
    final = open_round(t)
    assert final.stage_round == 2 and final.tables.get().users == [seeds[3], seeds[2]]
    decide_open_round(t, org, better=lambda u: -seeds.index(u))
    t.refresh_from_db()
    assert t.status == "finished" and t.winner_id == seeds[3]
    assert open_round(t) is None
    # Every match of the tournament is a real platform match, and the judged ones are stopped.
    assert Table.objects.filter(round__tournament=t).count() == 9 + 2 + 1
    assert not Table.objects.filter(round__tournament=t, match__status="active").exists()
