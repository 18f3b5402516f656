"""Reports and moderation (contract "Accounts": POST /api/reports/): players,
matches and chat lines can be reported from the API and the pages; staff work the queue in the
admin (warn, mute in chat, suspend); a muted player cannot write in chats; a suspended one is
out (is_active False: session and token refused)."""
import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches import chat
from matches.models import ChatMessage
from moderation.models import Report, Sanction
from moderation.rules import Muted
from notifications.models import Notification
from tests.platform.helpers import start_minigame

pytestmark = pytest.mark.django_db


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_report_a_player_and_a_match(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    r = _api(anna).post("/api/reports/", {"user": "bert", "match": match.pk, "reason": "stalls every game"},
                        format="json")
    assert r.status_code == 201
    body = r.json()
    assert (body["user"], body["match"], body["status"], body["category"]) == ("bert", match.pk, "open", "other")
    report = Report.objects.get(pk=body["id"])
    assert (report.reporter, report.reported, report.match_id) == (anna, bert, match.pk)
    r = _api(anna).post("/api/reports/", {"user": "bert", "match": None, "reason": "rude name", "category": "name"},
                        format="json")
    assert r.status_code == 201 and r.json()["match"] is None


def test_report_a_chat_line_keeps_the_line(make_user):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    line = chat.post(match.pk, bert, "du Anfänger")
    r = _api(anna).post("/api/reports/", {"chat": line.pk, "reason": "insult", "category": "abuse"}, format="json")
    assert r.status_code == 201 and r.json()["user"] == "bert" and r.json()["chat"] == line.pk
    assert Report.objects.get(pk=r.json()["id"]).chat_text == "du Anfänger"


@pytest.mark.parametrize("payload, status", [
    ({"user": "anna", "reason": "me"}, 400),  # oneself
    ({"user": "nobody", "reason": "x"}, 400),
    ({"user": "bert", "reason": "   "}, 400),
    ({"user": "bert", "reason": "x" * 1001}, 400),
    ({"user": "bert", "reason": "x", "category": "nonsense"}, 400),
    ({"user": ["bert"], "reason": "x"}, 400),
    ({"user": "bert", "match": "abc", "reason": "x"}, 400),
    ({"user": "bert", "match": {"$gt": 1}, "reason": "x"}, 400),
    ({"user": "bert", "match": "²", "reason": "x"}, 400),  # a digit to str.isdigit, no number
    ({"user": "bert", "chat": 10 ** 30, "reason": "x"}, 400),
    ({"reason": "x"}, 400),
])
def test_bad_reports_are_clear_4xx(make_user, payload, status):
    anna, _bert = make_user("anna"), make_user("bert")
    r = _api(anna).post("/api/reports/", payload, format="json")
    assert r.status_code == status and r.json()["detail"]
    assert not Report.objects.exists()


def test_a_private_match_and_its_chat_are_told_apart_from_nothing(make_user):
    anna, bert, eve = make_user("anna"), make_user("bert"), make_user("eve")
    match = start_minigame(anna, bert)
    match.public = False
    match.save(update_fields=["public"])
    line = chat.post(match.pk, bert, "geheim")
    answers = [_api(eve).post("/api/reports/", payload, format="json").json() for payload in (
        {"user": "bert", "match": match.pk, "reason": "x"}, {"user": "bert", "match": 10 ** 9, "reason": "x"})]
    assert answers[0] == answers[1] and answers[0]["error"] == "report_refused"
    chats = [_api(eve).post("/api/reports/", {"chat": c, "reason": "x"}, format="json") for c in (line.pk, 10 ** 9)]
    assert {c.status_code for c in chats} == {400} and "geheim" not in chats[0].content.decode()
    assert not Report.objects.exists()
    assert APIClient().post("/api/reports/", {"user": "bert", "reason": "x"}, format="json").status_code in (401, 403)


def test_reports_per_hour_are_limited(make_user):
    from moderation.services import REPORTS_PER_HOUR

    anna, _bert = make_user("anna"), make_user("bert")
    statuses = [_api(anna).post("/api/reports/", {"user": "bert", "reason": f"r{i}"}, format="json").status_code
                for i in range(REPORTS_PER_HOUR + 1)]
    assert statuses == [201] * REPORTS_PER_HOUR + [429]


def test_pages_offer_report_links_and_the_form_files_a_report(make_user, client):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    line = chat.post(match.pk, bert, "hallo")
    chat.post(match.pk, anna, "selbst")
    client.force_login(anna)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/reports/new/?match={match.pk}" in page
    assert f"/reports/new/?chat={line.pk}" in page and page.count("/reports/new/?chat=") == 1  # not her own line
    assert "/reports/new/?user=bert" in client.get("/users/bert/").content.decode()
    form = client.get(f"/reports/new/?match={match.pk}").content.decode()
    assert '<option value="bert"' in form and '<option value="anna"' not in form  # choose a player
    r = client.post("/reports/new/", {"chat": line.pk, "match": match.pk, "category": "abuse", "reason": "rude",
                                      "next": f"/matches/{match.pk}/"})
    assert r.status_code == 302 and r.url == f"/matches/{match.pk}/"
    assert Report.objects.get().chat_message_id == line.pk
    assert client.get("/reports/new/?match=²").status_code == 200
    assert client.get(f"/reports/new/?match={10 ** 30}").status_code == 200
    r = client.post("/reports/new/", {"user": "anna", "category": "other", "reason": "me"})
    assert r.status_code == 200 and "cannot report yourself" in r.content.decode()


def _staff(make_user, client):
    mod = make_user("mod", is_staff=True, is_superuser=True)
    client.force_login(mod)
    return mod


def _act(client, action, reports):
    return client.post("/admin/moderation/report/", {"action": action, "_selected_action": [r.pk for r in reports]})


def test_admin_queue_warn(make_user, client):
    anna, bert = make_user("anna"), make_user("bert")
    report = Report.objects.create(reporter=anna, reported=bert, reason="rude")
    _staff(make_user, client)
    assert "rude" in client.get("/admin/moderation/report/").content.decode()
    assert _act(client, "warn", [report]).status_code == 302
    assert Sanction.objects.get(user=bert).kind == Sanction.Kind.WARN
    assert Notification.objects.filter(user=bert, kind="moderation_warning").exists()
    report.refresh_from_db()
    assert report.status == Report.Status.HANDLED and report.handled_by.username == "mod"


def test_admin_mute_stops_chat_with_a_clear_error(make_user, client):
    anna, bert = make_user("anna"), make_user("bert")
    match = start_minigame(anna, bert)
    report = Report.objects.create(reporter=anna, reported=bert, reason="spam")
    _staff(make_user, client)
    _act(client, "mute_week", [report])
    with pytest.raises(Muted, match="stopped you from writing in chats until"):
        chat.post(match.pk, bert, "noch mehr Spam")
    from django.test import Client

    bert_client = Client()
    bert_client.force_login(bert)
    page = bert_client.post(f"/matches/{match.pk}/chat/", {"text": "Spam"}, HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and "stopped you from writing in chats" in page.content.decode()
    assert not ChatMessage.objects.filter(user=bert).exists()
    chat.post(match.pk, anna, "ich darf")  # others still can
    Sanction.objects.filter(user=bert).update(lifted=True)
    chat.post(match.pk, bert, "wieder da")


def test_admin_suspend_ends_session_and_token(make_user, client):
    from django.test import Client

    anna, bert = make_user("anna"), make_user("bert")
    report = Report.objects.create(reporter=anna, reported=bert, reason="cheats")
    token = Token.objects.create(user=bert)
    bert_browser = Client()
    bert_browser.force_login(bert)
    assert bert_browser.get("/accounts/profile/").status_code == 200
    _staff(make_user, client)
    _act(client, "suspend", [report])
    assert not get_user_model().objects.get(pk=bert.pk).is_active
    assert Sanction.objects.get(user=bert).kind == Sanction.Kind.SUSPEND
    assert bert_browser.get("/accounts/profile/").status_code == 302  # to the log-in page
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/account/export/").status_code in (401, 403)
    assert not Client().login(username="bert", password="pw-Secret-123")
