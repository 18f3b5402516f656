"""Alchemist engine: set-up, turns, the three actions, end and final scoring.

State (JSON, compact; colour-indexed lists of 5 ints):
  n, schools (bool), rng (int), bag, reserve, removed, hands[seat], school[seat] (colour index)
  or None, fame[seat], seals[seat], cauldrons[10] (None or [recipe, value, owner]), tiles (free
  value tiles), start, turn (None at the end), round, turns, finished, final.
The bag holds counts only: draws are made by the seeded RNG at draw time, so no bag order
exists that could leak.
"""
from __future__ import annotations

from games.base import BadOptions, GameMeta, IllegalAction, Option, Step
from games.rng import Rng

from . import rules as R
from .rules import CIDX, COLOURS, PAIRS

META = GameMeta(
    slug="alchemist", name_en="Alchemist", name_de="Alchemist",
    min_players=R.MIN_PLAYERS, max_players=R.MAX_PLAYERS, engine_version="1",
    options=(Option("no_schools", "bool", False, "Without schools", "Ohne Schulen",
                    "Play without secret schools and without school scoring.",
                    "Ohne geheime Schulen und ohne deren Wertung spielen."),),
    summary_en="Design potions, copy your rivals' recipes and serve your secret school.",
    summary_de="Tränke entwerfen, Rezepturen der Konkurrenz kopieren und der geheimen Schule dienen.",
)


def _raise(problem):
    raise IllegalAction(*problem)


def _cdict(counts) -> dict:
    return {COLOURS[i]: counts[i] for i in range(5) if counts[i]}


def _draw(bag: list, rng: Rng) -> int:
    """Draw one cube (weighted by the bag's counts); mutates ``bag``."""
    r = rng.below(sum(bag))
    for i in range(5):
        if r < bag[i]:
            bag[i] -= 1
            return i
        r -= bag[i]
    raise AssertionError("unreachable")


_BAD = ("The move could not be read.", "Der Zug konnte nicht gelesen werden.")


def _int(x, lo, hi, what):
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise IllegalAction(f"{what} must be a whole number from {lo} to {hi}.",
                            f"{what} muss eine ganze Zahl von {lo} bis {hi} sein.")
    return x


def _colour(x, what="colour"):
    if not isinstance(x, str) or x not in CIDX:
        raise IllegalAction(f"Unknown {what}: {x!r}. Use one of {', '.join(COLOURS)}.",
                            f"Unbekannte Farbe: {x!r}.")
    return CIDX[x]


def parse_action(action) -> tuple:
    """Syntax only: ('design', c, recipe, value) | ('copy', c, tribute) | ('pass', take, draw)."""
    if not isinstance(action, dict):
        _raise(_BAD)
    kind = action.get("type")
    if kind == "design":
        extra = set(action) - {"type", "cauldron", "ingredients", "value"}
        ing = action.get("ingredients")
        if extra or not isinstance(ing, dict):
            _raise(_BAD)
        c = _int(action.get("cauldron"), 0, R.N_CAULDRONS - 1, "cauldron")
        recipe = [0] * 5
        for k, v in ing.items():
            recipe[_colour(k)] = _int(v, 0, R.MAX_RECIPE, "count")
        value = _int(action.get("value"), 1, 10, "value")
        return ("design", c, tuple(recipe), value)
    if kind == "copy":
        if set(action) - {"type", "cauldron", "tribute"}:
            _raise(_BAD)
        c = _int(action.get("cauldron"), 0, R.N_CAULDRONS - 1, "cauldron")
        return ("copy", c, _colour(action.get("tribute"), "tribute colour"))
    if kind == "pass":
        if set(action) - {"type", "take", "draw"} or ("take" in action and "draw" in action):
            _raise(_BAD)
        if "take" in action:
            return ("pass", _colour(action["take"]), False)
        if "draw" in action:
            if action["draw"] is not True:
                _raise(_BAD)
            return ("pass", None, True)
        return ("pass", None, False)
    raise IllegalAction("Unknown move type; use design, copy or pass.",
                        "Unbekannte Zugart; erlaubt sind design, copy und pass.")


def check(state: dict, seat, action) -> tuple:
    """Parse and validate through the shared rule predicates; raises IllegalAction."""
    p = R.turn_problem(state, seat)
    if p:
        _raise(p)
    parsed = parse_action(action)
    kind = parsed[0]
    if kind == "design":
        _, c, recipe, value = parsed
        p = (R.cauldron_problem(state, seat, c) or R.recipe_problem(state, seat, c, recipe)
             or R.value_problem(state, value))
    elif kind == "copy":
        p = R.copy_problem(state, seat, parsed[1], parsed[2])
    else:
        p = R.pass_problem(state, parsed[1], parsed[2])
    if p:
        _raise(p)
    return parsed


def design_action(c: int, recipe, value: int) -> dict:
    return {"type": "design", "cauldron": c, "ingredients": _cdict(recipe), "value": value}


