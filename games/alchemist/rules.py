"""Alchemist's fixed numbers and the rule predicates shared by listing and validation.

Every rule lives in exactly one ``*_problem`` function that returns None (allowed) or an
(English, German) reason. ``legal_actions`` enumerates candidates through these functions and
``apply`` validates through them, so the rules are never written twice.
Colours are indices 0..4 into COLOURS inside the state (compact, fast); names appear in
actions and views.
"""
from __future__ import annotations

from itertools import product

COLOURS = ("blue", "green", "grey", "orange", "yellow")
CIDX = {c: i for i, c in enumerate(COLOURS)}
# Cauldron i produces (and forbids) the colour pair at position i (spec, box).
PAIRS = ((0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4))
N_CAULDRONS = len(PAIRS)

CUBES_PER_COLOUR = 32
# Seed table: players -> (bag, reserve, out of the game) per colour. 5 is in the seed's table
# but yucata (and we) allow at most 4 players.
SETUP_TABLE = {2: (6, 10, 16), 3: (10, 12, 10), 4: (12, 16, 4), 5: (14, 18, 0)}
# Seed table: players -> fame points for school rank I, II, ...
SCHOOL_POINTS = {2: (6, 0), 3: (10, 5, 0), 4: (12, 8, 4, 0), 5: (12, 9, 6, 3, 0)}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND_SIZE = 12
SEALS = 5               # seals in front of the screen; the sixth sits on the fame track
VALUE_TILES = tuple(range(1, 11))
MIN_RECIPE, MAX_RECIPE = 1, 5
MAX_PER_COLOUR = 2
FIRST_ROUND_MIN_VALUE = 5   # two players: first turn must be a design worth >= 5
END_EXHAUSTED = 3           # game ends after a round with >= 3 colours gone from the reserve
PASS_DRAW = 2

GAME_OVER = ("The game is over.", "Das Spiel ist beendet.")
NOT_YOUR_TURN = ("It is not your turn.", "Du bist nicht am Zug.")


def colour_list(recipe) -> list[str]:
    return [COLOURS[i] for i in range(5) for _ in range(recipe[i])]


def shape_problem(cauldron: int, recipe) -> tuple[str, str] | None:
    """Rules on a recipe's shape alone (seed: 1-5 cubes, not the by-product colours, <= 2 each)."""
    total = sum(recipe)
    if not MIN_RECIPE <= total <= MAX_RECIPE:
        return ("A recipe has 1 to 5 ingredients.", "Eine Rezeptur hat 1 bis 5 Ingredienzien.")
    a, b = PAIRS[cauldron]
    if recipe[a] or recipe[b]:
        return (f"This cauldron's by-products ({COLOURS[a]}, {COLOURS[b]}) may not be used.",
                "Die Nebenprodukte dieses Kessels dürfen nicht verwendet werden.")
    if max(recipe) > MAX_PER_COLOUR:
        return ("An ingredient may be used at most twice.",
                "Eine Ingredienz darf höchstens zweimal verwendet werden.")
    return None


# Every well-shaped recipe per cauldron (25 each), derived from shape_problem itself.
RECIPES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(r for r in product(range(MAX_PER_COLOUR + 2), repeat=5) if shape_problem(c, r) is None)
    for c in range(N_CAULDRONS))


def turn_problem(state: dict, seat) -> tuple[str, str] | None:
    if state["finished"]:
        return GAME_OVER
    if seat != state["turn"]:
        return NOT_YOUR_TURN
    return None


def must_design(state: dict) -> bool:
    return state["n"] == 2 and state["round"] == 1


def _pays(hand, recipe) -> bool:
    return all(h >= r for h, r in zip(hand, recipe))


def cauldron_problem(state: dict, seat: int, c: int) -> tuple[str, str] | None:
    """May ``seat`` design on cauldron ``c`` at all?"""
    if state["seals"][seat] <= 0:
        return ("You have no seals left, so you cannot design.",
                "Du hast keine Siegelsteine mehr und kannst nicht entwerfen.")
    if state["cauldrons"][c] is not None:
        return ("This cauldron already holds a recipe.", "Dieser Kessel ist schon belegt.")
    return None


