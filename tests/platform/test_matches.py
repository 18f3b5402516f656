import pytest

from matches import services
from matches.errors import IllegalMove, MatchOver, NotSeated, NotYourTurn, StaleVersion, UndoRefused
from matches.models import LogEntry, Match
from tests.conftest import wait_for
from tests.platform.helpers import seat_of, start_minigame, to_move_user

pytestmark = pytest.mark.django_db


def _play(match, user, action=None):
    match.refresh_from_db()
    seat = seat_of(match, user)
    action = action or {"type": "play", "card": match.state["hands"][seat][0]}
    return services.submit_action(match.pk, user, action, match.version)


def test_errors_change_nothing(make_user):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = start_minigame(a, b)
    mover = to_move_user(match)
    other = b if mover == a else a
    before = (match.version, match.state)
    with pytest.raises(StaleVersion):
        services.submit_action(match.pk, mover, {"type": "draw"}, match.version + 1)
    with pytest.raises(NotYourTurn):
        services.submit_action(match.pk, other, {"type": "draw"}, match.version)
    with pytest.raises(NotSeated):
        services.submit_action(match.pk, c, {"type": "draw"}, match.version)
    with pytest.raises(IllegalMove) as err:
        services.submit_action(match.pk, mover, {"type": "play", "card": 999}, match.version)
    assert "Not a legal move" in err.value.message
    with pytest.raises(IllegalMove):
        services.submit_action(match.pk, mover, "draw", match.version)
    with pytest.raises(IllegalMove):
        services.submit_action(match.pk, mover, {"type": "draw"}, "0")
    match.refresh_from_db()
    assert (match.version, match.state) == before
    assert not LogEntry.objects.exists()


def test_a_match_to_the_end_and_replay_equals_snapshot(make_user):
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    while True:
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            break
        _play(match, to_move_user(match))
    assert match.outcome["placements"] and match.to_move == []
    assert services.replay(match) == match.state
    assert sorted(s.place for s in match.seats.all()) in ([1, 2], [1, 1])
    with pytest.raises(MatchOver):
        services.submit_action(match.pk, a, {"type": "draw"}, match.version)


def test_undo_only_own_last_unrevealing_move(make_user):
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    mover = to_move_user(match)
    other = b if mover == a else a
    before = Match.objects.get(pk=match.pk).state
    _play(match, mover)
    match.refresh_from_db()
    with pytest.raises(UndoRefused):
        services.undo(match.pk, other, match.version)
    services.undo(match.pk, mover, match.version)
    match.refresh_from_db()
    assert match.state == before and match.version == 2 and to_move_user(match) == mover
    assert services.replay(match) == match.state
    # A draw reveals a card: it cannot be taken back.
    services.submit_action(match.pk, mover, {"type": "draw"}, match.version)
    match.refresh_from_db()
    with pytest.raises(UndoRefused, match="revealed"):
        services.undo(match.pk, mover, match.version)
    # Once the next player acted, the earlier move is final.
    _play(match, other)
    match.refresh_from_db()
    with pytest.raises(UndoRefused):
        services.undo(match.pk, mover, match.version)


def test_resign_two_players_ends_the_match(make_user):
    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    services.resign(match.pk, a)
    match.refresh_from_db()
    assert match.status == "finished"
    places = {p["seat"]: p["place"] for p in match.outcome["placements"]}
    assert places[seat_of(match, b)] == 1 and places[seat_of(match, a)] == 2


@pytest.mark.django_db(transaction=True)
def test_resign_with_three_players_a_bot_plays_on(make_user, celery_worker):
    a, b, c = make_user("a"), make_user("b"), make_user("c")
    match = start_minigame(a, b, c)
    services.resign(match.pk, c)
    match.refresh_from_db()
    assert match.status == "active"
    assert match.seats.get(user=c).bot
    while match.status == "active":
        # the bot takes c's turns (in the Celery worker on the real-services path)
        wait_for(lambda: match.status != "active" or to_move_user(match) not in (None, c))
        if match.status != "active":
            break
        _play(match, to_move_user(match))
        match.refresh_from_db()
    last = [p for p in match.outcome["placements"] if p["seat"] == seat_of(match, c)][0]
    assert last["place"] == 3 and last["resigned"]
    assert services.replay(match) == match.state