def copy_action(c: int, tribute: int) -> dict:
    return {"type": "copy", "cauldron": c, "tribute": COLOURS[tribute]}


def pass_action(take, draw) -> dict:
    if take is not None:
        return {"type": "pass", "take": COLOURS[take]}
    return {"type": "pass", "draw": True} if draw else {"type": "pass"}


def _byproducts(s: dict, hand: list, c: int) -> list[str]:
    """Give 1 of each of cauldron c's colours from the reserve while it has them."""
    reserve = s["reserve"] = list(s["reserve"])
    got = []
    for b in PAIRS[c]:
        if reserve[b] > 0:
            reserve[b] -= 1
            hand[b] += 1
            got.append(COLOURS[b])
    return got


def exhausted(state: dict) -> list[str]:
    return [COLOURS[i] for i in range(5) if state["reserve"][i] == 0]


def final_scores(state: dict) -> dict:
    """Seed's final scoring: leftover cubes, then school ranks (dense, shared), table points."""
    n = state["n"]
    hands = state["hands"]
    left = [sum(h) // 2 for h in hands]
    ranks = [None] * n
    spts = [0] * n
    if state["schools"]:
        # all screens emptied into the reserve; fewest left = rank I
        remain = [state["reserve"][i] + sum(h[i] for h in hands) for i in range(5)]
        levels = sorted({remain[state["school"][s]] for s in range(n)})
        table = R.SCHOOL_POINTS[n]
        for s in range(n):
            ranks[s] = levels.index(remain[state["school"][s]]) + 1
            spts[s] = table[ranks[s] - 1] if ranks[s] <= len(table) else 0
    totals = [state["fame"][s] + left[s] + spts[s] for s in range(n)]
    key = [(-totals[s], ranks[s] or 0) for s in range(n)]
    seats = [{"seat": s, "leftover_points": left[s], "school_rank": ranks[s],
              "school_points": spts[s], "total": totals[s],
              "place": 1 + sum(1 for o in range(n) if key[o] < key[s])} for s in range(n)]
    return {"seats": seats}


def _advance(s: dict, events: list) -> bool:
    """Next seat; after a full round check the end. Returns True if the game ended."""
    s["turns"] += 1
    nxt = (s["turn"] + 1) % s["n"]
    if nxt == s["start"]:
        gone = exhausted(s)
        if len(gone) >= R.END_EXHAUSTED:
            s["finished"] = True
            s["turn"] = None
            s["final"] = final_scores(s)
            events.append({"type": "end", "round": s["round"], "exhausted": gone})
            for row in s["final"]["seats"]:
                seat = row["seat"]
                school = s["school"][seat] if s["schools"] else None
                events.append(dict(row, type="score", fame=s["fame"][seat],
                                   ingredients=_cdict(s["hands"][seat]),
                                   school=COLOURS[school] if school is not None else None))
            return True
        s["round"] += 1
    s["turn"] = nxt
    return False


class AlchemistEngine:
    meta = META

    # -- set-up ---------------------------------------------------------------------------
    def setup(self, players: int, options: dict, seed: int, choices: list[dict] | None = None) -> dict:
        if isinstance(players, bool) or players not in range(R.MIN_PLAYERS, R.MAX_PLAYERS + 1):
            raise BadOptions("Alchemist is played by 2 to 4 players.",
                             "Alchemist wird von 2 bis 4 Spielern gespielt.")
        bag_n, res_n, out_n = R.SETUP_TABLE[players]
        rng = Rng(seed)
        bag = [bag_n] * 5
        # seed: each player draws 12 cubes secretly from the bag
        hands = []
        for _ in range(players):
            hand = [0] * 5
            for _ in range(R.HAND_SIZE):
                hand[_draw(bag, rng)] += 1
            hands.append(hand)
        schools = not (options or {}).get("no_schools", False)
        school = None
        if schools:
            cards = list(range(5))
            rng.shuffle(cards)
            school = cards[:players]
        start = rng.below(players)
        return {
            "n": players, "schools": schools, "rng": rng.state,
            "bag": bag, "reserve": [res_n] * 5, "removed": [out_n] * 5,
            "hands": hands, "school": school,
            "fame": [0] * players, "seals": [R.SEALS] * players,
            "cauldrons": [None] * R.N_CAULDRONS, "tiles": list(R.VALUE_TILES),
            "start": start, "turn": start, "round": 1, "turns": 0,
            "finished": False, "final": None,
        }

    # -- queries --------------------------------------------------------------------------
    def to_move(self, state: dict) -> list[int]:
        return [] if state["finished"] else [state["turn"]]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if R.turn_problem(state, seat):
            return []
        values = R.design_values(state)
        out = [design_action(c, r, v) for c, r in R.design_options(state, seat) for v in values]
        out += [copy_action(c, t) for c, t in R.copy_options(state, seat)]
        out += [pass_action(t, d) for t, d in R.pass_options(state)]
        return out

    def outcome(self, state: dict) -> dict | None:
        if not state["finished"]:
            return None
        return {"placements": [{"seat": r["seat"], "place": r["place"], "score": r["total"]}
                               for r in state["final"]["seats"]]}

    # -- the move -------------------------------------------------------------------------
    def apply(self, state: dict, seat: int, action: dict) -> Step:
        parsed = check(state, seat, action)
        s = dict(state)  # shallow: every changed list below is replaced, never edited in place
        hands = s["hands"] = list(s["hands"])
        hand = hands[seat] = list(hands[seat])
        kind = parsed[0]
        reveals = False
        if kind == "design":
            _, c, recipe, value = parsed
            for i in range(5):
                hand[i] -= recipe[i]
            cauldrons = s["cauldrons"] = list(s["cauldrons"])
            cauldrons[c] = [list(recipe), value, seat]
            s["tiles"] = [t for t in s["tiles"] if t != value]
            s["fame"] = list(s["fame"])
            s["fame"][seat] += value
            s["seals"] = list(s["seals"])
            s["seals"][seat] -= 1
            got = _byproducts(s, hand, c)
            events = [{"type": "design", "seat": seat, "cauldron": c,
                       "ingredients": _cdict(recipe), "value": value, "byproducts": got}]
        elif kind == "copy":
            _, c, tribute = parsed
            recipe, value, owner = s["cauldrons"][c]
            removed = s["removed"] = list(s["removed"])
            for i in range(5):
                hand[i] -= recipe[i]
                removed[i] += recipe[i]
            removed[tribute] -= 1
            oh = hands[owner] = list(hands[owner])
            oh[tribute] += 1
            s["fame"] = list(s["fame"])
            s["fame"][seat] += value
            got = _byproducts(s, hand, c)
            events = [{"type": "copy", "seat": seat, "cauldron": c, "owner": owner,
                       "ingredients": _cdict(recipe), "tribute": COLOURS[tribute],
                       "value": value, "byproducts": got}]
        else:
            _, take, draw = parsed
            if take is not None:
                s["reserve"] = list(s["reserve"])
                s["reserve"][take] -= 1
                hand[take] += 1
                events = [{"type": "pass_take", "seat": seat, "colour": COLOURS[take]}]
            elif draw:
                bag = s["bag"] = list(s["bag"])
                rng = Rng(s["rng"])
                drawn = [0] * 5
                for _ in range(min(R.PASS_DRAW, sum(bag))):
                    drawn[_draw(bag, rng)] += 1
                s["rng"] = rng.state
                for i in range(5):
                    hand[i] += drawn[i]
                reveals = True
                events = [{"type": "pass_draw", "seat": seat, "count": sum(drawn)},
                          {"type": "drawn", "seat": seat, "ingredients": _cdict(drawn), "to": [seat]}]
            else:
                events = [{"type": "pass_empty", "seat": seat}]
        if _advance(s, events):
            reveals = True  # the end opens every screen and school
        return Step(state=s, events=events, reveals=reveals)

    # -- what a seat sees -----------------------------------------------------------------
    def view(self, state: dict, seat: int | None) -> dict:
        fin = state["finished"]
        seats = []
        for s in range(state["n"]):
            open_ = fin or s == seat
            school = state["school"][s] if state["schools"] else None
            seats.append({
                "seat": s, "fame": state["fame"][s], "seals": state["seals"][s],
                "ingredient_count": sum(state["hands"][s]),
                "ingredients": {c: state["hands"][s][i] for i, c in enumerate(COLOURS)} if open_ else None,
                "school": COLOURS[school] if open_ and school is not None else None,
            })
        cauldrons = []
        for i, cd in enumerate(state["cauldrons"]):
            cauldrons.append({
                "index": i, "byproducts": [COLOURS[b] for b in PAIRS[i]],
                "recipe": _cdict(cd[0]) if cd else None,
                "value": cd[1] if cd else None, "owner": cd[2] if cd else None,
            })
        return {
            "players": state["n"], "seat": seat, "round": state["round"],
            "start_seat": state["start"], "to_move": self.to_move(state),
            "schools": state["schools"], "bag": sum(state["bag"]),
            "reserve": {c: state["reserve"][i] for i, c in enumerate(COLOURS)},
            "removed": {c: state["removed"][i] for i, c in enumerate(COLOURS)},
            "value_tiles": list(state["tiles"]),
            "cauldrons": cauldrons, "seats": seats, "finished": fin,
            "final": ({"seats": [dict(r) for r in state["final"]["seats"]]} if fin else None),
        }


def cube_total(state: dict) -> int:
    """bag + reserve + removed + cauldrons + screens; always 160."""
    on_cauldrons = sum(sum(cd[0]) for cd in state["cauldrons"] if cd)
    return (sum(state["bag"]) + sum(state["reserve"]) + sum(state["removed"])
            + on_cauldrons + sum(sum(h) for h in state["hands"]))
