"""The Alchemist plugin: engine + presentation hooks + hidden-information resampling."""
from __future__ import annotations

from games.base import Plugin
from games.rng import Rng

from . import presentation
from .bots import BOTS
from .engine import final_scores


class AlchemistPlugin(Plugin):
    board_template = "alchemist/board.html"
    default_bot = "heuristic"

    def guide(self):
        from .guide import GUIDE

        return GUIDE

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

    def stats_colours(self):
        from .presentation import HEX

        return dict(HEX)

    def stats_figures(self, summaries, lang):
        from . import stats

        return stats.figures(summaries, lang)

    # Parts of the state no view shows that resample_hidden leaves as they are, and why (the
    # conformance suite's rule resample-covers).
    fixed_secrets = {
        "final": "the final scoring, written once at the end (then every view shows it)",
        "turns": "the number of turns played: follows from the public log",
    }

    def describe(self, event: dict, names: list[str], lang: str) -> str:
        return presentation.describe(event, names, lang)

    def board_context(self, view, seat, legal, lang):
        return presentation.board_context(view, seat, legal, lang)

    def action_from_form(self, data):
        return presentation.action_from_form(data)

    def highlights(self, events, view):
        return presentation.highlights(events)

    def premove_actions(self, state: dict, seat: int) -> list[dict]:
        """While waiting: the moves this seat would have if its turn came now (a turn changes only
        the board others build on; a queued move that no longer fits is dropped then)."""
        if state["finished"] or seat == state["turn"] or not 0 <= seat < state["n"]:
            return []
        return self.engine.legal_actions({**state, "turn": seat}, seat)

    def action_text(self, action, lang):
        return presentation.action_text(action, lang)

    def suggestion_text(self, view, seat, action, lang):
        return presentation.suggestion_text(view, seat, action, lang)

    def bots(self):
        return dict(BOTS)

    def tiebreak_scores(self, state: dict) -> list[float]:
        """Points (fame; totals once finished), then school rank as a fraction below 1."""
        final = final_scores(state)["seats"]
        out = []
        for s, row in enumerate(final):
            pts = row["total"] if state["finished"] else state["fame"][s]
            rank = row["school_rank"]
            out.append(pts + ((10 - rank) / 100 if rank else 0.0))
        return out

    def resample_hidden(self, state: dict, seat: int | None, rng: Rng) -> dict:
        """Redraw ``seat``'s screen from (its screen + bag) keeping both counts, and its school
        from the cards no other seat holds. Everyone: a fresh RNG (it is never shown)."""
        s = dict(state)
        s["rng"] = rng.next64()
        if seat is None or state["finished"]:
            return s
        hand = state["hands"][seat]
        pool = [h + b for h, b in zip(hand, state["bag"])]
        new = [0] * 5
        for _ in range(sum(hand)):
            r = rng.below(sum(pool))
            for i in range(5):
                if r < pool[i]:
                    pool[i] -= 1
                    new[i] += 1
                    break
                r -= pool[i]
        s["hands"] = list(state["hands"])
        s["hands"][seat] = new
        s["bag"] = pool
        if state["schools"]:
            others = {state["school"][o] for o in range(state["n"]) if o != seat}
            s["school"] = list(state["school"])
            s["school"][seat] = rng.choice([c for c in range(5) if c not in others])
        return s
