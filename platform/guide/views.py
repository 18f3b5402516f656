"""The guided first match: ``/learn/`` lists the games, ``POST /learn/<game>/`` starts a private
match of the signed-in player against the game's bot and opens its table, where the hints
show (guide/table.py). ``POST /learn/<game>/try/`` ("Try it now") does the same for a visitor
without an account: it makes a guest account first (accounts/guests.py, rate-limited per
address) and logs it in."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import guests
from games import registry
from games.base import IllegalAction
from matches import services as match_services
from matches.errors import MatchError
from matches.models import NotifyLevel, Seat

from .hints import pick, games, texts
from .models import GuidedMatch
from .suggest import suggestion

def _bot(plugin) -> str:
    return plugin.default_bot_name()


def learn(request):
    lang = (translation.get_language() or "en")[:2]
    rows = []
    for slug in games():
        try:
            meta = registry.get(slug).meta
        except KeyError:
            continue
        rows.append({"slug": slug, "name": meta.name_de if lang == "de" else meta.name_en,
                     "intro": pick(texts(slug)["intro"], lang)})
    return render(request, "guide/learn.html", {"rows": rows})


FIRST_STEPS = "first_steps"  # session key: a new account sees the way into the guided match


def _plugin(game: str):
    if game not in games():
        raise Http404("No guided match for this game")
    try:
        return registry.get(game)
    except KeyError:
        raise Http404("No such game") from None


@require_POST
def try_now(request, game: str):
    """"Try it now": a visitor without an account gets a guest account and the guided match."""
    plugin = _plugin(game)
    if not request.user.is_authenticated:
        user = guests.create_guest((translation.get_language() or "en")[:2])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return _start(request, game, plugin)


@login_required
@require_POST
def start(request, game: str):
    return _start(request, game, _plugin(game))


@require_POST
def not_now(request):
    """Hides the lobby's pointer to the guided match for this session."""
    request.session.pop(FIRST_STEPS, None)
    return redirect("lobby")


def _start(request, game: str, plugin):
    request.session.pop(FIRST_STEPS, None)
    # One guided match per game at a time: a second click continues it (and nobody fills the
    # database with bot matches by clicking).
    running = (GuidedMatch.objects.filter(learner=request.user, match__game=game, match__status="active")
               .values_list("match_id", flat=True).first())
    if running:
        return redirect("match", running)
    with transaction.atomic():
        match = match_services.start_match(
            game=game, entrants=[{"user": request.user, "bot": "", "choices": {}},
                                 {"user": None, "bot": _bot(plugin), "choices": {}}],
            options={}, move_days=14, public=False)
        GuidedMatch.objects.create(match=match, learner=request.user)
        # The guided match never mails or pushes (nor fills the bell): the learner sits at the
        # table, and a first visit must not end in an inbox of "your turn" mails. Set before the
        # commit, so that the start's follow-up already finds it.
        Seat.objects.filter(match=match, user=request.user).update(notify_level=NotifyLevel.NONE)
    return redirect("match", match.pk)


@login_required
@require_POST
def play_suggestion(request, pk: int):
    """The hint's "Play this move": the suggested move (guide/suggest.py, worked out again for the
    posted version, so the server never takes a move from the form) as the learner's move."""
    from frontend.views import _back_to_match  # the live part in place (htmx) or back to the page

    guided = GuidedMatch.objects.filter(match_id=pk, learner=request.user).select_related("match").first()
    if guided is None:
        raise Http404("No such guided match")
    match = guided.match
    seat = Seat.objects.filter(match=match, user=request.user).values_list("seat", flat=True).first()
    status = 200
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1
    plugin = registry.get(match.game)
    legal = plugin.engine.legal_actions(match.state, seat) if match.status == "active" and seat is not None else []
    found = suggestion(match, seat, legal, (translation.get_language() or "en")[:2]) if legal else None
    if version != match.version or found is None:
        messages.error(request, _("The game has changed meanwhile. Here is the current position; please try again."))
        return _back_to_match(request, pk, 409)
    try:
        match_services.submit_action(pk, request.user, found["action"], version)
    except IllegalAction as exc:
        messages.error(request, exc.reason_de if translation.get_language() == "de" else exc.reason)
        status = 400
    except MatchError as exc:
        messages.error(request, exc.message)
        status = exc.status
    return _back_to_match(request, pk, status)
