"""The round machinery: deciding tables, closing rounds, pairing the next one, finishing.

Every function here expects the tournament row locked by the caller (services.locked), so
two matches ending at the same moment cannot both pair the next round.
"""
from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction

from games import registry
from matches import services as match_services
from matches.models import LogEntry, Match, Seat
from matches.tasks import play_bots

from . import conf, logic, matchstop, notify
from .loading import Field, bye_policy, knockout_round, load, scheme
from .logic.seeding import derive, rng_for
from .models import Entrant, Round, Table, Tournament


# --- results ------------------------------------------------------------------------------------
def _users_by_seat(match: Match) -> dict[int, int]:
    return dict(Seat.objects.filter(match=match).values_list("seat", "user_id"))


def _tiebreak(t: Tournament, match: Match) -> list[float]:
    scores = registry.get(match.game).tiebreak_scores(match.state)
    return list(scores) if scores else [0.0] * match.players


def _order(t: Tournament, match: Match, seats: list[int], key) -> list[int]:
    """Seats ordered by ``key`` (smaller first); remaining ties by the tournament's seed."""
    rng = rng_for(t.seed, "table-tie", match.pk)
    coin = {s: rng.next64() for s in sorted(seats)}
    return sorted(seats, key=lambda s: (key(s), coin[s]))


def result_from_outcome(t: Tournament, match: Match) -> dict:
    """The tournament result of a match that ended by the rules (or by resignation)."""
    by_seat = _users_by_seat(match)
    placements = (match.outcome or {}).get("placements", [])
    place = {p["seat"]: p["place"] for p in placements}
    scores = _tiebreak(t, match)
    seats = _order(t, match, list(by_seat), lambda s: (place.get(s, 99), -scores[s]))
    kind = "win"
    firsts = [s for s in seats if place.get(s) == 1]
    if len(firsts) > 1 and "draw" in scheme(t).results:
        kind = "draw"
    elif t.scoring == Tournament.Scoring.MITTELERDE and match.players == 2:
        vp = {p["seat"]: p.get("score") for p in placements}
        if all(isinstance(vp.get(s), (int, float)) for s in seats):
            kind = logic.mittelerde_kind(vp[seats[0]], vp[seats[1]])
    result = {"placements": [by_seat[s] for s in seats], "kind": kind, "source": "game"}
    ranks = {str(by_seat[p["seat"]]): p["rank"] for p in placements if "rank" in p}
    if ranks:
        result["ranks"] = ranks
    return result


def no_shows(match: Match, movers: set[int], by_seat: dict[int, int]) -> set[int]:
    """Seats that had a turn in ``match`` and never moved (Eiserner Thron: „Spieler werden
    ebenfalls aus dem Turnier genommen, wenn sie in einer Runde nicht innerhalb einer
    angemessenen Zeit zum Spiel antreten“). A seat had a turn when it moved or is to move
    now: a seat that never moved keeps the turn it was given, so a seat that is neither
    never had one (it waited for the no-show)."""
    return {s for s in by_seat if s not in movers and s in set(match.to_move or ())}


