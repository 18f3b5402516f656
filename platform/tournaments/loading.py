"""From rows to the pure logic's records: the rounds of a stage, the scheme, who dropped.

Everything the logic computes (standings, the next pairing, the cut) is a function of what
this module returns, so pages, API and services all see the same numbers.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from games import registry

from . import logic
from .models import Entrant, Round, Sanction, Tournament


def scheme_name(t: Tournament) -> str:
    # A league with placement scoring uses the league table: the rank reached when the game
    # scores leagues by rank (Plugin.league_rank_points) and a result carries ranks, else
    # placement points (the scheme falls back to them).
    if t.scoring == Tournament.Scoring.LEAGUE or (t.is_league and t.scoring == Tournament.Scoring.PLACEMENT):
        return "league"
    return t.scoring


def scheme(t: Tournament) -> logic.Scheme:
    """The tournament's scoring scheme; a league's rank points come from the game."""
    name = scheme_name(t)
    if name != "league":
        return logic.get_scheme(name)
    plugin = registry.plugins().get(t.game)
    return logic.league_scheme(plugin.league_rank_points() if plugin is not None else None)


def bye_policy(t: Tournament) -> str:
    return logic.RANDOM_LOWEST_GROUP if t.tiebreakers == Tournament.Tiebreakers.MITTELERDE else logic.LOWEST_RANKED


def logic_match(table) -> logic.Match:
    res = table.result
    if not res:
        return logic.Match(tuple(table.users), None, table=table.table, number=table.number)
    ranks = res.get("ranks")
    return logic.Match(tuple(table.users), tuple(res["placements"]), res.get("kind", "win"),
                       {int(k): v for k, v in ranks.items()} if ranks else None, table.table, table.number)


def logic_round(rnd: Round) -> logic.Round:
    return logic.Round(rnd.stage_round, tuple(logic_match(tb) for tb in rnd.tables.all()),
                       tuple(rnd.byes), tuple(rnd.unpaired_losses), rnd.stage)


@dataclass
class Field:
    """A tournament's data as the logic wants it (two queries: entrants, rounds+tables)."""

    tournament: Tournament
    entrants: list[Entrant]
    rounds: list[Round]  # every round, tables prefetched

    @property
    def players(self) -> list[int]:
        return [e.user_id for e in self.entrants]

    @property
    def dropped(self) -> set[int]:
        return {e.user_id for e in self.entrants if e.status == Entrant.Status.DROPPED}

    @property
    def disqualified(self) -> set[int]:
        return {e.user_id for e in self.entrants if e.status == Entrant.Status.DISQUALIFIED}

    @property
    def active(self) -> list[int]:
        return [e.user_id for e in self.entrants if e.status == Entrant.Status.ACTIVE]

    def stage_rounds(self, stage: str) -> list[logic.Round]:
        return [logic_round(r) for r in self.rounds if r.stage == stage]

    def standings(self, stage: str = logic.SWISS) -> list[logic.StandingRow]:
        """The results so far; an open round's bye counts once the round closes (while the
        others still play it, a fresh bye must not lift a 0-point player to the top)."""
        t = self.tournament
        rounds = [logic_round(r) if r.closed else dataclasses.replace(logic_round(r), byes=())
                  for r in self.rounds if r.stage == stage]
        return logic.standings(self.players, rounds, scheme=scheme(t),
                               tiebreakers=t.tiebreakers, dropped=self.dropped,
                               disqualified=self.disqualified, seed=t.seed, deductions=self.deductions)

    @cached_property
    def deductions(self) -> dict[int, Fraction]:
        """Point deductions (sanctions) per player, summed."""
        out: dict[int, Fraction] = {}
        for user_id, points in Sanction.objects.filter(tournament=self.tournament, kind=Sanction.Kind.POINT_DEDUCTION,
                                                       points__isnull=False).values_list("user_id", "points"):
            out[user_id] = out.get(user_id, Fraction(0)) + Fraction(str(points))
        return out

    @property
    def open_round(self) -> Round | None:
        return next((r for r in self.rounds if not r.closed), None)

    @property
    def last_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None


def load(t: Tournament) -> Field:
    entrants = list(Entrant.objects.filter(tournament=t).select_related("user"))
    rounds = list(Round.objects.filter(tournament=t).prefetch_related("tables").order_by("number"))
    return Field(t, entrants, rounds)


def knockout_round(rnd: Round) -> logic.KnockoutRound:
    return logic.KnockoutRound(rnd.stage_round, tuple(logic.Slot(s["match"], tuple(s["users"]))
                                                      for s in rnd.bracket or ()))
