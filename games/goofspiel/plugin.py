"""The Goofspiel plugin: the engine plus its words, board, bots and hidden-information redraw."""
from __future__ import annotations

from games.base import IllegalAction, Plugin

from . import presentation
from .bots import BOTS
from .engine import ENGINE


class GoofspielPlugin(Plugin):
    board_template = "goofspiel/board.html"  # its CSS: static/goofspiel/board.css (the kit links it)
    default_bot = "heuristic"  # the guided match's and a departed seat's player

    def guide(self):
        from .guide import GUIDE

        return GUIDE

    # -- statistics ------------------------------------------------------------------------
    def stats_summary(self, view, choices):
        from . import stats

        return stats.summary(view)

    def stats_labels(self, lang):
        from . import stats

        return stats.labels(lang)

    def stats_figures(self, summaries, lang):
        from . import stats

        return stats.figures(summaries, lang)

    def describe(self, event, names, lang):
        return presentation.describe(event, names, lang)

    def board_context(self, view, seat, legal, lang):
        return presentation.board_context(view, seat, legal, lang)

    def highlights(self, events, view):
        return presentation.highlights(events)

    def action_text(self, action, lang):
        return presentation.action_text(action, lang)

    def action_from_form(self, data):
        """The board's forms post ``card`` (one button per card)."""
        raw = (data.get("card") or "").strip()
        if not raw.isdigit() or len(raw) > 2:
            raise IllegalAction("Choose a card to bid.", "Wähle eine Karte zum Bieten.")
        return {"type": "bid", "card": int(raw)}

    def form_fields(self, action):
        """The fields of the board's form for ``action`` (for the conformance suite's round trip)."""
        return {"card": str(action["card"])}

    def public_action(self, action, seat, viewer):
        # A bid is secret until all are revealed together (the reveal event names every bid).
        if viewer != seat and isinstance(action, dict) and action.get("type") == "bid":
            return {"type": "bid"}
        return action

    def bots(self):
        return dict(BOTS)

    def tiebreak_scores(self, state):
        return [float(s) for s in ENGINE.scores(state)]

    def resample_hidden(self, state, seat, rng):
        """``seat``'s bid (if it lies on the table) redrawn from its hand; for nobody: the order
        of the face-down prizes and the RNG."""
        new = {**state, "bids": list(state["bids"]), "prizes": list(state["prizes"]), "rng": rng.next64()}
        if seat is None:
            rng.shuffle(new["prizes"])
        elif new["bids"][seat] is not None:
            new["bids"][seat] = rng.choice(state["hands"][seat])
        return new


PLUGIN = GoofspielPlugin(ENGINE)
