"""The game page's parts for playing over days: private notes (saved as you type), the
per-match notification setting and the chat's unread mark. Views stay thin: the
rules are in matches.notes, matches.seatprefs and matches.chat."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from matches import chat, notes, seatprefs
from matches.errors import MatchError
from matches.models import NotifyLevel, SeatNote


def page_context(request, context: dict) -> dict:
    """What the full game page adds for a seated player: their notes, their notification
    setting, the chat lines they have not read. Two queries, only for a seated player."""
    seat = context.get("my_seat")
    if seat is None:
        return {"chat_unread": 0}
    match_id = context["match"].pk
    return {"notes_text": notes.own_text(match_id, request.user) or "", "notes_max": SeatNote.MAX_LENGTH,
            "notify_level": seat.notify_level, "notify_levels": NotifyLevel.choices,
            "chat_unread": chat.unread_after(match_id, request.user, seat.chat_read)}


@require_POST
def match_notes(request, pk: int):
    """Saves the notes (htmx: on input, debounced; answers the small "saved" state)."""
    error, saved_at = "", None
    try:
        notes.save(pk, request.user, request.POST.get("text", ""))
        saved_at = timezone.localtime()
    except MatchError as exc:
        error = exc.message
    if request.htmx:  # 200 with the refusal inside: htmx swaps no 4xx
        return render(request, "frontend/match_notes_state.html", {"error": error, "saved_at": saved_at})
    if error:
        messages.error(request, error)
    return redirect("match", pk)


@require_POST
def match_notify(request, pk: int):
    """The per-match notification setting (everything / only my turn / nothing)."""
    error = ""
    try:
        level = seatprefs.set_level(pk, request.user, request.POST.get("level"))
    except MatchError as exc:
        error, level = exc.message, request.POST.get("level")
    if request.htmx:
        return render(request, "frontend/match_notify.html", {
            "match_id": pk, "notify_level": level, "notify_levels": NotifyLevel.choices,
            "notify_error": error, "notify_saved": not error})
    if error:
        messages.error(request, error)
    return redirect("match", pk)


@require_POST
def match_chat_read(request, pk: int):
    """The player has read the chat (the drawer opened, or the panel in view): 204."""
    if not request.user.is_authenticated or not chat.mark_read(pk, request.user):
        return HttpResponse(status=403)
    return HttpResponse(status=204)
