"""Der Orden: the pure engine (games.base.Engine protocol)."""
from __future__ import annotations

from games.base import GameMeta, IllegalAction, Option, SeatChoice, Step
from games.orden import decks
from games.orden import effects as E
from games.orden import rules as R
from games.orden.legal import canon, legacy_ok, legal, used_once
from games.orden.scoring import league_points  # noqa: F401  (re-exported)
from games.rng import Rng

# "2": instance ids that say nothing about the draw order, the Ablage shuffled in as a state
# (effects.V); matches set up under "1" keep their rules version (setup_version, state["v"]).
# "3": the second base set: changed cards are new card numbers, the old versions
# stay in the catalog (schema.Card.until), and a match set up under "1" or "2" resolves its
# starter decks and checks its decks with the cards of its own version (decks.resolve).
# "4": the balance pass measured with the lookahead pilot: Kraft no longer draws, Foliant
# draws 2, Dekan ascends cheaply from 6x W, Triumvirat lost its AUSSPIELEN+1; new card numbers, the
# version-3 cards stay for replays.
# "5": Triumvirat delivers 2x ?, not 3x (the harness's best finds, a Hammer Pfad with another path's
# rank V, all carried it); the version-4 card stays for replays.
# "6": Einspruch, Bestechung, Ruf zu den Waffen and Disputation remove themselves, Dekan removes the 2x W
# it prevents with: a discarded preventer came straight back through the reshuffle, so late games
# (every deck in its Auslage) prevented each other's ascents for ever (8 of 150 3-player games).
# "7": Hammer led and Buch trailed at 4 players: Der Zehnt lowers the others' HANDLIMIT only while its
# owner is behind, Zunftbrief's shield removes itself, Lehrer ascends with 3 W cards owned (not 4).
# "8": Buch trailed at 3 players (-6.3 points, 300 games): Professor's cheap ascent asks a BURG and 2x T + 3x W
# from the hand, not 6x W owned besides (the Schwert's blows at the Auslage took what it counted).
# "9": a deck holds at most one BURG (a Hammer deck with a second one won 68 % against its starter);
# Student and Lehrer count the W they own (3x, 5x), not W cards; Professor's cheap ascent wants VI+
# still in the Pfad (without it: 6x W owned and 4x W), so dropping VI+ is a trade (a Buch deck
# without VI+ and its MENTORs won 65-68 % against every starter).
# "10": Student's and Lehrer's cheap ascents want a MENTOR in the Auslage besides the W owned (a Buch
# deck without VI+ and without its MENTORs still won 66.5 % against the Hammer starter: the MENTORs
# served only Dekan's route, so a deck that dropped VI+ dropped them too and ran one rank shorter).
# "11": Foliant draws from 8x W owned, not 6x (as Goldbarren from 8x V): a Buch deck without VI+ and
# its MENTORs (W doubled) still won 61.8 % of 800 games against the Hammer starter; screened, the
# change cost that deck 4 points and the Buch starter 1.
# "12": Das Fundament (AUSSPIELEN+1 with a BURG) at most once per deck, not twice: the Hammer starter
# with a second one and a Zoll, without IX+, won 61.0 % of 800 fresh games against itself (the
# second Fundament alone 56.0, without it 40.5: each copy adds a play to Hammer's whole game).
# "13": Gnade (a catch-up ascent for 3x ? from the hand) removes itself when used, not discards: a
# 32-card deck drew its two Gnaden back every few turns (and Schriftrolle recalled them) and climbed by
# them, 74.5-75.8 % against every starter; removed, the same deck won 37.5 % of 200 games against
# Schwert (version 12: 77.0 on the same seeds).
# "14": lean starters (38 cards, decks.STARTER_CARDS_V14): a 35-card Hammer deck won 67-74 % against
# every 48-card starter by density; the cards and rules are those of "13".
# "15": the lean starters with T back (decks.STARTER_CARDS_V15: a Treueschwur and Triumvirat each, Buch a
# Demut besides): the lean Hammer starter with them won 70.5 % against Schwert; the cards and rules of "13".
# "16": that T without Triumvirat (decks.STARTER_CARDS_V16: a Treueschwur and Gehorsam each): Triumvirat's
# 2x ? wants VI+ in the Pfad, so dropping VI+ lost 33-39.5 %; the cards and rules of "13".
# "17": Schwert without its fourth Gehorsam (decks.STARTER_CARDS_V17, 39 cards): Schwert won 37.8 % of
# 2-player and 39.5 % of 3-player tables on "16"; the cards and rules of "13".
# "18": Zoll 136→236 pays with itself (was: any 1x V from the hand, and it stayed in the Auslage: a toll on
# every Aktion of a rival), Triumvirat 308→408 delivers 1x T and 1x ? (was 2x ?; still with VI+ in the Pfad, the
# seed's example). No starter holds either; a 38-card Hammer list with one of each won 63.0 % of 200 games against
# the Hammer starter on "17" (without its Triumvirat 49.5, without its Zoll 53.0), with both changed 56.5; rules of "13".
# "19": Foliant 341→441 delivers 2x W or, from RANG VII on, 2x E (was 2x W): with the bots preventing only from
# IX on, Buch won 26.3 % of 2-player and 27.8 % of 3-player tables on "18" and lost at the last two ascents
# (E and S, the same cards for every path); with the change, on the same seeds, 32.5 and 34.0; rules of "13".
# "20": Schwert's fourth Gehorsam back (decks.STARTER_CARDS_V20, 40 cards, version 16's list): with the bots of
# "19" Schwert reached RANG IV 1.4 rounds after Hammer and won 29.2 / 28.3 / 25.2 % of 2/3/4-player tables; with
# the card, on the same seeds, 35.0 / 30.0 / 29.2 % (fresh seeds: 35.8 / 33.9 / 30.2); the cards and rules of "19".
# "21": Einspruch 275→475 prevents an ascent only for a player whose turn in this round is still to come
# (condition ``yet_to_move``) and costs only itself; every starter holds one (decks.STARTER_CARDS_V21). The game
# ends the moment a rank X comes on top, so in a round where two could finish the earlier seat won: the start
# player won 57.5 / 37.7 % of 2/3-player tables on "20", 49.7 / 31.5 % with the change (seeds 1-600); rules of "19".
# "22": Stillstand (games/orden/standstill.py): at the end of a round in which no player can ever ascend again
# (every S spent, and no ? stands for S) the game ends, places by rank and the tie-break list, as after the seed's
# round counter; 1 of 1,600 games of found decks against Buch ran to the 300-round cap on "21". Triumvirat 408→508
# delivers its 1x T and 1x ? only from RANG VI on (still with VI+ in the Pfad): lean-hammer-gold, a
# 38-card Hammer list with it, won 65.2 % against the Buch starter on "21", 52.0 % with the change (same seeds).
# "23": thin starters (decks.STARTER_CARDS_V23, 31 / 35 / 34 cards, IX+ kept): each drops a Gehorsam, Mysterium der
# Flamme, Ordensregel and path cards. On "22" the search's find was the Hammer starter without IX+ and eight cards
# (33): 63.7-72.5 % against every starter; the cards and rules of "22".
# "24": Schwert's starter without a third Kraft (decks.STARTER_CARDS_V24, 30 cards): on "23" Schwert won 28.3 % and
# Hammer 37.8 % of 4-player tables; the cards and rules of "22".
# "25": Einspruch 475→575 prevents an ascent only for the seat that moves next in the round (condition next_to_move;
# was: every seat still to move): at 4 players the start player faced three Einsprüche, the last seat none; on "24"
# the start player won 25.8 % of 3-player (900 games, fair 33.3) and 19.6 % of 4-player tables (800, fair 25).
ENGINE_VERSION = "25"
assert decks.CURRENT == E.V == int(ENGINE_VERSION)  # one version for the rules, the cards and the log
HAND_START = 7

