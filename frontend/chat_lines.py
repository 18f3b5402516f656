"""The chat lines a page missed (``GET /matches/<id>/chat/lines/?after=<id>``, JSON): live.js asks
after its socket (re)connected, when the state frame names a newer line than the page has. A
line sent while the socket was away is never pushed again; this is how it still arrives."""
from __future__ import annotations

from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET

from matches import chat, presenters
from matches.models import Match, Seat


@require_GET
def match_chat_lines(request, pk: int):
    match = Match.objects.filter(pk=pk).only("id", "public").first()
    seat = None
    if match is not None and request.user.is_authenticated:
        seat = Seat.objects.filter(match_id=pk, user=request.user).first()
    if match is None or not presenters.can_watch(match, seat):
        raise Http404("No such match")  # a private match's chat: as if missing
    try:
        after = max(0, int(request.GET.get("after", "0")))
    except ValueError:
        return JsonResponse({"error": "bad_request", "detail": "after must be a line id"}, status=400)
    return JsonResponse({"lines": chat.lines_after(pk, after)})
