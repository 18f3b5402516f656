"""A player's private notes in a match: they belong to the person who wrote them, not to the
seat. The seated player writes them; the writer alone reads them (API, table, their own replay),
also after leaving the match (a substitute who takes the seat starts with none). Nothing here is
ever part of a view, a frame, the log or an export for anyone else."""
from django.utils.translation import gettext as _

from .errors import IllegalMove, NotSeated
from .models import Seat, SeatNote


def _refused() -> NotSeated:
    return NotSeated(_("Only the players of this match have notes in it."))


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def text_for(match_id: int, user) -> str:
    """The user's notes in the match ('' if none yet): for its seated player, and for one who
    left it and wrote some. NotSeated (403) otherwise."""
    if not _signed_in(user):
        raise _refused()
    text = SeatNote.objects.filter(match_id=match_id, user=user).values_list("text", flat=True).first()
    if text is not None:
        return text
    if not Seat.objects.filter(match_id=match_id, user=user).exists():
        raise _refused()
    return ""


def own_text(match_id: int, user) -> str | None:
    """The user's notes in the match, None if they neither hold a seat nor wrote any (pages:
    no refusal)."""
    if not _signed_in(user):
        return None
    try:
        return text_for(match_id, user)
    except NotSeated:
        return None


def save(match_id: int, user, text) -> SeatNote:
    if not isinstance(text, str):
        raise IllegalMove(_("Notes are text."))
    if len(text) > SeatNote.MAX_LENGTH:
        raise IllegalMove(_("Notes can be at most %(max)s characters long.") % {"max": f"{SeatNote.MAX_LENGTH:,}"})
    if not _signed_in(user) or not Seat.objects.filter(match_id=match_id, user=user).exists():
        raise _refused()  # one who left reads their notes, but writes no more
    note, created = SeatNote.objects.get_or_create(match_id=match_id, user=user, defaults={"text": text})
    if not created and note.text != text:
        note.text = text
        note.save(update_fields=["text", "updated_at"])
    return note
