"""The guided first match's texts (Plugin.guide): an intro and a hint per kind of move, in
English and German, in the words of the rule documents."""
from __future__ import annotations

INTRO = ("Become the most famous alchemist: design recipes and copy the others' recipes for fame.",
         "Werde der berühmteste Alchemist: Entwirf Rezepturen und kopiere die der anderen, um Ruhm zu "
         "gewinnen.")

# action type -> (English, German)
HINTS = {
    "design": ("Design: put a new recipe (ingredients from your screen) into an empty cauldron and take a free "
               "value tile: that much fame, and one seal. The cauldron's two by-products are forbidden in it.",
               "Entwerfen: Lege eine neue Rezeptur (Ingredienzien von deinem Sichtschirm) in einen leeren Kessel "
               "und nimm ein freies Ruhmesplättchen: so viel Ruhm, und ein Siegel. Die beiden Nebenprodukte des "
               "Kessels sind darin verboten."),
    "copy": ("Copy: brew a recipe already in a cauldron. You pay its ingredients, one of them goes to its "
             "designer as tribute, and you gain its fame.",
             "Kopieren: Braue eine Rezeptur, die schon in einem Kessel liegt. Du bezahlst ihre Ingredienzien, "
             "eine davon erhält der Urheber als Tribut, und du gewinnst ihren Ruhm."),
    "pass": ("Pass: take 1 ingredient from the open reserve or draw 2 from the bag, to afford a recipe later.",
             "Passen: Nimm 1 Ingredienz aus dem offenen Vorrat oder ziehe 2 aus dem Beutel, um dir später eine "
             "Rezeptur leisten zu können."),
}

GUIDE = {"intro": INTRO, "hints": HINTS}
