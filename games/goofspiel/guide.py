"""The guided first match's texts (Plugin.guide), English and German."""
from __future__ import annotations

INTRO = ("Win the most prize points: everyone bids a card at once for the prize turned up, the highest bid takes it.",
         "Gewinne die meisten Preispunkte: Alle bieten gleichzeitig eine Karte um den aufgedeckten Preis, "
         "das höchste Gebot nimmt ihn.")

HINTS = {
    "bid": ("Bid: choose a card for the prize. It lies face down until every bid is in; then all are revealed "
            "and the highest takes the prize. Each card can be bid once: keep high cards for high prizes, and "
            "give a small prize away with your lowest card.",
            "Bieten: Wähle eine Karte für den Preis. Sie liegt verdeckt, bis alle geboten haben; dann werden alle "
            "aufgedeckt, und das höchste Gebot nimmt den Preis. Jede Karte kannst du einmal bieten: Heb hohe "
            "Karten für hohe Preise auf und gib einen kleinen Preis mit deiner niedrigsten Karte ab."),
}

GUIDE = {"intro": INTRO, "hints": HINTS}
