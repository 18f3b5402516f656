"""Replay pages and the JSON export. Access as for the game page: players of the match, or
anyone if it is public."""
from __future__ import annotations

from games.textnum import small_int

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation

from frontend.boards import board_assets, board_context
from games import registry
from matches import notes, presenters
from matches.models import Match

from . import history


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


def _visible_match(request, pk: int):
    match = get_object_or_404(Match, pk=pk)
    seats = list(match.seats.select_related("user"))
    own = presenters.seat_for(seats, request.user)
    if not presenters.can_watch(match, own):
        raise Http404("No such match")
    return match, seats, own


def replay(request, pk: int):
    match, seats, own = _visible_match(request, pk)
    plugin = registry.get(match.game)
    lang = _lang()
    steps = history.steps(match)
    seqs = [e.seq for e in steps]
    at = request.GET.get("at", "")
    index = len(seqs) if small_int(at) is None else sum(1 for s in seqs if s <= small_int(at))  # steps shown so far
    upto = seqs[index - 1] if index else 0
    requested = request.GET.get("seat")
    seat = history.allowed_seat(match, own, requested)
    view = history.frame(match, plugin, upto, seat)
    names = presenters.seat_names(seats)
    log = presenters.log_lines(plugin, match, steps[:index], seat, lang, names)
    seat_param = "public" if seat is None else str(seat)

    def link(i: int) -> str:
        i = max(0, min(len(seqs), i))
        return f"?at={seqs[i - 1] if i else 0}&seat={seat_param}"

    context = {
        "match": match, "seats": seats, "seat": seat, "my_seat": own, "view": view, "legal": [], "lang": lang,
        "names": names, "version": match.version, "plugin": plugin, "board_template": plugin.board_template,
        "act_url": reverse("match", args=[match.pk]), "game_name": _game_name(plugin, lang),
        "log": log, "step": index, "total": len(seqs), "upto": upto,
        "current": log[-1] if index and log else None,  # the step's own move, named above the board
        "first": link(0), "prev": link(index - 1), "next": link(index + 1), "last": link(len(seqs)),
        "seat_choices": _seat_choices(match, seats, own), "seat_param": seat_param,
        "finished": match.status != Match.Status.ACTIVE,
        # the viewer's own notes (never another seat's, whichever eyes the replay looks through;
        # also one who left the match reads what they wrote)
        "my_notes": notes.own_text(match.pk, request.user),
    }
    context.update(board_assets(plugin))
    context.update(board_context(plugin, context, view, seat, [], lang))
    return render(request, "replays/replay.html", context)


def _game_name(plugin, lang: str) -> str:
    return plugin.meta.name_de if lang == "de" else plugin.meta.name_en


def _seat_choices(match: Match, seats, own) -> list[tuple[str, str]]:
    """Whose eyes the viewer may look through."""
    if match.status != Match.Status.ACTIVE:
        return [(str(s.seat), s.name) for s in seats]
    return [(str(own.seat), own.name)] if own is not None else []


def export(request, pk: int):
    match, seats, own = _visible_match(request, pk)
    data = history.export(match, seats, own, registry.get(match.game), _lang())
    response = HttpResponse(json.dumps(data, cls=DjangoJSONEncoder, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{match.game}-{match.pk}.json"'
    return response