def result_at_deadline(t: Tournament, match: Match) -> dict:
    """An unfinished match at the round's deadline. No-shows (a turn and no move, see
    ``no_shows``) are placed last and leave the tournament (``result["no_shows"]``); against a
    no-show the other player wins outright (a full win, not a modified one); two no-shows: a
    loss for both (in a knockout the better seed, listed first, advances — somebody must).
    Otherwise a modified win by the game's tie-break."""
    by_seat = _users_by_seat(match)
    movers = set(LogEntry.objects.filter(match=match, kind=LogEntry.Kind.ACTION)
                 .values_list("seat", flat=True).distinct())
    absent = no_shows(match, movers, by_seat)
    if absent:
        present = [s for s in sorted(by_seat) if s not in absent]
        gone = [by_seat[s] for s in sorted(absent)]
        if not present:
            users = [by_seat[s] for s in sorted(by_seat)]
            table = Table.objects.filter(match=match).select_related("round").first()
            if table is not None and table.round.stage == logic.KNOCKOUT:
                first = table.users[0]  # the bracket lists the better seed first
                return {"placements": [first, *[u for u in table.users if u != first]], "kind": "win",
                        "source": "no_show", "no_shows": [u for u in gone if u != first]}
            return {"placements": users, "kind": logic.LOSS, "source": "no_show", "no_shows": gone}
        scores = _tiebreak(t, match)
        seats = _order(t, match, present, lambda s: (s not in movers, -scores[s]))
        kind = "win" if len(present) == 1 else "modified_win"
        return {"placements": [by_seat[s] for s in seats] + gone, "kind": kind, "source": "no_show",
                "no_shows": gone}
    if not movers:
        return {"placements": [by_seat[s] for s in sorted(by_seat)], "kind": logic.LOSS, "source": "deadline"}
    game_places = registry.get(match.game).placements_at_time_limit(match.state)
    if game_places is not None:  # the game's own rule (Der Orden: rank, tie-breaks, lot), with ranks
        place = {p["seat"]: p["place"] for p in game_places}
        seats = _order(t, match, list(by_seat), lambda s: (s not in movers, place[s]))
        result = {"placements": [by_seat[s] for s in seats], "kind": "modified_win", "source": "deadline"}
        ranks = {str(by_seat[p["seat"]]): p["rank"] for p in game_places if "rank" in p}
        if ranks:
            result["ranks"] = ranks
        return result
    scores = _tiebreak(t, match)
    seats = _order(t, match, list(by_seat), lambda s: (s not in movers, -scores[s]))
    return {"placements": [by_seat[s] for s in seats], "kind": "modified_win", "source": "deadline"}


def drop_no_shows(t: Tournament, table: Table) -> None:
    """The players a deadline found absent leave the tournament (they may re-join in the
    Swiss, with unpaired losses, like anybody who dropped)."""
    users = (table.result or {}).get("no_shows") or []
    if users:
        Entrant.objects.filter(tournament=t, user_id__in=users, status=Entrant.Status.ACTIVE).update(
            status=Entrant.Status.DROPPED, dropped_stage=table.round.stage, dropped_round=table.round.stage_round)


def knockout_tie(t: Tournament, table: Table, result: dict) -> dict:
    """A knockout game that ended level (a draw) needs a winner. Mittelerde: „Dazu würfelt
    jeder Spieler einmal mit 2W6. Der Spieler mit dem höchsten Ergebnis gewinnt.“ — rolled
    from the tournament's seed (re-rolled while equal), the rolls kept in the result. Other
    schemes have no draws."""
    if result.get("kind") != "draw" or table.round.stage != logic.KNOCKOUT:
        return result
    rng = rng_for(t.seed, "2w6", table.match_id)
    users = list(result["placements"])
    while True:
        rolls = {u: rng.below(6) + rng.below(6) + 2 for u in users}
        if len(set(rolls.values())) == len(users):
            break
    order = sorted(users, key=lambda u: -rolls[u])
    return {**result, "placements": order, "kind": "win", "tiebreak": "2W6",
            "dice": {str(u): rolls[u] for u in users}}


def decide(t: Tournament, table: Table, *, at_deadline: bool) -> bool:
    """Fill ``table.result`` from its match if it ended, or (``at_deadline``) decide it now and
    stop the match. Returns True if the table has a result afterwards."""
    if table.result is not None:
        return True
    match = matchstop.lock(table.match_id)
    if match.status == Match.Status.FINISHED:
        table.result = knockout_tie(t, table, result_from_outcome(t, match))
    elif at_deadline:
        table.result = knockout_tie(t, table, result_at_deadline(t, match))
        matchstop.stop(match)
        drop_no_shows(t, table)
    else:
        return False
    table.save(update_fields=["result"])
    return True


# --- rounds -------------------------------------------------------------------------------------
def advance(t: Tournament, now, *, force: bool = False) -> Round | None:
    """Close the open round if every table has a result (``force``: decide the rest as at the
    deadline), then pair the next round or finish. Returns the newly paired round, if any."""
    field = load(t)
    rnd = field.open_round
    if rnd is None:
        # Nothing open: only a league waiting for players (or an organizer's explicit call).
        return pair_next(t, field, now) if force or (t.is_league and field.rounds) else None
    tables = list(rnd.tables.all())
    done = [decide(t, tb, at_deadline=force) for tb in tables]
    if not all(done):
        return None
    rnd.closed, rnd.closed_at = True, now
    rnd.save(update_fields=["closed", "closed_at"])
    return pair_next(t, load(t), now)


