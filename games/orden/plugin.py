"""The Der Orden plugin: presentation and platform hooks around the pure engine."""
from __future__ import annotations

from games.base import IllegalAction, Plugin, Step
from games.orden import decks
from games.orden import effects as E
from games.orden import rules as R
from games.orden.roster import BOTS
from games.orden.effects import copy_state, tiebreak_key
from games.orden.engine import ENGINE
from games.orden.hidden import resample_hidden
from games.orden.text import SOURCE, TO, card_text
from games.textnum import is_small_int

LOG = {
    "turn": ("{who} ist am Zug (Runde {round}).", "{who}'s turn (round {round})."),
    "draw": ("{who} zieht {n} Karten.", "{who} draws {n} cards."),
    "drew": ("Du ziehst {cards}.", "You draw {cards}."),
    "reshuffle": ("{who} mischt die Ablage ({n} Karten) zum neuen Nachziehstapel.",
                  "{who} shuffles the discard pile ({n} cards) into a new draw pile."),
    "shuffle": ("{who} mischt den Nachziehstapel.", "{who} shuffles the draw pile."),
    "play": ("{who} spielt {card} aus.", "{who} plays {card}."),
    "play_reaction": ("{who} spielt {card} als Reaktion aus.", "{who} plays {card} as a reaction."),
    "replaced": ("{who} legt {card} ab, weil {by} denselben Typ hat.",
                 "{who} discards {card}: {by} has the same type."),
    "activate": ("{who} kündigt an: {card} – {rule}", "{who} announces: {card} – {rule}"),
    "react": ("{who} reagiert mit {card}.", "{who} reacts with {card}."),
    "decline": ("{who} reagiert nicht.", "{who} does not react."),
    "deadline": ("Die Reaktionsfrist von {who} ist abgelaufen.", "{who}'s time to react has run out."),
    "never_ask": ("{who} will {never}nach Reaktionen gefragt werden.", "{who} wants {never}to be asked for reactions."),
    "prevented": ("{by} verhindert die Aktion von {card} ({who}).", "{by} prevents the action of {card} ({who})."),
    "fizzle": ("Die Regel von {card} ({who}) kann nicht mehr angewendet werden.",
               "The rule of {card} ({who}) can no longer be applied."),
    "discard": ("{who} legt {cards} ab.", "{who} discards {cards}."),
    "remove": ("{who} entfernt {cards} (Außenwelt).", "{who} removes {cards} (outside world)."),
    "choose": ("{who} wählt {card} ({source}) und {to}.", "{who} chooses {card} ({source}) and {to}."),
    "ascend": ("{who} steigt auf: {card}, RANG {rank}.", "{who} ascends: {card}, RANK {rank}."),
    "descend": ("{who} steigt ab: {card}, RANG {rank}.", "{who} descends: {card}, RANK {rank}."),
    "must_discard": ("{who} muss {n} Karten ablegen.", "{who} must discard {n} cards."),
    "end_turn": ("{who} beendet den Zug.", "{who} ends the turn."),
    "standstill": ("Stillstand: Niemand kann mehr aufsteigen, die erreichten Ränge entscheiden.",
                   "Standstill: nobody can ascend any more; the ranks reached decide."),
    "end": ("Spielende. {placements}", "Game over. {placements}"),
}
# The lines above for n == 1 (one card, not "1 cards").
LOG_ONE = {"draw": ("{who} zieht 1 Karte.", "{who} draws 1 card."),
           "must_discard": ("{who} muss 1 Karte ablegen.", "{who} must discard 1 card.")}


def card_name(no, lang) -> str:
    c = R.C[no]
    return f"„{c.name.de}“" if lang == "de" else f"“{c.name.en}”"