def test_log_hides_private_events_until_the_end(make_user):
    from games import registry
    from matches.presenters import log_lines, seat_names

    a, b = make_user("a"), make_user("b")
    match = start_minigame(a, b)
    mover = to_move_user(match)
    services.submit_action(match.pk, mover, {"type": "draw"}, 0)
    match.refresh_from_db()
    plugin, entries = registry.get("kartenduell"), list(match.log.all())
    names = seat_names(list(match.seats.all()))
    mine = log_lines(plugin, match, entries, seat_of(match, mover), "en", names)[0]["texts"]
    theirs = log_lines(plugin, match, entries, 1 - seat_of(match, mover), "en", names)[0]["texts"]
    public = log_lines(plugin, match, entries, None, "en", names)[0]["texts"]
    assert any(t.startswith("You draw") for t in mine)
    assert theirs == public == [f"{mover.username} draws a card."]


@pytest.mark.django_db(transaction=True)
def test_signals_after_commit(make_user):
    from matches import signals

    changed, finished = [], []

    def on_changed(sender, **kw):
        changed.append(kw)

    def on_finished(sender, match_id, **kw):
        finished.append(match_id)

    signals.match_changed.connect(on_changed)
    signals.match_finished.connect(on_finished)
    try:
        a, b = make_user("a"), make_user("b")
        match = start_minigame(a, b)
        assert changed[-1]["previous_to_move"] is None and changed[-1]["version"] == 0
        with pytest.raises(StaleVersion):
            services.submit_action(match.pk, to_move_user(match), {"type": "draw"}, 3)
        assert len(changed) == 1, "a refused move sends nothing"
        services.submit_action(match.pk, to_move_user(match), {"type": "draw"}, 0)
        assert changed[-1]["version"] == 1 and changed[-1]["previous_to_move"] == match.to_move
        services.resign(match.pk, a)
        assert finished == [match.pk]
    finally:
        signals.match_changed.disconnect(on_changed)
        signals.match_finished.disconnect(on_finished)


@pytest.mark.django_db(transaction=True)
def test_a_long_all_bot_match_goes_on_in_a_new_task(monkeypatch, celery_worker):
    """One bot task plays at most BOT_MOVE_LIMIT moves; then it queues the next instead of
    leaving the match to the periodic resume_bots (four bots of Der Orden make ~1,000 moves)."""
    from django.db import transaction

    monkeypatch.setattr(services, "BOT_MOVE_LIMIT", 2)
    token = services._in_bot_loop.set(True)  # no task from the start: this test runs the first
    try:
        with transaction.atomic():
            match = services.start_match(game="kartenduell", options={}, seed=5, entrants=[
                {"user": None, "bot": "random-legal", "choices": {}} for _ in range(3)])
    finally:
        services._in_bot_loop.reset(token)
    assert services.play_bots(match.pk) == 2
    # The rest: in-process tasks on the embedded default, the worker on the real services.
    wait_for(lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED, timeout=60)
    assert Match.objects.get(pk=match.pk).version > 2


def test_a_bots_random_choices_are_keyed_through_a_hash_of_the_seed():
    """The seed also orders the hidden cards: a bot's Rng is reproducible per match, version
    and seat, but no XOR of the seed (whose SplitMix64 outputs the bot's choices would expose)."""
    from matches.services import bot_seed

    seed = 0x1234_5678_9ABC
    keys = {bot_seed(seed, v, s) for v in range(20) for s in range(4)}
    assert len(keys) == 80 and bot_seed(seed, 3, 1) == bot_seed(seed, 3, 1)
    assert not keys & {seed ^ (v * 0x9E3779B1) ^ s for v in range(20) for s in range(4)}