def pair_next(t: Tournament, field: Field, now) -> Round | None:
    """Pair the round after the last closed one, or finish the tournament. Rounds that
    consist only of byes (a knockout opponent who dropped) are closed at once."""
    for _ in range(64):
        rnd = _pair_one(t, field, now)
        if rnd is None or rnd.tables.exists():
            return rnd
        rnd.closed, rnd.closed_at = True, now
        rnd.save(update_fields=["closed", "closed_at"])
        field = load(t)
    raise RuntimeError("too many empty rounds")


def _pair_one(t: Tournament, field: Field, now) -> Round | None:
    if t.status != Tournament.Status.RUNNING:
        return None
    last = field.last_round
    if t.is_league:
        if t.season_end and now >= t.season_end:
            return finish(t, field, now)
        if len(field.active) < 2:
            return None
        return _swiss_round(t, field, now)
    if t.stage == logic.SWISS:
        done = sum(1 for r in field.rounds if r.stage == logic.SWISS)
        if done < (t.swiss_rounds or 0) and len(field.active) >= 2:
            return _swiss_round(t, field, now)
        if t.format == Tournament.Format.SWISS_CUT and t.cut_size:
            rows = field.standings(logic.SWISS)
            out = field.dropped | field.disqualified
            seeds = logic.cut([r.user for r in rows if not r.disqualified], t.cut_size, dropped=out)
            if len(seeds) >= 2:
                t.stage = logic.KNOCKOUT
                t.save(update_fields=["stage"])
                return _knockout_round(t, field, logic.after_cut(seeds, 1), now)
        return finish(t, field, now)
    # knockout
    out = field.dropped | field.disqualified
    if last is None:
        return _knockout_round(t, field, logic.from_start(field.active, derive(t.seed, "knockout")), now)
    prev = knockout_round(last)
    winners = {tb.number: logic_winner(tb) for tb in last.tables.all()}
    nxt = logic.advance(prev, winners, dropped=out)
    if nxt is None:
        return finish(t, field, now, champion=logic.champion(prev, winners))
    return _knockout_round(t, field, nxt, now)


def logic_winner(table: Table) -> int | None:
    res = table.result or {}
    if res.get("kind") in ("draw", logic.LOSS) or not res.get("placements"):
        return None
    return res["placements"][0]


def _swiss_round(t: Tournament, field: Field, now) -> Round:
    rounds = field.stage_rounds(logic.SWISS)
    number = len(rounds) + 1
    common = dict(round_number=number, scheme=scheme(t), tiebreakers=t.tiebreakers,
                  dropped=field.dropped, disqualified=field.disqualified, seed=t.seed)
    if t.players_per_match > 2:
        plugin = registry.get(t.game)
        size = t.players_per_match
        pairing = logic.pair_pods(field.players, rounds, size=size,
                                  min_size=max(plugin.meta.min_players, min(3, size)), **common)
    else:
        pairing = logic.pair_swiss(field.players, rounds, bye_policy=bye_policy(t), **common)
    return _create(t, field, logic.SWISS, number, [(tb, 0) for tb in pairing.tables], pairing.byes, None, now)


def _knockout_round(t: Tournament, field: Field, ko: logic.KnockoutRound, now) -> Round:
    tables = [(s.players, s.number) for s in ko.slots if len(s.players) == 2]
    byes = [s.players[0] for s in ko.slots if len(s.players) == 1]
    bracket = [{"match": s.number, "users": list(s.players)} for s in ko.slots]
    return _create(t, field, logic.KNOCKOUT, ko.round, tables, byes, bracket, now)


