"""Saved decks: every write validates against the Pfad rules and the base-set counts
(games.orden.decks.playable), so a stored deck can always be played."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import translation

from games.orden import decks

from .models import SavedDeck


class DeckRefused(Exception):
    """A deck that cannot be saved; ``message`` is in the request's language."""

    def __init__(self, en: str, de: str, field: str | None = None):
        self.en, self.de, self.field = en, de, field
        super().__init__(en)

    @property
    def message(self) -> str:
        return self.de if (translation.get_language() or "en").startswith("de") else self.en


def _clean_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise DeckRefused("Give the deck a name.", "Gib dem Deck einen Namen.", "name")
    if len(name) > 60:
        raise DeckRefused("The name is too long (60 characters at most).",
                          "Der Name ist zu lang (höchstens 60 Zeichen).", "name")
    return name


def save(owner, *, name: str, deck: dict, existing: SavedDeck | None = None) -> SavedDeck:
    """Create (or, with ``existing``, replace) a deck; raises DeckRefused with the reason."""
    name = _clean_name(name)
    try:
        valid = decks.playable(deck)
    except decks.DeckError as e:
        raise DeckRefused(e.en, e.de) from None
    if existing is not None and existing.owner_id != owner.id:
        raise DeckRefused("This is not your deck.", "Das ist nicht dein Deck.")
    obj = existing or SavedDeck(owner=owner)
    obj.name, obj.pfad, obj.cards = name, valid["pfad"], valid["cards"]
    try:
        with transaction.atomic():
            obj.save()
    except IntegrityError:
        raise DeckRefused(f"You already have a deck called “{name}”.", f"Du hast schon ein Deck namens „{name}“.",
                          "name") from None
    return obj


def free_name(owner, base: str) -> str:
    taken = set(SavedDeck.objects.filter(owner=owner, name__startswith=base[:50]).values_list("name", flat=True))
    if base not in taken:
        return base
    n = 2
    while f"{base[:50]} ({n})" in taken:
        n += 1
    return f"{base[:50]} ({n})"


def copy_starter(owner, path: str) -> SavedDeck:
    if path not in decks.STARTER_CARDS:
        raise DeckRefused(f"There is no starter deck {path!r}.", f"Es gibt kein Startdeck {path!r}.")
    de, en = decks.STARTER_NAMES[path]
    base = de if (translation.get_language() or "en").startswith("de") else en
    return save(owner, name=free_name(owner, base), deck=decks.starter(path))


def copy_deck(owner, source: SavedDeck) -> SavedDeck:
    return save(owner, name=free_name(owner, source.name), deck=source.deck)


def owned(owner, pk) -> SavedDeck | None:
    return SavedDeck.objects.filter(owner=owner, pk=pk).first()
