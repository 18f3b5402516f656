"""The tournament pages: every page renders (German and English), the organizer's and a
player's flows through forms, constant query counts on the list and standings pages."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services
from tournaments.models import Entrant, Table, Tournament
from tests.tournaments.helpers import T0, decide_open_round, make_tournament, open_round

pytestmark = pytest.mark.django_db


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(url)
        assert r.status_code == 200, r.content[:500]
    return len(ctx.captured_queries)


def test_list_query_count_is_constant(client, make_user):
    org = make_user("org")
    client.force_login(make_user("viewer"))
    make_tournament(org, [make_user(f"a{i}") for i in range(3)])
    few = _queries(client, "/tournaments/")
    for n in range(12):
        make_tournament(org, [make_user(f"b{n}_{i}") for i in range(2)], name=f"T{n}")
    many = _queries(client, "/tournaments/")
    assert few == many, f"list: {few} queries with 1 tournament, {many} with 13"
    assert client.get("/tournaments/").content.decode().count("data-tournament=") == 13


def test_standings_and_round_query_counts_are_constant(client, make_user):
    client.force_login(make_user("viewer"))
    org = make_user("org")
    small = make_tournament(org, [make_user(f"s{i}") for i in range(4)], rounds=2)
    big = make_tournament(org, [make_user(f"b{i}") for i in range(20)], rounds=2, name="Big")
    counts = {}
    for t in (small, big):
        services.start(t, org, now=T0)
        decide_open_round(t, org)
        counts[t.pk] = (_queries(client, f"/tournaments/{t.pk}/standings/"),
                        _queries(client, f"/tournaments/{t.pk}/rounds/2/"),
                        _queries(client, f"/tournaments/{t.pk}/"))
    assert counts[small.pk] == counts[big.pk], counts
    html = client.get(f"/tournaments/{big.pk}/standings/").content.decode()
    assert html.count("<tr data-user=") == 20
    assert "Strength of schedule" in html and "Extended SoS" in html


def test_mittelerde_tiebreak_columns_and_german(client, make_user):
    org = make_user("org")
    t = make_tournament(org, [make_user(f"p{i}") for i in range(4)], tiebreakers="mittelerde", scoring="mittelerde")
    services.start(t, org, now=T0)
    decide_open_round(t, org)
    client.force_login(org)
    html = client.get(f"/tournaments/{t.pk}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for label in ("Head-to-head", "Wins", "Opponents&#x27; points"):
        assert label in html
    html = client.get(f"/tournaments/{t.pk}/standings/?lang=de").content.decode()
    assert "Tabelle" in html and "Direkter Vergleich" in html and "Punkte der Gegner" in html
    # Refusals reach German pages in German.
    org.profile.language = "de"
    org.profile.save()
    r = client.post(f"/tournaments/{t.pk}/do/start/", follow=True)
    assert "Das Turnier hat schon begonnen." in r.content.decode()


def test_organizer_and_player_flows_through_the_forms(client, make_user):
    org, ann, ben = make_user("org"), make_user("ann"), make_user("ben")
    client.force_login(org)
    r = client.post("/tournaments/new/", {
        "name": "Frühjahrsturnier", "game": "kartenduell", "format": "swiss_cut", "structure": "custom",
        "rounds": "2", "cut": "2", "scoring": "eiserner_thron", "tiebreakers": "eiserner_thron",
        "players_per_match": "2", "round_days": "3", "level": "formal", "rated": "on"})
    t = Tournament.objects.get(name="Frühjahrsturnier")
    assert r.status_code == 302 and r["Location"] == f"/tournaments/{t.pk}/"
    assert (t.format, t.cut, t.level, t.rated, t.organizer) == ("swiss_cut", 2, "formal", True, org)
    # Formal: the organizer may not play.
    r = client.post(f"/tournaments/{t.pk}/register/", {"choice_emblem": "eagle"})
    assert r.status_code == 200 and "may not play" in r.content.decode()
    client.post(f"/tournaments/{t.pk}/do/official/", {"username": "ben", "role": "judge"})
    assert t.officials.get().user == ben
    for p in (ann, make_user("cid"), make_user("dan"), make_user("eva")):
        client.force_login(p)
        r = client.post(f"/tournaments/{t.pk}/register/", {"choice_emblem": "eagle"})
        assert r.status_code == 302, r.content.decode()[:2000]
    assert Entrant.objects.get(tournament=t, user=ann).choices == {"emblem": "eagle"}
    client.force_login(ann)
    assert client.post(f"/tournaments/{t.pk}/do/start/").status_code == 302
    assert Tournament.objects.get(pk=t.pk).status == "registration"  # a player cannot start it
    client.force_login(org)
    client.post(f"/tournaments/{t.pk}/do/start/")
    page = client.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()
    assert page.count("data-table=") == 2 and page.count("result-form") == 2
    # The judge sets results through the round page.
    client.force_login(ben)
    for table in Table.objects.filter(round=open_round(t)):
        a, b = sorted(table.users)
        r = client.post(f"/tournaments/{t.pk}/rounds/1/result/",
                        {"match": table.match_id, "places": "2", "place_1": a, "place_2": b})
        assert r.status_code == 302
    assert open_round(t).number == 2
    client.force_login(ann)
    mine = client.get("/tournaments/mine/").content.decode()
    assert mine.count("data-match=") == 2
    for url in (f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/standings/", f"/tournaments/{t.pk}/bracket/",
                f"/tournaments/{t.pk}/rounds/2/", "/tournaments/new/", f"/tournaments/{t.pk}/register/"):
        assert client.get(url).status_code == 200, url
    assert client.get(f"/tournaments/{t.pk}/rounds/9/").status_code == 404
    # The header link.
    assert 'href="/tournaments/"' in client.get("/tournaments/").content.decode()
