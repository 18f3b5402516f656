"""An organizer or judge who plays in their own (casual) tournament does not
decide their own table: another official or the head judge does, and the page says so."""
import pytest

from tournaments import services
from tournaments.errors import Forbidden
from tournaments.models import Sanction, Table
from tests.tournaments.helpers import decide_open_round, make_tournament, open_round

pytestmark = pytest.mark.django_db


def setup(make_user):
    org, judge, head = make_user("org"), make_user("judge"), make_user("head")
    others = [make_user(f"p{i}") for i in range(2)]  # four players: no bye
    t = make_tournament(org, [org, judge, *others], rounds=2)  # casual: officials may play
    services.add_official(t, org, judge, "judge")
    services.add_official(t, org, head, "head_judge")
    services.start(t, org)
    return t, org, judge, head


def own_table(t, user):
    return next(tb for tb in Table.objects.filter(round=open_round(t)) if user.id in tb.users)


@pytest.mark.parametrize("who", ["org", "judge"])
def test_an_official_does_not_set_the_result_of_their_own_table(make_user, who):
    t, org, judge, head = setup(make_user)
    me = org if who == "org" else judge
    table = own_table(t, me)
    with pytest.raises(Forbidden, match="another official"):
        services.set_result(t, me, table.match_id, [me.id, *[u for u in table.users if u != me.id]])
    table.refresh_from_db()
    assert table.result is None
    # The head judge (or another official) can.
    services.set_result(t, head, table.match_id, list(table.users))
    table.refresh_from_db()
    assert table.result["placements"] == list(table.users)


def test_nor_correct_it_nor_sanction_at_it(make_user):
    t, org, judge, head = setup(make_user)
    table = own_table(t, org)
    opponent = next(u for u in table.users if u != org.id)
    from django.contrib.auth import get_user_model
    with pytest.raises(Forbidden):
        services.sanction(t, org, get_user_model().objects.get(pk=opponent), "game_loss", "Spielverzögerung",
                          match_id=table.match_id)
    assert not Sanction.objects.exists()
    decide_open_round(t, head)  # closes round 1
    with pytest.raises(Forbidden):
        services.set_result(t, org, table.match_id, list(reversed(table.users)), reason="Tippfehler")


def test_the_round_page_says_who_decides_instead(client, make_user):
    t, org, judge, head = setup(make_user)
    client.force_login(org)
    html = client.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()
    mine = own_table(t, org)
    row = html.split(f'data-match="{mine.match_id}"', 1)[1].split("</tr>", 1)[0]
    assert "Set result" not in row
    assert "another official or the head judge" in row
    other = next(tb for tb in Table.objects.filter(round=open_round(t)) if org.id not in tb.users)
    row = html.split(f'data-match="{other.match_id}"', 1)[1].split("</tr>", 1)[0]
    assert "Set result" in row


def test_the_organizer_does_not_end_the_round_while_their_own_table_is_open(make_user):
    # Ending the round decides every open table by the tie-break at a moment of the
    # organizer's choosing: not while their own table is among them.
    from tournaments.errors import Conflict
    t, org, judge, head = setup(make_user)
    mine = own_table(t, org)
    with pytest.raises(Conflict, match="your own table"):
        services.next_round(t, org)
    services.set_result(t, head, mine.match_id, list(mine.users))
    assert open_round(t).number == 1  # the other table is still being played
    services.next_round(t, org)  # now it may
    assert open_round(t).number == 2


def test_a_casual_event_starts_while_its_organizer_plays(make_user):
    """The form's help says only formal and premium events forbid officials to play:
    a casual one starts with its organizer among the players and no other official."""
    from tournaments.forms import TournamentForm

    help_text = str(TournamentForm("en").fields["level"].help_text)
    assert help_text == "Formal and premium: the organizer and judges may not play."
    org, a, b = make_user("org"), make_user("a"), make_user("b")
    t = make_tournament(org, [org, a, b], rounds=2)
    assert t.level == "casual"
    services.start(t, org)
    t.refresh_from_db()
    assert t.status == "running" and open_round(t) is not None
    formal = services.create_tournament(org, game="kartenduell", name="Formal", level="formal")
    with pytest.raises(Forbidden, match="may not play"):
        services.register(formal, org)
