"""Time limits and penalties with Der Orden:
- a match ended by its time limit is placed by the game's own rule — rank reached, the
  tie-break list, and last „4. Los.“: the lot decides (seeded by the match, deterministic) —
  and carries the ranks that league scoring needs;
- the judge's sanction "descend one rank" is applied to the running game."""
import pytest

from games import registry
from games.orden import rules as R
from matches import services as match_services
from matches.models import LogEntry, Match
from tournaments import services
from tournaments.models import Sanction, Table
from tests.tournaments.helpers import open_round

pytestmark = pytest.mark.django_db


def orden_match(users, options=None):
    plugin = registry.get("orden")
    entrants = [{"user": u, "bot": "", "choices": plugin.clean_choices({}, u.id)} for u in users]
    return match_services.start_match(game="orden", entrants=entrants,
                                      options=plugin.meta.clean_options(options or {"deadline_days": 7}), seed=4242)


def test_time_limit_places_by_rank_tiebreaks_and_lot(make_user):
    m = orden_match([make_user("a"), make_user("b"), make_user("c")])
    # Nobody has played: every rank and tie-break is equal, so only the lot can decide.
    expected = registry.get("orden").placements_at_time_limit(m.state)
    match_services.end_by_tiebreak(m.pk, "deadline")
    m.refresh_from_db()
    placements = m.outcome["placements"]
    assert sorted(p["place"] for p in placements) == [1, 2, 3]  # no shared places
    assert all(p["rank"] == "0" and p["score"] == 0 for p in placements)
    assert placements == expected  # deterministic: the lot comes from the match's own RNG


def test_a_league_table_ended_at_the_round_deadline_carries_ranks(make_user):
    org = make_user("org")
    players = [make_user(f"p{i}") for i in range(3)]
    t = services.create_tournament(org, game="orden", name="Liga-Turnier", format="swiss", structure="custom",
                                   rounds=1, players_per_match=3, scoring="league", options={"rounds": 40})
    for p in players:
        services.register(t, p, deck="starter:schwert")
    services.start(t, org)
    table = Table.objects.get(round=open_round(t))
    match = Match.objects.get(pk=table.match_id)
    seat = match.to_move[0]
    # Somebody moved, so the deadline gives a modified win (not a loss for everyone).
    action = registry.get("orden").engine.legal_actions(match.state, seat)[0]
    user = match.seats.get(seat=seat).user
    match_services.submit_action(match.pk, user, action, match.version)
    services.next_round(t, org)
    table.refresh_from_db()
    assert table.result["kind"] == "modified_win"
    assert set(table.result["ranks"]) == {str(u) for u in table.users}


def ascended(state, seat):
    """The snapshot as if ``seat`` had ascended once (the Pfad's next rank card on top)."""
    pf = state["p"][seat]["pfad"]
    pf.append(pf.pop(0))
    return state


def test_descend_one_rank_is_applied_to_the_running_game(make_user, client):
    org = make_user("org")
    players = [make_user(f"p{i}") for i in range(2)]
    t = services.create_tournament(org, game="orden", name="Turnier", format="swiss", structure="custom",
                                   rounds=1, options={"deadline_days": 7})
    for p in players:
        services.register(t, p, deck="starter:schwert")
    services.start(t, org)
    table = Table.objects.get(round=open_round(t))
    match = Match.objects.get(pk=table.match_id)
    culprit = match.seats.get(seat=0).user
    match.state = ascended(match.state, 0)
    match.save(update_fields=["state"])
    before = R.rank(match.state, 0)
    assert before > 0

    record = services.sanction(t, org, culprit, Sanction.Kind.DESCEND_RANK, "Nachziehstapel nicht gemischt")

    match.refresh_from_db()
    assert record.applied
    assert R.rank(match.state, 0) < before
    entry = LogEntry.objects.filter(match=match).order_by("-seq").first()
    assert entry.kind == "penalty" and entry.seat == 0
    assert any(e.get("type") == "descend" for e in entry.events)
    client.force_login(org)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "applied in the match" in page and "instruction to carry out" not in page


def test_replay_includes_penalties(make_user):
    m = orden_match([make_user("a"), make_user("b")])
    m.state = ascended(m.state, 1)
    m.save(update_fields=["state"])
    match_services.apply_penalty(m.pk, 1, "descend_rank")
    m.refresh_from_db()
    # The replay starts from the setup (not ascended): the penalty changes nothing there, but
    # it is replayed without error and the log keeps it.
    assert match_services.replay(m)["p"][1]["pfad"] == match_services.replay(m, upto=0)["p"][1]["pfad"]
    assert LogEntry.objects.filter(match=m, kind="penalty").count() == 1
