"""What the Orden plugin asks when a player picks a deck: their saved decks as seat-choice
values (``deck:<id>``) and, at join time, the deck's card list, which is then stored with
the seat (so editing the saved deck later does not change a running match or tournament)."""
from __future__ import annotations

from games.orden.decks import DeckError
from games.textnum import is_small_int, small_int


class SavedDecks:
    PREFIX = "deck:"

    def choices(self, user_id: int | None) -> list[tuple[str, str]]:
        from .models import SavedDeck

        if not user_id:
            return []
        return [(f"{self.PREFIX}{pk}", name)
                for pk, name in SavedDeck.objects.filter(owner_id=user_id).values_list("pk", "name")]

    def resolve(self, value: str, user_id: int | None) -> dict:
        from .models import SavedDeck

        pk = value[len(self.PREFIX):]
        deck = SavedDeck.objects.filter(pk=small_int(pk), owner_id=user_id).first() if is_small_int(pk) and user_id else None
        if deck is None:
            raise DeckError("This deck is not one of yours.", "Dieses Deck gehört nicht dir.")
        return deck.deck