def recipe_problem(state: dict, seat: int, c: int, recipe, existing=None) -> tuple[str, str] | None:
    p = shape_problem(c, recipe)
    if p:
        return p
    if not _pays(state["hands"][seat], recipe):
        return ("You do not have these ingredients.", "Du hast diese Ingredienzien nicht.")
    if existing is None:
        existing = recipes_in_use(state)
    if tuple(recipe) in existing:
        return ("This recipe is already in the compendium.",
                "Diese Rezeptur steht schon im Kompendium.")
    return None


def recipes_in_use(state: dict) -> set:
    return {tuple(cd[0]) for cd in state["cauldrons"] if cd is not None}


def value_problem(state: dict, value: int) -> tuple[str, str] | None:
    if value not in state["tiles"]:
        return ("This value tile is not available.", "Dieses Ruhmesplättchen ist nicht mehr frei.")
    if must_design(state) and value < FIRST_ROUND_MIN_VALUE:
        return ("With two players the first turn must be a design worth at least 5.",
                "Bei 2 Adepten muss in der ersten Runde eine Rezeptur mit mindestens Wert 5 "
                "entworfen werden.")
    return None


def copy_problem(state: dict, seat: int, c: int, tribute: int) -> tuple[str, str] | None:
    if must_design(state):
        return ("With two players the first turn must be a design worth at least 5.",
                "Bei 2 Adepten muss in der ersten Runde eine Rezeptur mit mindestens Wert 5 "
                "entworfen werden.")
    cd = state["cauldrons"][c]
    if cd is None:
        return ("This cauldron holds no recipe to copy.", "Dieser Kessel enthält keine Rezeptur.")
    if cd[2] == seat:
        return ("You cannot copy your own recipe.", "Die eigene Rezeptur kann nicht kopiert werden.")
    if not _pays(state["hands"][seat], cd[0]):
        return ("You do not have the ingredients of this recipe.",
                "Du hast die Ingredienzien dieser Rezeptur nicht.")
    if not cd[0][tribute]:
        return ("The tribute must be one of the recipe's ingredients.",
                "Der Tribut muss eine Ingredienz der Rezeptur sein.")
    return None


def pass_problem(state: dict, take: int | None, draw: bool) -> tuple[str, str] | None:
    """take: a colour index or None; draw: draw from the bag. Neither: a bare pass."""
    if must_design(state):
        return ("With two players the first turn must be a design worth at least 5.",
                "Bei 2 Adepten muss in der ersten Runde eine Rezeptur mit mindestens Wert 5 "
                "entworfen werden.")
    if take is not None:
        if state["reserve"][take] <= 0:
            return (f"The reserve has no {COLOURS[take]} left.",
                    "Diese Ingredienz ist im Vorrat aufgebraucht.")
        return None
    if draw:
        if sum(state["bag"]) <= 0:
            return ("The bag is empty.", "Der Beutel ist leer.")
        return None
    if sum(state["reserve"]) or sum(state["bag"]):
        return ("Passing, take one ingredient from the reserve or draw from the bag.",
                "Beim Passen nimm 1 Ingredienz aus dem Vorrat oder ziehe aus dem Beutel.")
    return None


# -- enumerators (used by legal_actions, the bots and the board) -----------------------------
def design_options(state: dict, seat: int) -> list[tuple[int, tuple]]:
    existing = recipes_in_use(state)
    out = []
    for c in range(N_CAULDRONS):
        if cauldron_problem(state, seat, c) is None:
            out.extend((c, r) for r in RECIPES[c] if recipe_problem(state, seat, c, r, existing) is None)
    return out


def design_values(state: dict) -> list[int]:
    return [v for v in state["tiles"] if value_problem(state, v) is None]


def copy_options(state: dict, seat: int) -> list[tuple[int, int]]:
    return [(c, t) for c in range(N_CAULDRONS) if state["cauldrons"][c] is not None
            for t in range(5) if copy_problem(state, seat, c, t) is None]


def pass_options(state: dict) -> list[tuple[int | None, bool]]:
    cands = [(t, False) for t in range(5)] + [(None, True), (None, False)]
    return [(t, d) for t, d in cands if pass_problem(state, t, d) is None]
