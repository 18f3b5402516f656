"""Pure tournament logic: pairing, scoring, tie-breakers, standings, cut, knockout.

No Django, no database, no clock: every function takes plain data (player ids as ints, the
rounds so far, dropped/disqualified sets, a seed) and returns plain data. All randomness
comes from ``games.rng.Rng`` streams derived from the tournament seed, so the same inputs
give the same output. See docs/tournaments.md.
"""
from .cut import cut
from .drops import RejoinRefused, missed_rounds, rejoin, with_unpaired_losses
from .knockout import KnockoutRound, Slot, advance, after_cut, champion, from_start, walkover
from .pods import pair_pods, pod_sizes
from .records import KNOCKOUT, LOSS, SWISS, Match, Pairing, Round, match, round_from_api
from .scoring import (EISERNER_THRON, LEAGUE, MITTELERDE, PLACEMENT, SCHEMES, Scheme,
                      custom_scheme, get_scheme, league_scheme, mittelerde_kind)
from .standings import StandingRow, standings, standings_api
from .structures import Structure, structure_for
from .swiss import LOWEST_RANKED, RANDOM_LOWEST_GROUP, choose_bye, pair_swiss

__all__ = [
    "cut", "RejoinRefused", "missed_rounds", "rejoin", "with_unpaired_losses",
    "LOSS", "KnockoutRound", "Slot", "advance", "after_cut", "champion", "from_start", "walkover",
    "pair_pods", "pod_sizes", "KNOCKOUT", "SWISS", "Match", "Pairing", "Round", "match",
    "round_from_api", "LEAGUE", "EISERNER_THRON", "MITTELERDE", "PLACEMENT", "SCHEMES",
    "Scheme", "custom_scheme", "get_scheme", "league_scheme", "mittelerde_kind", "StandingRow", "standings",
    "standings_api", "Structure", "structure_for", "LOWEST_RANKED", "RANDOM_LOWEST_GROUP",
    "choose_bye", "pair_swiss",
]