META = GameMeta(
    slug="orden", name_en="The Order", name_de="Der Orden", min_players=2, max_players=6,
    engine_version=ENGINE_VERSION,
    options=(
        Option("rounds", "int", 0, "Fixed number of rounds (0 = off)", "Feste Rundenzahl (0 = aus)",
               "Recommended 50–100 (print rules).", "Empfohlen 50–100 (Druckversion der Regeln).", min=0, max=500),
        Option("deadline_days", "int", 0, "Time limit in days (0 = off)", "Zeitlimit in Tagen (0 = aus)",
               min=0, max=365),
        Option("reaction_hours", "int", 24, "Reaction deadline (hours)", "Reaktionsfrist (Stunden)",
               "An unanswered reaction window passes after this time.",
               "Ein unbeantwortetes Reaktionsfenster verstreicht nach dieser Zeit.", min=1, max=168),
    ),
    seat_choices=(SeatChoice("deck", "Deck", "Deck", default="starter:schwert"),),
    summary_en="Climb the Order's hierarchy on the path of the Sword, the Hammer or the Book.",
    summary_de="Durchlaufe die Ordenshierarchie auf dem Pfad des Schwertes, des Hammers oder des Buches.",
)

_REASONS = {
    "play": ("You cannot play that card now.", "Diese Karte kannst Du jetzt nicht ausspielen."),
    "activate": ("That rule cannot be used now (limit, condition or cost).",
                 "Diese Regel kann jetzt nicht angewendet werden (Limit, Bedingung oder Kosten)."),
    "react": ("That reaction is not possible.", "Diese Reaktion ist nicht möglich."),
    "discard": ("Discard a card from your hand.", "Lege eine Karte von der Hand ab."),
    "pay": ("That card does not help to pay this cost.", "Diese Karte hilft nicht, diese Kosten zu bezahlen."),
    "choose": ("That card cannot be chosen.", "Diese Karte kann nicht gewählt werden."),
}


