"""The card language: typed dataclasses for cards and their rules, validated at load time.

A card file is JSON: ``{"set": "...", "cards": [card, ...]}``. Every rule is built from a
small set of typed primitives (conditions, costs, verbs, static effects); the engine
interprets only these, never card-specific code. Unknown keys or bad values raise
``CardError`` naming the card number and the field.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

PROPS = ("T", "K", "V", "W", "E", "S")
WILD = "?"  # any one of T K V W E, never S
PLAIN = ("T", "K", "V", "W", "E")
RANKS = {"0": 0.0, "I": 1.0, "II": 2.0, "III": 3.0, "IV": 4.0, "V": 5.0, "VI": 6.0,
         "VI+": 6.5, "VII": 7.0, "VIII": 8.0, "IX": 9.0, "IX+": 9.5, "X": 10.0}
OPTIONAL_RANKS = ("VI+", "IX+")
PATH_RANKS = ("IV", "V", "VI", "VI+")  # these exist in three versions
PATHS = ("schwert", "hammer", "buch")
WAPPEN = ("orden", "schwert", "hammer", "buch", "meisterschaft", "burgherren",
          "grossmeister", "seligkeit")
TYPES = ("MENTOR", "BURG", "MYSTERIUM")
ZONES = ("hand", "auslage", "hand_or_auslage")
SEARCH_ZONES = ("deck", "ablage", "auslage", "hand", "aussen")
LIMITS = ("play", "actions", "hand")
WHO = ("you", "each_opponent", "higher_opponents")
# whom an interaction verb hits: the actor is the player whose Aktion a Reaktion answers
TARGETS = ("each_opponent", "higher_opponents", "actor")
FORCE_ZONES = ("hand", "auslage")
EVENTS = ("turn_start", "ascend")
REACT_ON = ("aktion", "ascend", "hostile")


class CardError(ValueError):
    pass


# A lowered limit (HANDLIMIT-1, an opponent's opp_limit) never goes below its floor; the
# printed text of every lowering names it („… (aber mindestens 1)“), so the card says it.
FLOORS = {"play": 1, "actions": 1, "hand": 4}

@dataclass(frozen=True)
class Text:
    de: str
    en: str


@dataclass(frozen=True)
class Selector:
    """Cards by name, TYPE, Wappen and/or a property they can deliver (all must match)."""
    name: str | None = None
    type: str | None = None
    wappen: str | None = None
    delivers: str | None = None


@dataclass(frozen=True)
class Condition:
    # rank_at_least | rank_below | rank_in_pfad | possess | possess_props | lacks | behind | yet_to_move | next_to_move
    # | stronger
    kind: str
    rank: str | None = None
    select: Selector | None = None
    count: int = 1
    props: tuple = ()  # ((prop, n), ...)
    prop: str | None = None  # stronger: the property compared


@dataclass(frozen=True)
class Cost:
    verb: str  # discard | remove
    what: str  # self | cards | props
    zone: str = "hand"
    select: Selector | None = None
    count: int = 0
    props: tuple = ()


@dataclass(frozen=True)
class Verb:
    kind: str  # draw ascend descend choose prevent extra discard_self remove_self
    n: int = 1
    who: str = "you"
    select: Selector | None = None
    to: str = "hand"  # choose: hand | play | play_now
    zones: tuple = ("deck", "ablage", "auslage", "hand")
    limit: str | None = None  # extra: play | actions
    src: str = "hand"  # force_discard: the targets' zone
    weaker: str | None = None  # force_discard: only targets owning less of this property


@dataclass(frozen=True)
class Static:
    kind: str  # limit | multiply | opp_limit | ban
    limit: str | None = None
    plus: int = 0  # limit: may be negative (HANDLIMIT-1); opp_limit: how much the opponents lose
    prop: str | None = None
    factor: int = 1
    select: "Selector | None" = None  # ban: opponents cannot play such cards


@dataclass(frozen=True)
class Ability:
    kind: str  # aktion | reaktion | effekt
    conditions: tuple = ()
    costs: tuple = ()
    verbs: tuple = ()
    statics: tuple = ()
    when: Condition | None = None  # effekt: fires when this becomes true
    on: str | None = None  # effekt: event trigger; reaktion: what it answers
    once_per_turn: bool = False
    ascends: bool = field(init=False, default=False)
    #: the rule hurts opponents (forced discards, opponents descending): "hostile" reactions answer it
    hostile: bool = field(init=False, default=False)
    #: once-per-turn effects of one group conflict: only the best one is used
    group: str = field(init=False, default="")

    def __post_init__(self):
        object.__setattr__(self, "ascends", any(v.kind == "ascend" for v in self.verbs))
        object.__setattr__(self, "hostile", any(v.kind == "force_discard" or (v.kind == "descend" and v.who != "you")
                                                for v in self.verbs))
        object.__setattr__(self, "group", self.verbs[0].kind if self.verbs else "")


@dataclass(frozen=True)
class Delivery:
    props: tuple  # ((prop, n), ...)
    conditions: tuple = ()


@dataclass(frozen=True)
class Card:
    no: int
    name: Text
    kind: str  # rank | deck
    wappen: str | None = None
    rank: str | None = None
    path: str | None = None
    type: str | None = None
    level: int = 0
    liefert: tuple = ()
    rank_gate: str | None = None
    abilities: tuple = ()
    flavor: Text = Text("", "")
    count: int = 1
    #: the data versions (engine versions from 3 on, effects.V) this card version belongs to:
    #: a changed card gets a new number, the old one stays (``until``) so old matches replay
    since: int = 1
    until: int | None = None

    def in_version(self, v: int) -> bool:
        return self.since <= v and (self.until is None or v <= self.until)

    @property
    def rank_value(self) -> float:
        return RANKS[self.rank] if self.rank is not None else -1.0

    def can_deliver(self, prop: str) -> bool:
        for d in self.liefert:
            for p, _ in d.props:
                if p == prop or (p == WILD and prop in PLAIN) or (prop == WILD and p != "S"):
                    return True
        return False


# -- parsing ------------------------------------------------------------------------------

class _P:
    """Parser bound to one card so every error names the card and the field."""

    def __init__(self, no):
        self.no = no

    def fail(self, path, msg):
        raise CardError(f"card {self.no}: field {path}: {msg}")

    def keys(self, d, path, allowed, required=()):
        if not isinstance(d, dict):
            self.fail(path, f"expected an object, got {type(d).__name__}")
        unknown = set(d) - set(allowed)
        if unknown:
            self.fail(path, f"unknown key(s) {', '.join(sorted(unknown))}")
        for r in required:
            if r not in d:
                self.fail(path, f"missing key {r!r}")

    def one_of(self, v, path, allowed):
        if v not in allowed:
            self.fail(path, f"{v!r} is not one of {', '.join(map(str, allowed))}")
        return v

    def posint(self, v, path, zero=False):
        if isinstance(v, bool) or not isinstance(v, int) or v < (0 if zero else 1):
            self.fail(path, f"expected a {'non-negative' if zero else 'positive'} whole number, got {v!r}")
        return v

    def text(self, v, path):
        self.keys(v, path, ("de", "en"), ("de", "en"))
        for k in ("de", "en"):
            if not isinstance(v[k], str):
                self.fail(f"{path}.{k}", "expected text")
        return Text(v["de"], v["en"])

    def props(self, d, path, wild=True):
        if not isinstance(d, dict) or not d:
            self.fail(path, "expected a non-empty object of properties")
        allowed = PROPS + ((WILD,) if wild else ())
        out = []
        for p, n in d.items():
            self.one_of(p, f"{path}.{p}", allowed)
            out.append((p, self.posint(n, f"{path}.{p}")))
        return tuple(sorted(out))

    def selector(self, d, path):
        self.keys(d, path, ("name", "type", "wappen", "delivers"))
        if not d:
            return Selector()
        if "type" in d:
            self.one_of(d["type"], f"{path}.type", TYPES)
        if "wappen" in d:
            self.one_of(d["wappen"], f"{path}.wappen", WAPPEN)
        if "delivers" in d:
            self.one_of(d["delivers"], f"{path}.delivers", PROPS + (WILD,))
        if "name" in d and not isinstance(d["name"], str):
            self.fail(f"{path}.name", "expected text")
        return Selector(**d)

    def condition(self, d, path):
        if not isinstance(d, dict) or len(d) != 1:
            self.fail(path, "a condition is an object with exactly one key")
        (k, v), = d.items()
        p = f"{path}.{k}"
        if k in ("rank_at_least", "rank_below", "rank_in_pfad"):
            return Condition(k, rank=self.one_of(v, p, tuple(RANKS)))
        if k == "possess":
            self.keys(v, p, ("select", "count"), ("select",))
            return Condition(k, select=self.selector(v["select"], f"{p}.select"),
                             count=self.posint(v.get("count", 1), f"{p}.count"))
        if k == "lacks":
            return Condition(k, select=self.selector(v, p))
        if k == "possess_props":
            return Condition(k, props=self.props(v, p))
        # an opponent ranks higher / your turn in this round is still to come / you are the next seat to move
        if k in ("behind", "yet_to_move", "next_to_move"):
            if v is not True:
                self.fail(p, "expected true")
            return Condition(k)
        if k == "stronger":  # your Auslage delivers more of the property than every opponent's
            return Condition(k, prop=self.one_of(v, p, PLAIN))
        self.fail(p, "unknown condition")

    def conditions(self, v, path):
        if not isinstance(v, list):
            self.fail(path, "expected a list")
        return tuple(self.condition(c, f"{path}[{i}]") for i, c in enumerate(v))

    def cost(self, d, path):
        if not isinstance(d, dict) or len(d) != 1:
            self.fail(path, "a cost is an object with exactly one key (discard or remove)")
        (verb, v), = d.items()
        p = f"{path}.{verb}"
        self.one_of(verb, p, ("discard", "remove"))
        if v == "self":
            return Cost(verb, "self")
        self.keys(v, p, ("props", "select", "count", "from"), ("from",))
        zone = self.one_of(v["from"], f"{p}.from", ZONES)
        if ("props" in v) == ("count" in v):
            self.fail(p, "give either props or count (with an optional select)")
        if "props" in v:
            if "select" in v:
                self.fail(p, "props and select cannot be combined")
            return Cost(verb, "props", zone, props=self.props(v["props"], f"{p}.props"))
        return Cost(verb, "cards", zone, select=self.selector(v.get("select", {}), f"{p}.select"),
                    count=self.posint(v["count"], f"{p}.count"))

    def verb(self, d, path):
        if not isinstance(d, dict) or len(d) != 1:
            self.fail(path, "a verb is an object with exactly one key")
        (k, v), = d.items()
        p = f"{path}.{k}"
        if k in ("draw", "ascend"):
            return Verb(k, n=self.posint(v, p))
        if k == "descend":
            self.keys(v, p, ("who", "n"), ("who",))
            return Verb(k, n=self.posint(v.get("n", 1), f"{p}.n"), who=self.one_of(v["who"], f"{p}.who", WHO))
        if k == "choose":
            self.keys(v, p, ("select", "to", "count", "from"), ("select", "to"))
            zones = v.get("from", ["deck", "ablage", "auslage", "hand"])
            if not isinstance(zones, list) or not zones:
                self.fail(f"{p}.from", "expected a non-empty list of zones")
            for i, z in enumerate(zones):
                self.one_of(z, f"{p}.from[{i}]", SEARCH_ZONES)
            return Verb(k, n=self.posint(v.get("count", 1), f"{p}.count"),
                        select=self.selector(v["select"], f"{p}.select"),
                        to=self.one_of(v["to"], f"{p}.to", ("hand", "play", "play_now")), zones=tuple(zones))
        if k == "prevent":
            if v is not True:
                self.fail(p, "expected true")
            return Verb(k)
        if k == "extra":
            self.keys(v, p, ("play", "actions"))
            if len(v) != 1:
                self.fail(p, "give exactly one of play, actions")
            (lim, n), = v.items()
            return Verb(k, n=self.posint(n, f"{p}.{lim}"), limit=lim)
        if k == "force_discard":
            self.keys(v, p, ("who", "n", "from", "select", "weaker"), ("who",))
            return Verb(k, n=self.posint(v.get("n", 1), f"{p}.n"), who=self.one_of(v["who"], f"{p}.who", TARGETS),
                        src=self.one_of(v.get("from", "hand"), f"{p}.from", FORCE_ZONES),
                        select=self.selector(v["select"], f"{p}.select") if "select" in v else None,
                        weaker=self.one_of(v["weaker"], f"{p}.weaker", PLAIN) if "weaker" in v else None)
        if k in ("discard", "remove"):
            if v != "self":
                self.fail(p, "only \"self\" is supported")
            return Verb(f"{k}_self")
        self.fail(p, "unknown verb")

    def static(self, d, path):
        if not isinstance(d, dict):
            self.fail(path, "expected an object")
        if "limit" in d:
            self.keys(d, path, ("limit", "plus"), ("limit", "plus"))
            plus = d["plus"]
            if isinstance(plus, bool) or not isinstance(plus, int) or plus == 0:
                self.fail(f"{path}.plus", f"expected a whole number other than 0, got {plus!r}")
            return Static("limit", limit=self.one_of(d["limit"], f"{path}.limit", LIMITS), plus=plus)
        if "opp_limit" in d:  # every opponent's limit is lowered (never below the floor)
            self.keys(d, path, ("opp_limit", "minus"), ("opp_limit", "minus"))
            return Static("opp_limit", limit=self.one_of(d["opp_limit"], f"{path}.opp_limit", LIMITS),
                          plus=self.posint(d["minus"], f"{path}.minus"))
        if "ban" in d:  # opponents may not play (ausspielen) such cards
            self.keys(d, path, ("ban",), ("ban",))
            return Static("ban", select=self.selector(d["ban"], f"{path}.ban"))
        if "multiply" in d:
            self.keys(d, path, ("multiply", "factor"), ("multiply", "factor"))
            return Static("multiply", prop=self.one_of(d["multiply"], f"{path}.multiply", PLAIN),
                          factor=self.posint(d["factor"], f"{path}.factor"))
        self.fail(path, "expected a limit, multiply, opp_limit or ban effect")

    def ability(self, d, path):
        self.keys(d, path, ("kind", "if", "pay", "do", "static", "when", "on", "once_per_turn"), ("kind",))
        kind = self.one_of(d["kind"], f"{path}.kind", ("aktion", "reaktion", "effekt"))
        conds = self.conditions(d.get("if", []), f"{path}.if")
        costs = tuple(self.cost(c, f"{path}.pay[{i}]") for i, c in enumerate(self._list(d, "pay", path)))
        verbs = tuple(self.verb(v, f"{path}.do[{i}]") for i, v in enumerate(self._list(d, "do", path)))
        statics = tuple(self.static(s, f"{path}.static[{i}]") for i, s in enumerate(self._list(d, "static", path)))
        when = self.condition(d["when"], f"{path}.when") if "when" in d else None
        on = d.get("on")
        once = d.get("once_per_turn", False)
        if not isinstance(once, bool):
            self.fail(f"{path}.once_per_turn", "expected true or false")
        if sum(c.what != "self" for c in costs) > 1:
            self.fail(f"{path}.pay", "at most one cost may need a choice of cards")
        if sum(v.kind == "choose" for v in verbs) > 1:
            self.fail(f"{path}.do", "at most one choose per rule")
        if any(v.kind == "prevent" for v in verbs) and kind != "reaktion":
            self.fail(f"{path}.do", "only a reaktion can prevent")
        if kind == "effekt":
            modes = [bool(statics), when is not None, on is not None, once]
            if sum(modes) != 1:
                self.fail(path, "an effekt is exactly one of: static, when, on, once_per_turn")
            if on is not None:
                self.one_of(on, f"{path}.on", EVENTS)
            if (when is not None or on is not None or once) and not verbs:
                self.fail(f"{path}.do", "a triggered effekt needs verbs")
            if costs and not once:
                self.fail(f"{path}.pay", "only a once-per-turn effekt may have costs")
            if not once and any(v.kind == "choose" for v in verbs):
                self.fail(f"{path}.do", "a triggered effekt cannot choose (nobody is asked)")
        else:
            if statics or when is not None or once:
                self.fail(path, f"static/when/once_per_turn belong to an effekt, not a {kind}")
            if not verbs:
                self.fail(f"{path}.do", f"a {kind} needs verbs")
            if kind == "reaktion":
                on = self.one_of(on or "aktion", f"{path}.on", REACT_ON)
            elif on is not None:
                self.fail(f"{path}.on", "only an effekt or a reaktion has on")
        return Ability(kind, conds, costs, verbs, statics, when, on, once)

    def no_repeats(self, abilities):
        """A card states each rule once: a copy of a rule would be a second, independent use of
        it (a prevented Aktion retried through its copy, a once-per-turn effect used twice) and
        a repeated limit change adds up unseen. The schema has no way to repeat a rule: a
        stronger one is written with its number (``"plus": 2``, ``{"draw": 2}``)."""
        for i, a in enumerate(abilities):
            for j in range(i):
                if abilities[j] == a:
                    self.fail(f"rules[{i}]", f"repeats rules[{j}]; write a rule once (a limit change with its total)")
            for what, items in (("do", a.verbs), ("static", a.statics), ("pay", a.costs), ("if", a.conditions)):
                for k, x in enumerate(items):
                    if x in items[:k]:
                        self.fail(f"rules[{i}].{what}[{k}]", "repeats an earlier entry of the same rule")
        seen = {}
        for i, a in enumerate(abilities):
            for st in a.statics:
                if st.kind in ("limit", "opp_limit"):
                    key = (st.kind, st.limit, a.conditions)
                    if key in seen:
                        self.fail(f"rules[{i}].static", f"changes the {st.limit} limit under the same conditions "
                                  f"as rules[{seen[key]}]; give the total once")
                    seen[key] = i

    def _list(self, d, key, path):
        v = d.get(key, [])
        if not isinstance(v, list):
            self.fail(f"{path}.{key}", "expected a list")
        return v


CARD_KEYS = ("no", "name", "kind", "wappen", "rank", "path", "type", "level", "liefert",
             "rank_gate", "rules", "flavor", "count", "since", "until")


def parse_card(d) -> Card:
    no = d.get("no", "?") if isinstance(d, dict) else "?"
    P = _P(no)
    P.keys(d, "card", CARD_KEYS, ("no", "name", "kind", "flavor"))
    if isinstance(no, bool) or not isinstance(no, int) or no < 1:
        P.fail("no", "expected a positive whole number")
    kind = P.one_of(d["kind"], "kind", ("rank", "deck"))
    wappen = P.one_of(d["wappen"], "wappen", WAPPEN) if "wappen" in d else None
    rank = path = None
    if kind == "rank":
        rank = P.one_of(d.get("rank"), "rank", tuple(RANKS))
        if rank in PATH_RANKS:
            path = P.one_of(d.get("path"), "path", PATHS)
        elif "path" in d:
            P.fail("path", f"rank {rank} has no path versions")
        if d.get("count", 1) != 1:
            P.fail("count", "rank cards exist once per base set")
        if "liefert" in d or "type" in d:
            P.fail("kind", "rank cards neither deliver properties nor have a TYPE")
    else:
        for k in ("rank", "path"):
            if k in d:
                P.fail(k, "only rank cards have a rank or path (use rank_gate)")
    ctype = P.one_of(d["type"], "type", TYPES) if "type" in d else None
    level = P.posint(d.get("level", 0), "level", zero=True)
    if (ctype == "MYSTERIUM") != (level > 0):
        P.fail("level", "a MYSTERIUM needs a level >= 1; other cards have none")
    liefert = []
    for i, opt in enumerate(P._list(d, "liefert", "card")):
        if not isinstance(opt, dict):
            P.fail(f"liefert[{i}]", "expected an object")
        opt = dict(opt)
        conds = P.conditions(opt.pop("if", []), f"liefert[{i}].if")
        liefert.append(Delivery(P.props(opt, f"liefert[{i}]"), conds))
    gate = P.one_of(d["rank_gate"], "rank_gate", tuple(RANKS)) if "rank_gate" in d else None
    abilities = tuple(P.ability(a, f"rules[{i}]") for i, a in enumerate(P._list(d, "rules", "card")))
    P.no_repeats(abilities)
    since = P.posint(d.get("since", 1), "since")
    until = P.posint(d["until"], "until") if "until" in d else None
    if until is not None and until < since:
        P.fail("until", "a card version cannot end before it begins")
    return Card(no=no, name=P.text(d["name"], "name"), kind=kind, wappen=wappen, rank=rank,
                path=path, type=ctype, level=level, liefert=tuple(liefert), rank_gate=gate,
                abilities=abilities, flavor=P.text(d["flavor"], "flavor"),
                count=P.posint(d.get("count", 1), "count"), since=since, until=until)


@dataclass
class CardSet:
    cards: dict = field(default_factory=dict)  # no -> Card
    by_name: dict = field(default_factory=dict)  # German name -> [Card]

    def add(self, card: Card):
        if card.no in self.cards:
            raise CardError(f"card {card.no}: field no: number used twice")
        self.cards[card.no] = card
        self.by_name.setdefault(card.name.de, []).append(card)

    def check_references(self):
        """Names used in selectors must exist, so a typo cannot silently match nothing."""
        def sel_names(card):
            for ai, a in enumerate(card.abilities):
                for c in a.conditions + ((a.when,) if a.when else ()):
                    if c.select and c.select.name:
                        yield ai, c.select.name
                for c in a.costs:
                    if c.select and c.select.name:
                        yield ai, c.select.name
                for v in a.verbs:
                    if v.select and v.select.name:
                        yield ai, v.select.name
                for st in a.statics:
                    if st.select and st.select.name:
                        yield ai, st.select.name
        for card in self.cards.values():
            for ai, name in sel_names(card):
                if name not in self.by_name:
                    raise CardError(f"card {card.no}: field rules[{ai}]: unknown card name {name!r}")


def load_sets(paths) -> CardSet:
    cs = CardSet()
    for path in paths:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or set(data) - {"set", "cards"} or not isinstance(data.get("cards"), list):
            raise CardError(f"{path}: expected {{\"set\": ..., \"cards\": [...]}}")
        for d in data["cards"]:
            cs.add(parse_card(d))
    cs.check_references()
    return cs


def parse_cards(dicts) -> CardSet:
    cs = CardSet()
    for d in dicts:
        cs.add(parse_card(d))
    cs.check_references()
    return cs
