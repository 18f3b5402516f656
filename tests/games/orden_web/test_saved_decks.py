"""Saved Der Orden decks: the builder's rules, the pages, the API, and joining a game with one."""
import pytest
from rest_framework.test import APIClient

from games.orden import decks
from games.orden.catalog import cardset
from games.orden.web import services
from games.orden.web.models import SavedDeck
from lobby import services as lobby
from lobby.errors import LobbyError

pytestmark = pytest.mark.django_db


def a_card_with_count(n=1):
    return next(c for c in sorted(cardset().cards.values(), key=lambda c: c.no)
                if c.kind == "deck" and c.count == n and c.in_version(decks.CURRENT))  # not a retired version


# --- services ------------------------------------------------------------------------------------
def test_a_valid_deck_is_saved_and_an_invalid_one_refused_with_the_reason(make_user):
    u = make_user("builder")
    deck = decks.starter("buch")
    saved = services.save(u, name="Bücherwurm", deck=deck)
    assert saved.deck == decks.validate(deck)

    once = a_card_with_count(1)
    with pytest.raises(services.DeckRefused) as e:
        services.save(u, name="Zu viel", deck={"pfad": deck["pfad"], "cards": deck["cards"] + [once.no, once.no]})
    assert once.name.en in e.value.en and "at most once" in e.value.en
    assert once.name.de in e.value.de and "höchstens einmal" in e.value.de
    with pytest.raises(services.DeckRefused) as e:  # rank V missing from the Pfad
        services.save(u, name="Lücke", deck={"pfad": [no for no in deck["pfad"] if cardset().cards[no].rank != "V"],
                                            "cards": deck["cards"]})
    assert "path" in e.value.en and "Pfad" in e.value.de  # English words on English pages
    with pytest.raises(services.DeckRefused) as e:
        services.save(u, name="Bücherwurm", deck=deck)  # the name is taken
    assert e.value.field == "name"
    assert SavedDeck.objects.filter(owner=u).count() == 1


def test_starter_copies_are_valid_and_get_free_names(make_user):
    u = make_user("copier")
    first = services.copy_starter(u, "schwert")
    second = services.copy_starter(u, "schwert")
    assert first.deck == decks.starter("schwert") and second.deck == first.deck
    assert first.name == "Path of the Sword" and second.name == "Path of the Sword (2)"
    with pytest.raises(services.DeckRefused):
        services.copy_starter(u, "bogen")


# --- pages ---------------------------------------------------------------------------------------
def test_the_builder_saves_a_deck_and_shows_refusals_on_the_form(make_user, client):
    u = make_user("pagebuilder")
    client.force_login(u)
    page = client.get("/orden/decks/new/?from=starter:hammer")
    assert page.status_code == 200 and "ord-card" in page.content.decode()
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items()}
    data["name"] = "Schmiede"
    r = client.post("/orden/decks/new/", data)
    assert r.status_code == 302
    assert SavedDeck.objects.get(owner=u, name="Schmiede").deck == decks.starter("hammer")

    once = a_card_with_count(1)
    data.update(name="Zu viel", **{f"n_{once.no}": 2})
    r = client.post("/orden/decks/new/", data)
    assert r.status_code == 200 and not SavedDeck.objects.filter(name="Zu viel").exists()
    assert "Ensure this value is less than or equal to 1" in r.content.decode()
    # a second BURG (the hammer starter has Burg Eisenfels): refused with the reason, at the top of the form
    data.update(name="Zwei Burgen", **{f"n_{once.no}": 0, f"n_{decks.current_no('Klosterburg')}": 1})
    r = client.post("/orden/decks/new/", data)
    assert r.status_code == 200 and not SavedDeck.objects.filter(name="Zwei Burgen").exists()
    page = r.content.decode()
    assert "at most one BURG card" in page and "Cloister Castle" in page and "Ironrock Castle" in page
    data[f"n_{decks.current_no('Klosterburg')}"] = 0

    # Editing: switch rank IV to another path's version and leave VI+ out (as the starter does).
    deck = SavedDeck.objects.get(owner=u, name="Schmiede")
    student = next(c.no for c in cardset().cards.values() if c.kind == "rank" and c.rank == "IV" and c.path == "buch")
    data.update(name="Schmiede", **{f"n_{once.no}": 0, "rank_IV": str(student)})
    r = client.post(f"/orden/decks/{deck.pk}/", data)
    assert r.status_code == 302
    deck.refresh_from_db()
    assert student in deck.pfad


