"""A seat's private notes: only the seat's own user reads or writes them (API, table, their own
replay). Nothing here is ever part of a view, a frame, the log or an export for anyone else."""
from django.utils.translation import gettext as _

from .errors import IllegalMove, NotSeated
from .models import Seat, SeatNote


def _own_seat(match_id: int, user) -> Seat:
    seat = None
    if user is not None and user.is_authenticated:
        seat = Seat.objects.filter(match_id=match_id, user=user).only("id", "match_id").first()
    if seat is None:
        raise NotSeated(_("Only the players of this match have notes in it."))
    return seat


def text_for(match_id: int, user) -> str:
    """The user's notes in the match ('' if none yet); NotSeated (403) without a seat."""
    seat = _own_seat(match_id, user)
    return SeatNote.objects.filter(seat=seat).values_list("text", flat=True).first() or ""


def own_text(match_id: int, user) -> str | None:
    """The user's notes in the match, None if they hold no seat (pages: no refusal)."""
    if user is None or not user.is_authenticated:
        return None
    row = Seat.objects.filter(match_id=match_id, user=user).values_list("note__text", "id").first()
    return None if row is None else (row[0] or "")


def save(match_id: int, user, text) -> SeatNote:
    if not isinstance(text, str):
        raise IllegalMove(_("Notes are text."))
    if len(text) > SeatNote.MAX_LENGTH:
        raise IllegalMove(_("Notes can be at most %(max)s characters long.") % {"max": f"{SeatNote.MAX_LENGTH:,}"})
    seat = _own_seat(match_id, user)
    note, created = SeatNote.objects.get_or_create(seat=seat, defaults={"match_id": match_id, "text": text})
    if not created and note.text != text:
        note.text = text
        note.save(update_fields=["text", "updated_at"])
    return note
