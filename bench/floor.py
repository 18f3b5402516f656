"""The floor: a bare move on the same stack, to measure our move path against.

A floor move is the work every move needs and nothing else: lock the match row, insert a log
entry, bump the version, commit, and send each seat's group one small frame (through the same
Redis channel layer and batched send as real moves). No rules, no authentication, no views per
seat, no clocks or notifications. It runs in the same server processes, through the same Django
middleware (HTTP) or the same socket consumer set-up (websocket), on the same PostgreSQL rows.

Mounted only when the environment says BENCH_FLOOR=1 (bench/stack.py sets it): it skips every
check a real move makes, so it must never be reachable on a site.

    POST /bench/floor/<match_id>/        {"seat": 0, "version": 12, "action": {...}}
    socket /ws/bench-floor/<match_id>/   {"type": "act", "seat": 0, "version": 12, "ref": ...}
"""
from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.http import JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from core.livesend import group_send_soon
from matches import live
from matches.consumers import MatchConsumer
from matches.models import LogEntry, Match


def floor_move(match_id: int, seat: int, version: int, action) -> tuple[int, int]:
    """(status, version): 200 and the new version, 409 and the current one, 404."""
    with transaction.atomic():
        row = Match.objects.select_for_update().filter(pk=match_id).values_list("version", "players").first()
        if row is None:
            return 404, 0
        current, players = row
        if version != current:
            return 409, current
        LogEntry.objects.create(match_id=match_id, seq=current + 1, kind=LogEntry.Kind.ACTION, seat=seat,
                                action=action if isinstance(action, dict) else {})
        Match.objects.filter(pk=match_id).update(version=current + 1)
    text = json.dumps({"type": "match.update", "match": match_id, "version": current + 1})
    group_send_soon(get_channel_layer(), [(live.seat_group(match_id, s), {"type": "match.frame", "text": text})
                                          for s in range(players)])
    return 200, current + 1


@csrf_exempt
def floor_view(request, match_id: int):
    if request.method != "POST":
        return JsonResponse({"error": "method"}, status=405)
    try:
        body = json.loads(request.body)
        seat, version = int(body["seat"]), int(body["version"])
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"error": "invalid"}, status=400)
    status, current = floor_move(match_id, seat, version, body.get("action"))
    return JsonResponse({"version": current}, status=status)


class FloorConsumer(MatchConsumer):
    """The match socket (same groups, same connect) whose moves are floor moves."""

    async def receive(self, text_data=None, bytes_data=None):
        data = json.loads(text_data)
        status, version = await database_sync_to_async(floor_move)(
            self.match_id, int(data["seat"]), int(data["version"]), data.get("action"))
        kind = "acted" if status == 200 else "refused"
        await self.send(text_data=json.dumps({"type": kind, "ref": data.get("ref"), "status": status,
                                              "version": version}))


urlpatterns = [path("bench/floor/<int:match_id>/", floor_view)]
websocket_urlpatterns = [path("ws/bench-floor/<int:match_id>/", FloorConsumer.as_asgi())]
