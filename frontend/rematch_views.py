"""After and around a match: the rematch button and the "substitute wanted" offer page
(lobby.rematch, lobby.substitutes). Thin: the services decide."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.guests import is_guest
from lobby import substitutes
from lobby.errors import LobbyError
from lobby.models import SubstituteOffer
from lobby.rematch import rematch
from matches.errors import MatchError
from matches.models import Match


def after_match_context(match: Match, seats: list, my_seat) -> dict:
    """What the game page adds: may the viewer offer a rematch, which seats wait for a
    substitute (read only where a bot holds a seat of a running 3+ player match)."""
    waiting = []
    if match.status == Match.Status.ACTIVE and match.players >= 3 and any(s.bot for s in seats):
        names = {s.seat: s.name for s in seats}
        waiting = [{"seat": o.seat + 1, "name": names.get(o.seat, ""), "until": o.expires_at, "pk": o.pk}
                   for o in substitutes.waiting_seats(match.pk)]
    # A guest's one match is the guided one: what follows it is signing up, not a rematch.
    may_rematch = (my_seat is not None and match.status == Match.Status.FINISHED
                   and not (my_seat.user_id and is_guest(my_seat.user)))
    # Players whose account is gone are not invited again (lobby.rematch): the button says so.
    gone = sum(1 for s in seats if s.user_id and s.user_id != getattr(my_seat, "user_id", None)
               and not s.user.is_active) if may_rematch else 0
    return {"may_rematch": may_rematch, "rematch_gone": gone, "waiting_seats": waiting}


@login_required
@require_POST
def match_rematch(request, pk: int):
    try:
        invitation, created = rematch(pk, request.user)
    except LobbyError as exc:
        if exc.status == 404:
            raise Http404("No such match") from None
        messages.error(request, exc.message)
        return redirect("match", pk)
    if created:
        messages.success(request, _("Rematch offered: the other players are invited."))
    if invitation.match_id:
        return redirect("match", invitation.match_id)
    return redirect("invitation", invitation.pk)


def substitute_page(request, pk: int):
    """The offer: game, seat, players, until when; a button to take the seat. Nothing private."""
    offer = SubstituteOffer.objects.select_related("match").filter(pk=pk).first()
    if offer is None or not substitutes.may_see(offer, request.user):
        if not request.user.is_authenticated:  # a friend following the mail's link while logged out
            return redirect_to_login(request.get_full_path())
        raise Http404("No such offer")
    error, status = "", 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            substitutes.take(pk, request.user)
        except (LobbyError, MatchError) as exc:  # the offer's or the match's refusal, on the page
            error, status = exc.message, exc.status
        else:
            messages.success(request, _("You took over the seat. Good luck!"))
            return redirect("match", offer.match_id)
    seats = list(offer.match.seats.select_related("user"))
    return render(request, "frontend/substitute.html", {
        "offer": offer, "error": error,
        "players": [s.name for s in seats if s.seat != offer.seat],
        "open": offer.status == SubstituteOffer.Status.OPEN and offer.match.status == Match.Status.ACTIVE},
        status=status)
