"""The hot-seat table (``settings.GAME_AUTHOR_TOOLS``; 404 otherwise): one author plays every
seat of a match in the browser. The match is a real one (``matches.services``), its seats held by
the author's stand-in users (``seats.py``); each seat's table is the game page's own rendering
(``frontend.views.match_context`` as that seat sees it), with a panel showing the state, every
seat's view and the log's events. See docs/writing-a-game.md, "Play every seat"."""
from __future__ import annotations

import json
import secrets
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from frontend.views import match_context
from games import registry
from games.base import BadOptions, IllegalAction
from games.rng import Rng
from matches import services as match_services
from matches.errors import MatchError
from matches.models import LogEntry, Match

from .models import HotSeat
from .seats import stand_in


LEGAL_SHOWN = 100  # Alchemist offers ~2,500 actions at a time: the panel shows the first ones


def _enabled() -> None:
    if not getattr(settings, "GAME_AUTHOR_TOOLS", False):
        raise Http404("No such page")


def author_tools(view):
    """404 while the tools are off, before anything else (a signed-out visitor too)."""
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        _enabled()
        return view(request, *args, **kwargs)
    return wrapped


def _lang(request) -> str:
    return "de" if (getattr(request, "LANGUAGE_CODE", "") or "").startswith("de") else "en"


@author_tools
@login_required
def new(request):
    """The form (a game, a number of players) and, posted, a new hot-seat match."""
    _enabled()
    lang = _lang(request)
    games = [(slug, registry.display_name(slug, lang), p.meta.min_players, p.meta.max_players)
             for slug, p in sorted(registry.plugins().items())]
    if request.method == "POST":
        slug = request.POST.get("game", "")
        plugin = registry.plugins().get(slug)
        try:
            if plugin is None:
                raise BadOptions("Choose a game.", "Wähle ein Spiel.")
            players = request.POST.get("players", "")
            players = plugin.meta.check_players(int(players) if players.isdigit() else players)
        except BadOptions as exc:
            messages.error(request, exc.text(lang))
        else:
            match = _start(request.user, plugin, players)
            return redirect("hotseat", pk=match.pk, seat=match.to_move[0] if match.to_move else 0)
    mine = (HotSeat.objects.filter(author=request.user).select_related("match").order_by("-created")[:10])
    return render(request, "authoring/hotseat_new.html", {"games": games, "mine": mine})


def _start(author, plugin, players: int) -> Match:
    """A private match whose seat ``n`` is held by the author's stand-in ``#n+1``. The site draws
    seats by lot from the seed (``start_match``); the entrants go in so that the lot gives
    stand-in ``#n+1`` seat ``n``."""
    seed = secrets.randbits(63)
    order = list(range(players))
    Rng(seed ^ 0x5EA7).shuffle(order)  # as start_match draws the seats
    entrants = [None] * players
    for seat, slot in enumerate(order):
        entrants[slot] = {"user": stand_in(author, seat), "bot": "", "choices": plugin.clean_choices({}, None)}
    with transaction.atomic():
        match = match_services.start_match(game=plugin.meta.slug, entrants=entrants,
                                           options=plugin.meta.clean_options({}), public=False, seed=seed)
        HotSeat.objects.create(match=match, author=author)
    return match


def _hotseat(request, pk: int) -> HotSeat:
    _enabled()
    if not request.user.is_authenticated:
        raise Http404("No such match")
    return get_object_or_404(HotSeat.objects.select_related("match"), match_id=pk, author=request.user)


def _dump(value) -> str:
    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)


@author_tools
@login_required
def table(request, pk: int, seat: int):
    """Seat ``seat``'s table as the game page shows it, the seat switch and the inspection panel."""
    hotseat = _hotseat(request, pk)
    match = hotseat.match
    holder = match.seats.filter(seat=seat).select_related("user").first()
    if holder is None:
        raise Http404("No such seat")
    context = match_context(request, pk, as_user=holder.user)
    act_url = reverse("hotseat-act", args=[pk, seat])
    # One person holds every seat: no undo, resign, orders or rematch of a stand-in from here.
    context.update({"act_url": act_url, "board_act_url": act_url, "my_seat": None, "full_page": True,
                    "queue_mode": False, "may_rematch": False})
    plugin, state = context["plugin"], match.state
    entries = list(LogEntry.objects.filter(match=match).order_by("-seq")[:30])
    context["hotseat"] = {
        "seat": seat,
        "seats": [{"seat": s.seat, "name": s.name, "to_move": s.seat in match.to_move and match.status == "active",
                   "url": reverse("hotseat", args=[pk, s.seat])} for s in context["seats"]],
        "state": _dump(state),
        "legal": _dump(context["legal"][:LEGAL_SHOWN]), "legal_count": len(context["legal"]),
        "views": [{"label": _("Spectator") if s is None else context["names"][s], "seat": "" if s is None else s,
                   "json": _dump(plugin.engine.view(state, s))} for s in [None, *range(match.players)]],
        "entries": [{"seq": e.seq, "seat": e.seat, "kind": e.kind, "reveals": e.reveals, "undone": e.undone,
                     "action": _dump(e.action), "events": _dump(e.events)} for e in entries],
    }
    return render(request, "authoring/hotseat.html", context)


@author_tools
@require_POST
@login_required
def act(request, pk: int, seat: int):
    """A move of seat ``seat`` through the site's own service; then the table of the seat to
    move now (one person plays them all), or this seat's after a refusal."""
    hotseat = _hotseat(request, pk)
    holder = hotseat.match.seats.filter(seat=seat).select_related("user").first()
    if holder is None:
        raise Http404("No such seat")
    plugin = registry.get(hotseat.match.game)
    version = request.POST.get("version", "")
    lang = _lang(request)
    try:
        action = plugin.action_from_form(request.POST.dict())
        match_services.submit_action(pk, holder.user, action, int(version) if version.isdigit() else None)
    except IllegalAction as exc:
        messages.error(request, exc.reason_de if lang == "de" else exc.reason)
        return redirect("hotseat", pk=pk, seat=seat)
    except MatchError as exc:
        messages.error(request, exc.message)
        return redirect("hotseat", pk=pk, seat=seat)
    match = Match.objects.only("to_move").get(pk=pk)
    nxt = seat if seat in match.to_move or not match.to_move else match.to_move[0]
    return redirect("hotseat", pk=pk, seat=nxt)