def _listed(action, listed) -> bool:
    """``canon(action)`` among the canonical listed actions; listed actions hold no lists (the
    common case) compare as they are: a posted list then matches nothing either way."""
    for a in listed:
        for v in a.values():
            if v.__class__ is list:
                return canon(action) in [canon(a) for a in listed]
    return action in listed


class OrdenEngine:
    meta = META

    # -- set-up ---------------------------------------------------------------------------
    def setup(self, players: int, options: dict, seed: int, choices: list[dict]) -> dict:
        return self._setup(players, options, seed, choices, E.V)

    def setup_version(self, version: str, players: int, options: dict, seed: int, choices: list[dict]) -> dict:
        """The set-up of a match recorded under an older engine version (its replay): version
        "1" dealt instance ids in the draw order and kept no rules version in the state."""
        v = int(version) if str(version).isdigit() else E.V
        return self._setup(players, options, seed, choices, min(max(v, 1), E.V))

    def _setup(self, players, options, seed, choices, v) -> dict:
        self.meta.check_players(players)
        opts = self.meta.clean_options(options)
        choices = list(choices or [{} for _ in range(players)])
        if len(choices) != players:
            raise ValueError("one choice dict per seat")
        rng = Rng(seed)
        ci, own, ps = [], [], []
        for s in range(players):
            deck = decks.resolve((choices[s] or {}).get("deck", "starter:schwert"), v)
            pfad = []
            for no in deck["pfad"]:
                pfad.append(len(ci))
                ci.append(no)
                own.append(s)
            nos = list(deck["cards"])
            rng.shuffle(nos)  # which card an instance id names: drawn by lot
            dk = []
            for no in nos:
                dk.append(len(ci))
                ci.append(no)
                own.append(s)
            if v >= 2:
                rng.shuffle(dk)  # and the pile's order apart from it: an id tells no draw order
            ps.append({"deck": dk, "pfad": pfad, "hand": [], "auslage": [], "ablage": [], "aussen": [],
                       "known": [], "never": False, "path": decks.path_of(deck)})
        start = rng.below(players)
        st = {"n": players, "opts": opts, "rng": rng.state, "ci": ci, "own": own, "p": ps,
              "cur": start, "start": start, "round": 1, "rounds_left": opts["rounds"],
              "t": E.fresh_turn(), "phase": "main", "pend": None, "res": None, "trig": [], "result": None}
        if v >= 2:
            st["v"] = v
        ctx = E.Ctx(st)
        for s in range(players):
            E.draw(ctx, s, HAND_START)
        E.turn_start(ctx)
        E.settle(ctx)
        return ctx.done()

    # -- queries --------------------------------------------------------------------------
    def to_move(self, state: dict) -> list[int]:
        if state["phase"] == "over":
            return []
        if state["res"] is not None:
            return [state["res"]["seat"]]
        if state["phase"] == "react":
            return [state["pend"]["asked"]]
        return [state["cur"]]

    @staticmethod
    def _mover(state):
        """``to_move(state)[0]`` of a game not over."""
        if state["res"] is not None:
            return state["res"]["seat"]
        if state["phase"] == "react":
            return state["pend"]["asked"]
        return state["cur"]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return legal(state, seat)

    def outcome(self, state: dict):
        return state["result"]

    # -- apply ----------------------------------------------------------------------------
    def apply(self, state: dict, seat: int, action: dict) -> Step:
        if state["phase"] == "over":
            raise IllegalAction("The game is over.", "Das Spiel ist vorbei.")
        if seat != self._mover(state):
            raise IllegalAction("It is not your turn.", "Du bist nicht am Zug.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("The move could not be read.", "Der Zug konnte nicht gelesen werden.")
        if action["type"] == "choose" and "zone" not in action:
            action = self._old_choose(state, seat, action)
        try:
            ok = _listed(action, legal(state, seat, action)) or legacy_ok(state, seat, action)
        except (TypeError, KeyError, AttributeError, ValueError):
            ok = False
        if not ok:
            en, de = _REASONS.get(action["type"], ("That move is not possible now.",
                                                    "Dieser Zug ist jetzt nicht möglich."))
            raise IllegalAction(en, de)
        return self.apply_legal(state, seat, action)

    def apply_legal(self, state: dict, seat: int, action: dict) -> Step:
        """``apply`` without the validation, for bots' simulations (the lookahead's playouts):
        ``action`` must be one ``legal_actions(state, seat)`` just listed (checking it again
        costs as much as listing it)."""
        ctx = E.Ctx(E.copy_state(state))
        ctx.actor = seat
        getattr(self, "_do_" + action["type"])(ctx, seat, action)
        E.refill_all(ctx)
        if E.in_play_changed(state, ctx.st):
            # trigger conditions read only these zones: unchanged, the last settle still holds
            E.settle(ctx)
        return Step(ctx.done(), ctx.events, ctx.reveals)

    @staticmethod
    def _old_choose(state, seat, action):
        """``{"type": "choose", "card": no}`` without a zone (the shape before the player chose
        the zone) still works: the first searched zone holding the card, Nachziehstapel first."""
        res = state.get("res")
        if state["phase"] != "choose" or res is None or res["seat"] != seat:
            return action
        verb = R.rule_card(state, res).abilities[res["ability"]].verbs[res["vi"]]
        found = R.find_chosen(state, seat, verb, action.get("card"), exclude=(R.rule_source(state, res),))
        return {**action, "zone": found[1]} if found else action

    def _do_play(self, ctx, s, a):
        ctx.st["t"]["plays"] += 1
        ctx.ev(type="play", seat=s, card=ctx.st["ci"][a["card"]])
        E.put_in_play(ctx, s, a["card"], "hand")

    def _do_activate(self, ctx, s, a):
        st = ctx.st
        c = R.card(st, a["card"])
        ab = c.abilities[a["ability"]]
        ctx.ev(type="activate", seat=s, card=c.no, ability=a["ability"])
        if ab.kind == "effekt":  # a once-per-turn effect: cannot be reacted to
            t = st["t"]
            less = used_once(t, ab.group) if ab.group in t["once"] else None  # a top-up
            if less is None:
                t["once"].append(ab.group)
            t["oncefx"] = t.get("oncefx", []) + [[c.no, a["ability"]]]  # replaced, never changed in place
            E.start_rule(ctx, s, a["card"], a["ability"], "effekt", less)
            return
        st["t"]["acts"] += 1
        st["pend"] = {"seat": s, "card": a["card"], "no": c.no, "ability": a["ability"], "asked": None, "step": 0,
                      "used": []}
        E.advance_window(ctx)

    def _do_react(self, ctx, s, a):
        st = ctx.st
        iid = a["card"]
        c = R.card(st, iid)
        if iid in st["p"][s]["hand"]:
            ctx.ev(type="play", seat=s, card=c.no, reaction=True)
            E.put_in_play(ctx, s, iid, "hand")
        ctx.ev(type="react", seat=s, card=c.no, ability=a["ability"])
        E.start_rule(ctx, s, iid, a["ability"], "reaktion")

    def _do_pay(self, ctx, s, a):
        # one card, or the cheapest covering set at once (legal.pay_options lists it first)
        ctx.st["res"]["picked"].extend(a["cards"] if "cards" in a else [a["card"]])
        E.step_rule(ctx)

    def _do_choose(self, ctx, s, a):
        st = ctx.st
        res = st["res"]
        verb = R.rule_card(st, res).abilities[res["ability"]].verbs[res["vi"]]
        E.take_chosen(ctx, s, R.rule_source(st, res), verb, a["card"], a["zone"])
        res["left"] -= 1
        E.step_rule(ctx)

    def _do_decline(self, ctx, s, a):
        ctx.ev(type="decline", seat=s)
        if a.get("never_ask"):
            ctx.st["p"][s]["never"] = True
            ctx.ev(type="never_ask", seat=s, value=True, to=[s])
        E.advance_window(ctx)

    def _do_never_ask(self, ctx, s, a):
        # retired (legacy_ok): old logs replay; the setting stays the player's own (``to``)
        ctx.st["p"][s]["never"] = a["value"]
        ctx.ev(type="never_ask", seat=s, value=a["value"], to=[s])

    def _do_end_turn(self, ctx, s, a):
        st = ctx.st
        lim = R.limit(st, s, "hand")
        hand = st["p"][s]["hand"]
        if len(hand) > lim:
            st["phase"] = "discard"
            ctx.ev(type="must_discard", seat=s, n=len(hand) - lim)
            return
        E.draw(ctx, s, lim - len(hand))
        ctx.ev(type="end_turn", seat=s)
        E.next_turn(ctx)

    def _do_discard(self, ctx, s, a):
        st = ctx.st
        E.move(ctx, s, a["card"], "hand", "ablage")
        ctx.ev(type="discard", seat=s, cards=[st["ci"][a["card"]]])
        if len(st["p"][s]["hand"]) <= R.limit(st, s, "hand"):
            ctx.ev(type="end_turn", seat=s)
            E.next_turn(ctx)

    # -- views ----------------------------------------------------------------------------
    def view(self, state: dict, seat: int | None) -> dict:
        ci = state["ci"]

        def cards(ids):
            return [{"id": i, "no": ci[i]} for i in ids]

        seats = []
        for s, p in enumerate(state["p"]):
            top = R.card(state, p["pfad"][0])
            v = {"seat": s, "rank": top.rank, "rank_value": top.rank_value, "path": p["path"],
                 "pfad": cards(p["pfad"]), "auslage": cards(p["auslage"]), "ablage": cards(p["ablage"]),
                 "aussen": cards(p["aussen"]), "deck_size": len(p["deck"]), "hand_size": len(p["hand"]),
                 "known_hand": cards(p["known"]),
                 "limits": {k: R.limit(state, s, k) for k in ("play", "actions", "hand")}}
            if s == seat:
                v["hand"] = cards(p["hand"])
            seats.append(v)
        t = state["t"]
        view = {"players": state["n"], "seat": seat, "cur": state["cur"], "start": state["start"],
                "phase": state["phase"], "round": state["round"], "rounds_left": state["rounds_left"],
                "options": dict(state["opts"]), "seats": seats,
                "turn": {"plays": t["plays"], "actions": t["acts"], "blocked": list(t["blocked"]),
                         "once": list(t["once"])},
                "pending": None, "result": state["result"]}
        pend = state["pend"]
        if pend is not None:
            view["pending"] = {"seat": pend["seat"], "card": pend["card"], "no": R.rule_card(state, pend).no,
                               "ability": pend["ability"], "asked": pend["asked"],
                               "deadline_hours": state["opts"]["reaction_hours"]}
        res = state["res"]
        view["resolving"] = None
        if res is not None:
            rv = {"seat": res["seat"], "card": res["card"], "no": R.rule_card(state, res).no, "ability": res["ability"],
                  "kind": res["kind"], "stage": state["phase"]}
            if seat == res["seat"]:
                rv["picked"] = list(res["picked"])  # hand cards stay secret until paid
            view["resolving"] = rv
        return view


ENGINE = OrdenEngine()
