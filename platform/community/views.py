"""Public profiles, friends and blocks, one-click private invitations to a friend, and the
list of live public matches to watch. Thin: the figures come from profiles.py."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from gamestats import charts
from lobby import services as lobby
from lobby.errors import LobbyError
from matches.models import Match, Seat

from . import profiles, services
from .forms import InviteFriendForm, UsernameForm

WATCH_SIZE = 50


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


def _match_rows(matches, owner, lang: str) -> list[dict]:
    rows = []
    for m in matches:
        seats = list(m.seats.all())
        mine = next((s for s in seats if s.user_id == owner.pk), None)
        rows.append({"match": m, "game_name": profiles.game_name(m.game, lang), "players": seats,
                     "place": mine.place if mine else None})
    return rows


def profile(request, username: str):
    user = get_object_or_404(get_user_model(), username=username)
    lang = _lang()
    results = profiles.results(user)
    ratings = {r["game"]: r for r in profiles.ratings(user)}
    history = profiles.rating_history(user)
    per_game = []
    for game in sorted(set(results["games"]) | set(ratings) | set(history)):
        name = profiles.game_name(game, lang)
        points = history.get(game, [])
        per_game.append({
            "game": game, "name": name, **results["games"].get(game, {"played": 0, "won": 0}),
            "rating": ratings.get(game),
            "chart": charts.line_chart(points, title=_("Rating history: %(game)s") % {"game": name},
                                       chart_id=f"rating-chart-{game}") if len(points) > 1 else None})
    current, finished = profiles.matches(user, request.user)
    viewer = request.user if request.user.is_authenticated else None
    own = viewer is not None and viewer.pk == user.pk
    seconds = profiles.usual_move_seconds(user)
    return render(request, "community/profile.html", {
        "owner": user, "own": own, "per_game": per_game, "played": results["played"], "won": results["won"],
        "timeouts": results["timeouts"], "move_time": _duration(seconds), "move_seconds": seconds,
        "current": _match_rows(current, user, lang), "finished": _match_rows(finished, user, lang),
        "tournaments": profiles.tournaments(user), "relation": profiles.relation(viewer, user),
        "friends": profiles.friends_of(user), "blocked": profiles.blocked_by(user) if own else [],
        "add_form": UsernameForm() if own else None})


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    minutes = int(seconds // 60)
    if minutes < 1:
        return _("under a minute")
    if minutes < 60:
        return _("%(m)d min") % {"m": minutes}
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return _("%(h)d h %(m)d min") % {"h": hours, "m": minutes}
    return _("%(d)d days") % {"d": round(hours / 24)}


@login_required
@require_POST
def relation_action(request, username: str, verb: str):
    actions = {"friend": (services.add_friend, _("%(name)s is now on your friends list.")),
               "unfriend": (services.remove_friend, _("%(name)s is no longer on your friends list.")),
               "block": (services.block, _("You have blocked %(name)s.")),
               "unblock": (services.unblock, _("You have unblocked %(name)s."))}
    if verb not in actions:
        raise Http404()
    fn, text = actions[verb]
    try:
        other = fn(request.user, username)
        messages.success(request, text % {"name": other.username})
    except services.CommunityError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("user-profile", username)


@login_required
@require_POST
def add_by_name(request, verb: str):
    """The own profile's "add a friend / block a user" forms, which name the user."""
    form = UsernameForm(request.POST)
    if not form.is_valid() or verb not in ("friend", "block"):
        messages.error(request, _("Please enter a user name."))
        return redirect("user-profile", request.user.username)
    return relation_action(request, form.cleaned_data["username"].strip(), verb)


@login_required
def invite_friend(request, username: str):
    friend = get_object_or_404(get_user_model(), username=username)
    form = InviteFriendForm(_lang(), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invitation = lobby.create_invitation(
                request.user, game=form.cleaned_data["game"], players=form.cleaned_data["players"],
                move_days=form.cleaned_data["move_days"], private=True, invitees=[friend.username])
        except LobbyError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Your private invitation to %(name)s is open.") % {"name": friend.username})
            return redirect("invitation", invitation.pk)
    return render(request, "community/invite.html", {"form": form, "friend": friend})


def watch(request):
    """Live public matches anyone may watch (each shows spectators the public view only)."""
    lang = _lang()
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("seat"))
    base = Match.objects.filter(public=True).defer("state", "seed", "choices").prefetch_related(seats)
    live = list(base.filter(status=Match.Status.ACTIVE).order_by("-updated_at", "-id")[:WATCH_SIZE])
    done = list(base.filter(status=Match.Status.FINISHED).order_by("-finished_at", "-id")[:20])

    def rows(ms):
        return [{"match": m, "game_name": profiles.game_name(m.game, lang), "players": list(m.seats.all())}
                for m in ms]

    return render(request, "community/watch.html", {"live": rows(live), "finished": rows(done)})