def test_deck_pages_of_others_are_404_and_the_list_keeps_its_query_count(make_user, client,
                                                                         django_assert_max_num_queries):
    owner, other = make_user("owner"), make_user("other")
    deck = services.copy_starter(owner, "buch")
    client.force_login(other)
    assert client.get(f"/orden/decks/{deck.pk}/").status_code == 404
    assert client.post(f"/orden/decks/{deck.pk}/delete/").status_code == 404
    client.force_login(owner)
    with django_assert_max_num_queries(12) as few:
        client.get("/orden/decks/")
    for i in range(15):
        services.copy_starter(owner, "hammer")
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get("/orden/decks/")
    assert page.content.decode().count("/delete/") == 16


# --- joining with a saved deck ------------------------------------------------------------------------
def test_joining_with_a_saved_deck_plays_exactly_that_list_and_others_decks_are_refused(make_user):
    host, guest = make_user("host"), make_user("guest")
    mine = services.save(guest, name="Eigenes", deck={**decks.starter("buch"),
                                                      "cards": decks.starter("buch")["cards"][:-3]})
    theirs = services.copy_starter(host, "hammer")
    inv = lobby.create_invitation(host, game="orden", players=2, choices={"deck": "starter:schwert"})
    with pytest.raises(LobbyError):
        lobby.join(inv.pk, guest, {"deck": f"deck:{theirs.pk}"})
    inv = lobby.join(inv.pk, guest, {"deck": f"deck:{mine.pk}"})
    inv.refresh_from_db()
    match = inv.match
    seat = match.seats.get(user=guest).seat
    assert match.choices[seat]["deck"] == mine.deck
    # Editing the saved deck later does not touch the running match.
    services.save(guest, name="Eigenes", deck=decks.starter("schwert"), existing=mine)
    match.refresh_from_db()
    assert match.choices[seat]["deck"] != decks.starter("schwert")


def test_the_deck_choice_offers_starters_and_only_my_own_decks(make_user):
    from games import registry

    me, you = make_user("me"), make_user("you")
    mine, yours = services.copy_starter(me, "buch"), services.copy_starter(you, "buch")
    values = [v for v, _ in registry.get("orden").seat_choice_values("deck", me.id)]
    assert values[:3] == decks.starter_ids() and f"deck:{mine.pk}" in values and f"deck:{yours.pk}" not in values


# --- API -------------------------------------------------------------------------------------------
def test_api_crud_validation_and_ownership(make_user):
    owner, other = make_user("apiowner"), make_user("apiother")
    api = APIClient()
    api.force_authenticate(owner)
    deck = decks.starter("schwert")
    r = api.post("/api/orden/decks/", {"name": "A", **deck}, format="json")
    assert r.status_code == 201, r.content
    pk = r.json()["id"]
    bad = api.post("/api/orden/decks/", {"name": "B", "pfad": deck["pfad"][:-1], "cards": deck["cards"]}, format="json")
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_deck"
    assert api.post("/api/orden/decks/", {"name": "C"}, format="json").status_code == 400
    assert [d["name"] for d in api.get("/api/orden/decks/").json()] == ["A"]
    assert api.put(f"/api/orden/decks/{pk}/", {"name": "A2", **decks.starter("buch")}, format="json").status_code == 200
    api.force_authenticate(other)
    assert api.get(f"/api/orden/decks/{pk}/").status_code == 404
    assert api.put(f"/api/orden/decks/{pk}/", {"name": "X", **deck}, format="json").status_code == 404
    assert api.delete(f"/api/orden/decks/{pk}/").status_code == 404
    api.force_authenticate(None)
    assert api.get("/api/orden/decks/").status_code in (401, 403)
    api.force_authenticate(owner)
    assert api.get(f"/api/orden/decks/{pk}/").json()["name"] == "A2"
    assert api.delete(f"/api/orden/decks/{pk}/").status_code == 204
    assert not SavedDeck.objects.filter(pk=pk).exists()
