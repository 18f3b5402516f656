"""Der Orden at 5 and 6 players: an invitation filled through the HTTP API and played to its end
(a fixed number of rounds, so the match ends in a test's time), the lobby's player choice, and
tournaments whose tables seat 5 or 6 (pods)."""
import pytest
from rest_framework.test import APIClient

from games import registry
from matches.models import Match
from tournaments import services
from tournaments.errors import Invalid
from tournaments.logic.pods import pod_sizes
from tournaments.models import Table
from tests.tournaments.helpers import open_round

pytestmark = pytest.mark.django_db
DECKS = ("starter:schwert", "starter:hammer", "starter:buch")


def client(user):
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.mark.parametrize("n", [5, 6])
def test_a_match_of_n_players_through_the_api_to_the_end(make_user, n):
    users = [make_user(f"p{n}_{i}") for i in range(n)]
    clients = {u.username: client(u) for u in users}
    host = clients[users[0].username]
    r = host.post("/api/invitations/", {"game": "orden", "players": n, "options": {"rounds": 2},
                                        "choices": {"deck": DECKS[0]}}, format="json")
    assert r.status_code == 201, r.content
    inv = r.json()
    for i, u in enumerate(users[1:], 1):
        r = clients[u.username].post(f"/api/invitations/{inv['id']}/join/", {"choices": {"deck": DECKS[i % 3]}},
                                     format="json")
        assert r.status_code == 200, r.content
    match_id = host.get(f"/api/invitations/{inv['id']}/").json()["match"]
    assert match_id
    # the last seat leaves orders: they answer its windows and payments for it at any table size
    orders = [{"kind": "reactions", "policy": "never"}, {"kind": "payment", "policy": "auto"}]
    r = clients[users[-1].username].put(f"/api/matches/{match_id}/orders/", {"orders": orders}, format="json")
    assert r.status_code == 200 and r.json() == {"orders": orders}, r.content
    last_seat = next(s["seat"] for s in host.get(f"/api/matches/{match_id}/").json()["seats"]
                     if s["user"]["username"] == users[-1].username)
    asked_last = 0
    kinds = set()
    for _ in range(3000):
        m = host.get(f"/api/matches/{match_id}/").json()
        if m["status"] == "finished":
            break
        if m["view"]["phase"] == "react":
            asked_last += m["to_move"][0] == last_seat  # never: its orders answered at once
        mover = next(s["user"]["username"] for s in m["seats"] if s["seat"] == m["to_move"][0])
        c = clients[mover]
        legal = c.get(f"/api/matches/{match_id}/legal-actions/").json()
        action = legal[0]  # in a payment: the cheapest covering set, the prompt's first choice
        kinds.add(action["type"] + ("+cards" if "cards" in action else ""))
        r = c.post(f"/api/matches/{match_id}/actions/", {"action": action, "version": m["version"]}, format="json")
        assert r.status_code == 200, r.content
    assert m["status"] == "finished", "the match did not end"
    assert len(m["view"]["seats"]) == n
    assert sorted(p["place"] for p in m["outcome"]["placements"]) == list(range(1, n + 1))
    assert m["view"]["round"] >= 2
    assert {"play", "end_turn"} <= kinds
    assert asked_last == 0


def test_seven_players_are_refused_with_a_clear_message(make_user):
    c = client(make_user("host7"))
    r = c.post("/api/invitations/", {"game": "orden", "players": 7, "options": {}}, format="json")
    assert r.status_code == 400
    assert "2 to 6" in r.content.decode()


def test_the_lobby_offers_2_to_6_players(make_user):
    meta = registry.get("orden").meta
    assert (meta.min_players, meta.max_players) == (2, 6)
    from frontend.forms import InvitationForm
    form = InvitationForm(registry.get("orden"), 0, "en")
    assert [n for n, _ in form.fields["players"].choices] == [2, 3, 4, 5, 6]


@pytest.mark.parametrize("size", [5, 6])
def test_tournament_tables_of_5_and_6(make_user, size):
    org = make_user(f"org{size}")
    players = [make_user(f"t{size}_{i}") for i in range(size * 2)]
    t = services.create_tournament(org, game="orden", name=f"Tische zu {size}", format="swiss", structure="custom",
                                   rounds=1, players_per_match=size, scoring="placement")
    for i, p in enumerate(players):
        services.register(t, p, deck=DECKS[i % 3])
    services.start(t, org)
    tables = list(Table.objects.filter(round=open_round(t)))
    assert sorted(len(tb.users) for tb in tables) == [size, size]
    assert all(Match.objects.get(pk=tb.match_id).state["n"] == size for tb in tables)


def test_tournament_tables_seat_at_most_6(make_user):
    with pytest.raises(Invalid):
        services.create_tournament(make_user("org7"), game="orden", name="Sieben", players_per_match=7,
                                   scoring="placement")
    assert pod_sizes(13, 6, 3) == ([5, 4, 4], 0)
    assert pod_sizes(7, 6, 3) == ([4, 3], 0)
