"""The guided first match's texts (Plugin.guide): an intro and a hint per kind of move, in
English and German, in the words of the rule documents."""
from __future__ import annotations

INTRO = ("Climb the ranks of the order: play cards into your display and use their rules.",
         "Steige in den Rängen des Ordens auf: Spiele Karten in deine Auslage aus und wende ihre Regeln an.")

# action type -> (English, German)
HINTS = {
    "play": ("Play: put a card from your hand into your display (it counts against your plays this turn).",
             "Ausspielen: Lege eine Karte aus deiner Hand in deine Auslage (das zählt gegen deine Ausspiel-"
             "Grenze in diesem Zug)."),
    "activate": ("Use: apply a rule of a card in your display (it counts against your actions this turn).",
                 "Anwenden: Wende eine Regel einer Karte in deiner Auslage an (das zählt gegen deine Aktionen "
                 "in diesem Zug)."),
    "end_turn": ("End turn: when you are done, end your turn; then you draw or discard down to your hand limit.",
                 "Zug beenden: Wenn du fertig bist, beende deinen Zug; danach ziehst oder legst du ab, bis du "
                 "dein Handlimit hältst."),
    "react": ("React: another player's action can be answered with a card of yours; a reaction may prevent it.",
              "Reagieren: Auf die Aktion eines anderen kannst du mit einer deiner Karten antworten; eine "
              "Reaktion kann sie verhindern."),
    "decline": ("Do not react: let the other player's action happen.",
                "Nicht reagieren: Lass die Aktion des anderen geschehen."),
    "pay": ("Pay: choose cards until the cost is covered; the payment happens after that.",
            "Bezahlen: Wähle Karten, bis die Kosten gedeckt sind; bezahlt wird erst danach."),
    "choose": ("Choose: pick one card; the chosen card is shown to everyone.",
               "Wählen: Wähle eine Karte; die gewählte Karte wird allen gezeigt."),
    "discard": ("Discard: you hold more cards than your hand limit; put cards on the discard pile.",
                "Ablegen: Du hältst mehr Karten als dein Handlimit; lege Karten auf die Ablage."),
}

GUIDE = {"intro": INTRO, "hints": HINTS}
