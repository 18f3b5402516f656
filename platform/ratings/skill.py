"""The rating maths: openskill's Plackett-Luce model (Weng-Lin), which rates 2+ players
from their places, ties included. Pure functions, no Django.

The shown rating is the conservative ordinal ``mu - 3·sigma`` on a familiar scale
(×40 + 1000): a new player (mu 25, sigma 25/3) shows 1000.
"""
from __future__ import annotations

from openskill.models import PlackettLuce

DISPLAY_ALPHA, DISPLAY_TARGET = 40.0, 1000.0
MODEL = PlackettLuce()


def initial() -> tuple[float, float]:
    return MODEL.mu, MODEL.sigma


def display(mu: float, sigma: float) -> float:
    r = MODEL.rating(mu=mu, sigma=sigma)
    return r.ordinal(alpha=DISPLAY_ALPHA, target=DISPLAY_TARGET)


def rate_teams(teams: list[list[tuple[float, float]]], places: list[int],
               model: PlackettLuce = MODEL) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) for every member of every team; ``places``: 1 = best, equal = tie."""
    rated = model.rate([[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
                       ranks=list(places))
    return [[(p.mu, p.sigma) for p in team] for team in rated]


def rate(players: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """One player per side, as in every game here."""
    return [team[0] for team in rate_teams([[p] for p in players], places)]
