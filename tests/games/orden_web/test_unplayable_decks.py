"""A deck the rules cannot play is refused where it is made and where it would be used: the
builder shows every refusal at the top of the page; joining with such a deck (an old saved one)
is refused with a clear message on the API and on the page."""
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.orden import decks
from games.orden.web import services
from games.orden.web.models import SavedDeck
from lobby import services as lobby
from lobby.models import Invitation

pytestmark = pytest.mark.django_db


def test_an_empty_deck_is_refused_in_both_languages():
    empty = {"pfad": decks.starter("schwert")["pfad"], "cards": []}
    with pytest.raises(decks.DeckError) as e:
        decks.playable(empty)
    assert f"at least {decks.MIN_CARDS} cards" in str(e.value) and "mindestens" in e.value.de
    few = {**empty, "cards": decks.starter("schwert")["cards"][:decks.MIN_CARDS - 1]}
    with pytest.raises(decks.DeckError):
        decks.playable(few)
    enough = {**empty, "cards": decks.starter("schwert")["cards"][:decks.MIN_CARDS]}
    assert decks.playable(enough)["cards"] == sorted(enough["cards"])


def test_a_match_started_with_a_small_deck_before_the_rule_still_sets_up():
    """Replays and undo set the match up again from its stored choices: no new refusal there."""
    from games.orden.engine import ENGINE

    tiny = {"pfad": decks.starter("schwert")["pfad"], "cards": decks.starter("schwert")["cards"][:2]}
    state = ENGINE.setup(2, {}, 7, [{"deck": tiny}, {"deck": "starter:hammer"}])
    assert state


def _builder_data(client) -> dict:
    form = client.get("/orden/decks/new/?from=starter:hammer").context["form"]
    return dict(form.initial)


def test_the_builder_refuses_an_empty_deck_with_the_error_at_the_top(make_user):
    u = make_user("builder")
    client = Client()
    client.force_login(u)
    data = {k: (0 if k.startswith("n_") else v) for k, v in _builder_data(client).items()}
    data["name"] = "Leer"
    r = client.post("/orden/decks/new/", data)
    page = r.content.decode()
    assert r.status_code == 200 and not SavedDeck.objects.filter(owner=u).exists()
    top = page.index('id="deck-errors"')
    assert top < page.index("deck-summary") and top < page.index("deck-group")
    assert "This deck cannot be saved" in page and "at least 7 cards" in page[top:page.index("deck-summary")]
    # A count above the base set's: the same place, naming the card (not only beside it, far down).
    data = _builder_data(client)
    name, _ = next((k, v) for k, v in data.items() if k.startswith("n_"))
    card_max = client.get("/orden/decks/new/").context["form"].fields[name].max_value
    data.update(name="Zu viel", **{name: card_max + 1})
    page = client.post("/orden/decks/new/", data).content.decode()
    errors = page[page.index('id="deck-errors"'):page.index("deck-summary")]
    assert re.search(rf'href="#id_{name}">[^<]+</a>: Ensure this value is less than or equal to {card_max}', errors)


def test_the_builder_speaks_german_too(make_user):
    u = make_user("erbauer")
    u.profile.language = "de"
    u.profile.save(update_fields=["language"])
    client = Client()
    client.force_login(u)
    data = {k: (0 if k.startswith("n_") else v) for k, v in _builder_data(client).items()}
    data["name"] = "Leer"
    page = client.post("/orden/decks/new/", data).content.decode()
    assert "Der Nachziehstapel braucht mindestens 7 Karten" in page


def test_joining_with_an_unplayable_saved_deck_is_refused_clearly(make_user):
    host, guest = make_user("host"), make_user("guest")
    # A deck saved before the rule existed: 0 cards, written around the service.
    old = SavedDeck.objects.create(owner=guest, name="Alt", pfad=decks.starter("buch")["pfad"], cards=[])
    inv = lobby.create_invitation(host, game="orden", players=2, choices={"deck": "starter:schwert"})
    api = APIClient()
    api.force_authenticate(guest)
    r = api.post(f"/api/invitations/{inv.pk}/join/", {"choices": {"deck": f"deck:{old.pk}"}}, format="json")
    assert r.status_code == 400 and "at least 7 cards" in r.json()["detail"]
    r = api.post(f"/api/invitations/{inv.pk}/join/", {"choices": {"deck": {"pfad": old.pfad, "cards": []}}},
                 format="json")
    assert r.status_code == 400 and "at least 7 cards" in r.json()["detail"]
    # The page: the refusal is shown on the invitation page the player returns to.
    client = Client()
    client.force_login(guest)
    r = client.post(f"/invitations/{inv.pk}/join/", {"choice_deck": f"deck:{old.pk}"}, follow=True)
    assert "at least 7 cards" in r.content.decode()
    assert Invitation.objects.get(pk=inv.pk).seats_taken == 1
    assert "Cannot be played:" in client.get("/orden/decks/").content.decode()  # and the list says why
    # With a playable deck the same player joins.
    good = services.copy_starter(guest, "buch")
    r = api.post(f"/api/invitations/{inv.pk}/join/", {"choices": {"deck": f"deck:{good.pk}"}}, format="json")
    assert r.status_code == 200 and r.json()["match"]


def test_a_deck_saved_before_a_cards_renumbering_joins_with_the_current_card(make_user):
    """Einspruch became 575 in data version 25; a deck saved holding 475 plays 575 (the player is told in
    the deck list) instead of being refused at join."""
    host, guest = make_user("host2"), make_user("guest2")
    starter = decks.starter("buch")
    new_no = decks.current_no("Einspruch")
    assert new_no in starter["cards"]
    old_cards = [475 if no == new_no else no for no in starter["cards"]]
    saved = SavedDeck.objects.create(owner=guest, name="Vor Version 25", pfad=starter["pfad"], cards=old_cards)
    with pytest.raises(decks.DeckError, match="old version"):  # the list itself is not a current deck
        decks.playable(saved.deck)
    inv = lobby.create_invitation(host, game="orden", players=2, choices={"deck": "starter:schwert"})
    api = APIClient()
    api.force_authenticate(guest)
    r = api.post(f"/api/invitations/{inv.pk}/join/", {"choices": {"deck": f"deck:{saved.pk}"}}, format="json")
    assert r.status_code == 200, r.content
    seat = Invitation.objects.get(pk=inv.pk).entries.get(user=guest)
    assert seat.choices["deck"]["cards"] == sorted(starter["cards"]) and 475 not in seat.choices["deck"]["cards"]
    client = Client()
    client.force_login(guest)
    page = client.get("/orden/decks/").content.decode()
    assert "Plays with the current rules of: Objection." in page and "Cannot be played:" not in page
    guest.profile.language = "de"
    guest.profile.save(update_fields=["language"])
    assert "Spielt mit den aktuellen Regeln von: Einspruch." in client.get("/orden/decks/").content.decode()
    # the editor opens it with the current card, so saving it again mends the list
    form = client.get(f"/orden/decks/{saved.pk}/").context["form"]
    assert form.initial[f"n_{new_no}"] == 1 and "n_475" not in form.initial