class OrdenPlugin(Plugin):
    board_template = "orden/board.html"
    default_bot = "heuristic"

    def guide(self):
        from .guide import GUIDE

        return GUIDE

    def showcase(self):
        return {"players": 2, "moves": 12}

    def showcase_ready(self, state):
        """A fresh turn, so the hand offers its moves."""
        return state.get("phase") == "main" and state["t"]["plays"] == 0 and state["t"]["acts"] == 0

    def league_rank_points(self):
        """The „Ligawertung“: points = rank reached (VI+ 6.5, IX+ 9.5, X 10, no rank "0": 0)."""
        from .schema import RANKS

        return {label: str(points) for label, points in RANKS.items()}

    # -- statistics (games/<slug>/stats.py) --------------------------------------------------
    def stats_summary(self, view, choices):
        from . import stats

        return stats.summary(view, choices)

    def stats_groups(self, summary):
        from . import stats

        return stats.groups(summary)

    def stats_labels(self, lang):
        from . import stats

        return stats.labels(lang)

    def stats_figures(self, summaries, lang):
        from . import stats

        return stats.figures(summaries, lang)
    # Set by the Django part (games/orden/web) at start-up: the player's saved decks, offered
    # beside the starter decks. None without that app: starter decks only.
    deck_source = None
    # Parts of the state no view shows that resample_hidden leaves as they are, and why (the
    # conformance suite's rule resample-covers).
    fixed_secrets = {
        "ci[*]": "a card instance's number is fixed at set-up from the public deck lists; the secret is "
                 "where each instance lies (hand or deck), which resample_hidden redraws",
        "own[*]": "a card instance's owner is fixed at set-up (the seat whose deck it came from)",
        "v": "the rules version the match was set up under",
        "p[*].never": "the retired 'never ask' switch (old logs only); no view shows it, nobody needs to",
        "res.left": "how many picks the payment still needs: follows from the public rule being paid",
        "res.stage": "the payment's stage: follows from the public rule being paid",
        "res.vi": "the verb of the rule being paid: public (the rule card is open)",
        "pend.step": "how far a pending rule has got: follows from the public log",
        "pend.used[*]": "the cards that already reacted in this window (one reaction per card): each "
                        "reaction is announced in the public log and its card then lies open",
        "t.oncefx[*][*]": "the once-per-turn effects used this turn: follow from the public log",
    }

    # -- seat choices ---------------------------------------------------------------------
    def seat_choice_values(self, key, user_id):
        if key != "deck":
            return []
        # A (German, English) label pair: the form shows the page's language (frontend/forms.py).
        starters = [(f"starter:{p}", (f"Startdeck: {de}", f"Starter deck: {en}"))
                    for p, (de, en) in decks.STARTER_NAMES.items()]
        return starters + (self.deck_source.choices(user_id) if self.deck_source else [])

    def clean_choices(self, raw, user_id):
        # an explicit deck (a saved deck's card list) is allowed beside the starter ids
        raw = dict(raw or {})
        deck = raw.get("deck", "starter:schwert")
        if not isinstance(deck, str):
            try:
                decks.playable(deck)
            except decks.DeckError as e:
                from games.base import BadOptions
                raise BadOptions(e.en, e.de) from None
            return {"deck": deck}
        if deck.startswith("deck:"):  # a saved deck: its list is copied now and stays locked
            from games.base import BadOptions
            if self.deck_source is None:
                raise BadOptions("Saved decks are not available here.",
                                 "Gespeicherte Decks sind hier nicht verfügbar.")
            try:
                saved, _ = decks.with_current_versions(self.deck_source.resolve(deck, user_id))
                return {"deck": decks.playable(saved)}
            except decks.DeckError as e:
                raise BadOptions(e.en, e.de) from None
        return super().clean_choices(raw, user_id)

    def resolve_choices(self, choices):
        out = []
        for ch in choices:
            spec = (ch or {}).get("deck", "starter:schwert")
            out.append({"deck": decks.resolve(spec), "deck_id": spec if isinstance(spec, str) else "custom"})
        return out

    # -- presentation ---------------------------------------------------------------------
    board_context_takes_highlights = True

    def board_context(self, view, seat, legal, lang, hl=None):
        from games.orden.presentation import board_context
        return board_context(view, seat, legal, lang, hl)

    def highlights(self, events, view):
        from games.orden.presentation import highlights
        return highlights(events)

    def describe(self, event, names, lang):
        de = lang == "de"
        i = 0 if de else 1
        t = event.get("type", "?")
        seat = event.get("seat")
        who = names[seat] if seat is not None and seat < len(names) else "?"
        key = "play_reaction" if t == "play" and event.get("reaction") else t
        if key not in LOG:
            return t
        f = {"who": who, "n": event.get("n", ""), "round": event.get("round", ""),
             "rank": event.get("rank", ""), "ability": event.get("ability", 0) + 1}
        if "card" in event:
            f["card"] = card_name(event["card"], lang)
        if t == "activate":  # the rule in words, as the button that announced it said
            from games.orden.presentation import _rule
            f["rule"] = _rule(event["card"], event.get("ability", 0), "de" if de else "en")
        if "by" in event:
            by = event["by"]
            f["by"] = card_name(by, lang) if t == "replaced" else (names[by] if by < len(names) else "?")
        if "cards" in event:
            f["cards"] = ", ".join(card_name(no, lang) for no in event["cards"])
        if t == "choose":
            f["to"] = TO[event["dest"]][i]
            f["source"] = SOURCE[event["source"]][i]
        if t == "never_ask":
            f["never"] = ("nie mehr " if de else "never ") if event.get("value") else ("wieder " if de else "again ")
        if t == "end":
            parts = [f"{p['place']}. {names[p['seat']] if p['seat'] < len(names) else '?'} "
                     f"({'RANG' if de else 'RANK'} {p['rank']}, {p['score']:g})"
                     for p in sorted(event["placements"], key=lambda p: p["place"])]
            f["placements"] = "; ".join(parts)
        line = LOG_ONE[key] if key in LOG_ONE and event.get("n") == 1 else LOG[key]
        return line[i].format(**f)

    def card_text(self, no, lang):
        return card_text(R.C[no], lang)

    # -- hidden information ---------------------------------------------------------------
    def resample_hidden(self, state, seat, rng):
        return resample_hidden(state, seat, rng)

    # -- orders (games/orden/orders.py) ----------------------------------------------------
    def order_kinds(self):
        from games.orden.orders import KINDS
        return KINDS

    def clean_order(self, order):
        from games.orden.orders import clean_order
        return clean_order(order)

    def ordered_action(self, state, seat, orders):
        from games.orden.orders import ordered_action
        return ordered_action(state, seat, orders)

    def premove_actions(self, state, seat):
        from games.orden.orders import premoves
        return premoves(state, seat)

    def premove_due(self, state, seat):
        from games.orden.orders import premove_due
        return premove_due(state, seat)

    def premove_text(self, state, seat, action, lang):
        """A queued move named with its card (the seat's own: its hand, Path or Display)."""
        from games.orden.presentation import queued_text
        return queued_text(state, action, lang)

    def public_action(self, action, seat, viewer):
        # The retired "never ask me" (old logs only) is the player's own setting: others see
        # a plain decline, and of the switch itself nothing but that the seat did something.
        if viewer != seat and isinstance(action, dict) and action.get("type") == "never_ask":
            return {"type": "setting"}
        if viewer != seat and isinstance(action, dict) and action.get("type") == "decline":
            return {"type": "decline"}
        # A pick for a payment names a hand card and may still be taken back: others see only
        # that a card was picked. The pick that completes the payment shows the paid cards in
        # its events (and cannot be taken back: Step.reveals).
        if viewer != seat and isinstance(action, dict) and action.get("type") == "pay":
            return {"type": "pay"}
        return action

    def timed_default(self, state, seat, options):
        # Play over days: a player asked to react who does not answer within the invitation's
        # reaction deadline declines (spec orden.md), so the acting player is not held up.
        hours = state["opts"].get("reaction_hours") or 0
        if state["phase"] == "react" and state["res"] is None and state["pend"]["asked"] == seat and hours > 0:
            return float(hours), {"type": "decline"}
        return None

    def placements_at_time_limit(self, state):
        # "Auf Zeit": placements by rank reached, the tie-break list and the lot (the same
        # rule as the fixed number of rounds), the lot drawn from a copy of the state's RNG.
        return E.final_placements(E.Ctx(copy_state(state)))

    def apply_penalty(self, state, seat, penalty):
        if penalty != "descend_rank":
            return None
        ctx = E.Ctx(copy_state(state))
        E.descend(ctx, seat)
        E.settle(ctx)
        return Step(ctx.done(), ctx.events, ctx.reveals)

    def time_limit_days(self, options):
        return (options or {}).get("deadline_days") or None  # 0: off

    def tiebreak_scores(self, state):
        out = []
        for s in range(state["n"]):
            level, total, count = tiebreak_key(state, s)
            out.append(R.rank(state, s) * 1e6 + level * 1e4 + min(total, 99) * 100 + min(count, 99))
        return out

    def bots(self):
        return dict(BOTS)

    def suggestion_text(self, view, seat, action, lang):
        from games.orden.presentation import suggestion_text
        return suggestion_text(view, seat, action, lang)

    def action_from_form(self, data):
        action = super().action_from_form(data)
        for k in ("card", "ability"):
            if k in action and is_small_int(action[k], 6):
                action[k] = int(action[k])
        if not isinstance(action.get("type"), str):
            raise IllegalAction("The move could not be read.", "Der Zug konnte nicht gelesen werden.")
        return action


PLUGIN = OrdenPlugin(ENGINE)
