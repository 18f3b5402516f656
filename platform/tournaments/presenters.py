"""What a viewer sees of a tournament, as plain dicts for the API and the pages. Deck lists
are shown to the organizer (all) and to each player (their own) only."""
from __future__ import annotations

from django.utils.translation import get_language

from games import registry

from . import logic
from .loading import Field, knockout_round, load
from .models import Official, Tournament
from .roles import ORGANIZER, roles_of


def result_api(result: dict | None) -> dict | None:
    if not result:
        return None
    out = {"placements": result["placements"], "modified": result.get("kind") == "modified_win",
           "kind": result.get("kind", "win"), "source": result.get("source", "")}
    if result.get("ranks"):
        out["ranks"] = result["ranks"]
    return out


def round_api(rnd) -> dict:
    """The spec's round shape; ``match`` is the platform match id (open it at /matches/{id}/),
    ``number`` the knockout bracket number."""
    data = {"round": rnd.number, "stage": rnd.stage, "stage_round": rnd.stage_round,
            "deadline": rnd.deadline, "closed": rnd.closed,
            "pairings": [{"table": tb.table, "match": tb.match_id, "number": tb.number, "users": tb.users,
                          "result": result_api(tb.result)} for tb in rnd.tables.all()],
            "byes": rnd.byes, "unpaired_losses": rnd.unpaired_losses}
    if rnd.bracket is not None:
        data["bracket"] = rnd.bracket
    return data


def standings_stage(t: Tournament) -> str:
    return logic.KNOCKOUT if t.format == Tournament.Format.KNOCKOUT else logic.SWISS


def standings_api(field: Field) -> list[dict]:
    return [r.to_api() for r in field.standings(standings_stage(field.tournament))]


def tournament_api(t: Tournament, viewer, field: Field | None = None) -> dict:
    field = field or load(t)
    roles = roles_of(t, viewer)
    officials = list(Official.objects.filter(tournament=t).select_related("user"))
    uid = viewer.id if viewer is not None and viewer.is_authenticated else None
    entrants = []
    for e in field.entrants:
        row = {"user": e.user_id, "username": e.user.username, "status": e.status, "bot": e.bot or None}
        if ORGANIZER in roles or e.user_id == uid:
            row["choices"] = e.choices  # the locked deck list: organizer and owner only
        entrants.append(row)
    open_round = field.open_round
    return {
        "id": t.pk, "name": t.name, "game": t.game, "game_name": registry.display_name(t.game, get_language()),
        "options": t.options, "format": t.format,
        "structure": t.structure, "rounds": t.rounds, "cut": t.cut, "scoring": t.scoring,
        "tiebreakers": t.tiebreakers, "players_per_match": t.players_per_match, "round_days": t.round_days,
        "level": t.level, "signup_deadline": t.signup_deadline, "season_end": t.season_end, "rated": t.rated,
        "status": t.status, "stage": t.stage, "swiss_rounds": t.swiss_rounds, "cut_size": t.cut_size,
        "organizer": {"id": t.organizer_id, "username": t.organizer.username},
        "officials": [{"user": o.user_id, "username": o.user.username, "role": o.role} for o in officials],
        "entrants": entrants, "winner": t.winner_id,
        "round_count": len(field.rounds), "current_round": open_round.number if open_round else None,
        "my_roles": sorted(roles),
    }


def tournament_row(t: Tournament) -> dict:
    """A list row (no extra queries: ``players`` is annotated by queries.tournament_list)."""
    return {"id": t.pk, "name": t.name, "game": t.game, "game_name": registry.display_name(t.game, get_language()),
            "format": t.format, "level": t.level, "status": t.status,
            "players": getattr(t, "players", None), "organizer": {"id": t.organizer_id,
                                                                  "username": t.organizer.username},
            "signup_deadline": t.signup_deadline, "season_end": t.season_end, "winner": t.winner_id,
            "rated": t.rated}


def bracket(field: Field) -> list[dict]:
    """Knockout rounds for the bracket page: each slot with its players and the winner."""
    out = []
    for rnd in field.rounds:
        if rnd.stage != logic.KNOCKOUT:
            continue
        by_number = {tb.number: tb for tb in rnd.tables.all()}
        slots = []
        for s in knockout_round(rnd).slots:
            tb = by_number.get(s.number)
            winner = None
            if tb is None and len(s.players) == 1:
                winner = s.players[0]
            elif tb is not None and tb.result and tb.result.get("kind") not in ("draw", logic.LOSS):
                winner = tb.result["placements"][0]
            slots.append({"number": s.number, "users": list(s.players), "winner": winner,
                          "match": tb.match_id if tb else None, "bye": len(s.players) == 1})
        out.append({"round": rnd.number, "stage_round": rnd.stage_round, "slots": slots, "closed": rnd.closed})
    return out