def _create(t, field: Field, stage: str, stage_round: int, tables, byes, bracket, now) -> Round:
    number = (field.last_round.number if field.last_round else 0) + 1
    final = stage == logic.KNOCKOUT and len(tables) == 1 and not byes
    rnd = Round.objects.create(tournament=t, number=number, stage=stage, stage_round=stage_round,
                               byes=list(byes), bracket=bracket, deadline=now + timedelta(days=round_days(t, final)))
    entrants = {e.user_id: e for e in field.entrants}
    bot_matches, humans, match_ids = [], set(), {}
    for i, (users, match_number) in enumerate(tables):
        match = match_services.start_match(
            game=t.game, options=t.options, move_days=t.round_days, public=True,
            entrants=[{"user": entrants[u].user, "bot": entrants[u].bot, "choices": entrants[u].choices}
                      for u in users])
        Table.objects.create(round=rnd, table=i + 1, number=match_number, users=list(users), match=match)
        if any(entrants[u].bot for u in users):
            bot_matches.append(match.pk)
        humans.update(u for u in users if not entrants[u].bot)
        match_ids.update(dict.fromkeys(users, match.pk))
    humans.update(u for u in byes if not entrants[u].bot)
    context = {"tournament": t.name, "tournament_id": t.pk, "round": number, "stage": stage,
               "deadline": rnd.deadline.isoformat(), "game": t.game}
    transaction.on_commit(lambda: notify.send(humans, "round_paired", context, key=f"paired:{t.pk}:{number}",
                                              match_ids=match_ids))
    # start_match does not enqueue bots when it runs inside another bot loop (a match that
    # just ended closed this round); play_bots is idempotent, so enqueue it ourselves.
    for match_id in bot_matches:
        transaction.on_commit(lambda m=match_id: play_bots.delay(m))
    return rnd


def round_days(t: Tournament, final: bool) -> int:
    """Days for a round. The Eiserner-Thron seed gives a round 55 minutes and the knockout
    final 120: the final gets the same share longer (rounded up to whole days)."""
    if not final:
        return t.round_days
    return -(-t.round_days * conf.FINAL_MINUTES // conf.ROUND_MINUTES)


def recut(t: Tournament, now, user_id: int) -> Round | None:
    """A qualified player dropped before the first knockout round was played: the cut is
    made again (the next in the standings enters as the lowest seed) and that round paired
    anew. Only while none of its matches has a move; afterwards a drop is a walkover."""
    field = load(t)
    rnd = field.open_round
    if rnd is None or rnd.stage != logic.KNOCKOUT or rnd.stage_round != 1 or not t.cut_size:
        return None
    if user_id not in rnd.byes and not any(user_id in tb.users for tb in rnd.tables.all()):
        return None  # not one of the qualified
    match_ids = [tb.match_id for tb in rnd.tables.all()]
    if any(tb.result for tb in rnd.tables.all()) or LogEntry.objects.filter(
            match_id__in=match_ids, kind=LogEntry.Kind.ACTION).exists():
        return None
    for match_id in match_ids:
        matchstop.stop(matchstop.lock(match_id))
    rnd.delete()
    field = load(t)
    rows = field.standings(logic.SWISS)
    seeds = logic.cut([r.user for r in rows if not r.disqualified], t.cut_size,
                      dropped=field.dropped | field.disqualified)
    if len(seeds) < 2:
        return finish(t, field, now)
    return _knockout_round(t, field, logic.after_cut(seeds, 1), now)


def champion_of(t: Tournament, field: Field) -> int | None:
    """The winner by the results as they stand: the knockout final's winner, else the top of
    the Swiss (or league) standings."""
    if t.format == Tournament.Format.KNOCKOUT or t.stage == logic.KNOCKOUT:
        last = field.last_round
        if last is not None and last.stage == logic.KNOCKOUT:
            winners = [logic_winner(tb) for tb in last.tables.all()]
            if len(winners) == 1:
                return winners[0]
        return t.winner_id
    rows = [r for r in field.standings(logic.SWISS) if not r.disqualified]
    return rows[0].user if rows else None


def finish(t: Tournament, field: Field, now, champion: int | None = None) -> None:
    if champion is None and t.format != Tournament.Format.KNOCKOUT:
        champion = champion_of(t, field)
    t.status, t.finished_at, t.winner_id = Tournament.Status.FINISHED, now, champion
    t.save(update_fields=["status", "finished_at", "winner"])
    humans = [e.user_id for e in field.entrants if not e.bot]
    context = {"tournament": t.name, "tournament_id": t.pk, "winner": champion, "game": t.game,
               "winner_name": winner_name(champion)}
    transaction.on_commit(lambda: notify.send(humans, "finished", context, key=f"finished:{t.pk}"))
    return None


def winner_name(user_id: int | None) -> str | None:
    if user_id is None:
        return None
    user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    profile = getattr(user, "profile", None) if user else None
    return profile.shown_name if profile else (user.username if user else None)


def entrants_by_user(t: Tournament) -> dict[int, Entrant]:
    return {e.user_id: e for e in Entrant.objects.filter(tournament=t).select_related("user")}
