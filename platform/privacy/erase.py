"""Account deletion (GDPR Art. 17; contract "Accounts": ``POST /api/account/delete/``).

The person goes, the games stay whole: the User row stays as a tombstone (seats, log entries,
ratings changes, tournament entries and results point to it; deleting it would cascade into
other people's games) but holds nothing of the person: a placeholder name (``deleted-<hex>``),
no e-mail, no password, ``is_active=False`` (which also ends their sessions, tokens and
sockets). What is theirs alone goes: chat lines, notes, notifications and their settings, push
subscriptions, friends and blocks, vacations, saved decks, reports they made. Their seats in
running matches are resigned first, so nobody waits for a player who is gone; their open
invitations are withdrawn. Nobody's rating is recomputed: the results stay as they were.
"""
from __future__ import annotations

import logging
import secrets

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from matches.errors import MatchError
from matches.models import ChatMessage, LogEntry, Match, Seat, SeatNote, SeatOrders

logger = logging.getLogger(__name__)
PREFIX = "deleted-"


def placeholder_name() -> str:
    User = get_user_model()
    while True:
        name = PREFIX + secrets.token_hex(4)
        if not User.objects.filter(username=name).exists():
            return name


def is_erased(user) -> bool:
    return not user.is_active and user.username.startswith(PREFIX) and not user.has_usable_password()


def erase(user) -> str:
    """Erases the person behind ``user``; returns the placeholder name their seats now show."""
    invitations = _invitations_of(user.pk)  # before leaving them removes the entries
    _leave_running_things(user)
    with transaction.atomic():
        User = get_user_model()
        user = User.objects.select_for_update().get(pk=user.pk)
        old_name, name = user.username, placeholder_name()
        _scrub_seat_log(user.pk, old_name, name)
        _scrub_others_notifications(user.pk, old_name, name, invitations)
        ChatMessage.objects.filter(user=user).delete()
        SeatNote.objects.filter(user=user).delete()
        _erase_orders(user)
        _delete_own_rows(user)
        user.username, user.email, user.first_name, user.last_name = name, "", "", ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()  # every field: the tombstone must not keep any
        user.groups.clear()
        user.user_permissions.clear()
        profile = user.profile
        profile.display_name, profile.verified_email, profile.timezone = "", "", "Europe/Berlin"
        profile.save()
    logger.info("account %s erased", user.pk)
    return name


def _erase_orders(user) -> None:
    """Their standing orders go (a seat they still hold plays on without them); so does the
    seat's flag, so that nobody's move path looks for them again."""
    seats = SeatOrders.objects.filter(Q(user=user) | Q(seat__user=user)).values_list("seat_id", flat=True)
    Seat.objects.filter(pk__in=list(seats), has_orders=True).update(has_orders=False)
    SeatOrders.objects.filter(Q(user=user) | Q(seat__user=user)).delete()


def _leave_running_things(user) -> None:
    """Resigns running matches and withdraws open invitations (each its own service call)."""
    from matches import services as match_services

    running = Seat.objects.filter(user=user, resigned=False, match__status=Match.Status.ACTIVE)
    for match_id in running.values_list("match_id", flat=True):
        try:
            match_services.resign(match_id, user)
        except MatchError as exc:  # ended meanwhile: nothing to leave
            logger.info("erase: match %s not resigned (%s)", match_id, exc)
    from lobby import services as lobby_services
    from lobby.errors import LobbyError
    from lobby.models import Entry, Invitation

    for invitation_id in Invitation.objects.filter(host=user, status=Invitation.Status.OPEN).values_list("pk", flat=True):
        try:
            lobby_services.cancel(invitation_id, user)
        except LobbyError as exc:
            logger.info("erase: invitation %s not cancelled (%s)", invitation_id, exc)
    for invitation_id in Entry.objects.filter(user=user, invitation__status=Invitation.Status.OPEN) \
            .exclude(invitation__host=user).values_list("invitation_id", flat=True):
        try:
            lobby_services.leave(invitation_id, user)
        except LobbyError as exc:
            logger.info("erase: invitation %s not left (%s)", invitation_id, exc)


def _scrub_seat_log(user_id: int, old_name: str, name: str) -> None:
    """A substitute's log entry keeps the names of who left and who joined: the placeholder now."""
    match_ids = set(Seat.objects.filter(user_id=user_id).values_list("match_id", flat=True))
    if apps.is_installed("lobby"):
        from django.db.models import Q
        from lobby.models import SubstituteOffer

        match_ids |= set(SubstituteOffer.objects.filter(Q(leaver_id=user_id) | Q(substitute_id=user_id))
                         .values_list("match_id", flat=True))
    for entry in LogEntry.objects.filter(match_id__in=match_ids, kind=LogEntry.Kind.SEAT):
        events, changed = [], False
        for event in entry.events:
            event = dict(event)
            for who, label in (("left", "left_name"), ("joined", "joined_name")):
                if event.get(who) == user_id and event.get(label) == old_name:
                    event[label], changed = name, True
            events.append(event)
        if changed:
            LogEntry.objects.filter(pk=entry.pk).update(events=events)


def _invitations_of(user_id: int) -> set[int]:
    if not apps.is_installed("lobby"):
        return set()
    from django.db.models import Q
    from lobby.models import Entry, Invitation

    return set(Invitation.objects.filter(Q(host_id=user_id) | Q(invitees__id=user_id)).values_list("pk", flat=True)) | \
        set(Entry.objects.filter(user_id=user_id).values_list("invitation_id", flat=True))


def _scrub_others_notifications(user_id: int, old_name: str, name: str, invitation_ids: set[int]) -> None:
    """Other people's notifications name the person (opponents, host, player) and quote their
    chat lines: the placeholder now, and no line. The candidates are the notifications about
    the person's matches and invitations; deletion is rare, so a pass in Python is enough."""
    if not apps.is_installed("notifications"):
        return
    from django.db.models import Q
    from notifications.models import Notification

    match_ids = set(Seat.objects.filter(user_id=user_id).values_list("match_id", flat=True))
    candidates = Notification.objects.exclude(user_id=user_id).filter(
        Q(match_id__in=match_ids) | Q(match__isnull=True))
    for n in candidates.only("id", "data", "match_id").iterator(chunk_size=500):
        data = n.data if isinstance(n.data, dict) else {}
        if n.match_id is None and data.get("invitation") not in invitation_ids:
            continue
        scrubbed = dict(data)
        if old_name in scrubbed.get("opponents", []):
            scrubbed["opponents"] = [name if who == old_name else who for who in scrubbed["opponents"]]
        for key in ("host", "player"):
            if scrubbed.get(key) == old_name:
                scrubbed[key] = name
                if key == "player" and "line" in scrubbed:
                    scrubbed["line"] = ""  # their words go with them
        if scrubbed != data:
            Notification.objects.filter(pk=n.pk).update(data=scrubbed)


# (app, model, lookups): rows that are the person's alone, deleted with the account.
OWN_ROWS = [
    ("notifications", "Notification", ("user",)),
    ("notifications", "Preference", ("user",)),
    ("notifications", "PushSubscription", ("user",)),
    ("notifications", "Digest", ("user",)),
    ("community", "Friendship", ("user", "friend")),
    ("community", "Block", ("user", "blocked")),
    ("clocks", "Vacation", ("user",)),
    ("moderation", "Report", ("reporter",)),
    ("authtoken", "Token", ("user",)),
]


def personal_rows() -> list[tuple[str, str, tuple[str, ...]]]:
    """(app, model, lookups) of the person's own rows: the platform's, plus those every installed
    app (a game's ``games/<slug>/web/``) declares in its AppConfig as ``personal_data =
    {"Model": ("user_field", ...)}`` (docs/writing-a-game.md, "A game's Django part")."""
    declared = [(cfg.label, model, tuple(lookups)) for cfg in apps.get_app_configs()
                for model, lookups in (getattr(cfg, "personal_data", None) or {}).items()]
    return OWN_ROWS + declared


def _delete_own_rows(user) -> None:
    for app_label, model_name, lookups in personal_rows():
        try:
            model = apps.get_model(app_label, model_name)
        except LookupError:  # app not installed
            continue
        for lookup in lookups:
            model.objects.filter(**{lookup: user}).delete()
    if apps.is_installed("lobby"):
        from lobby.models import Invitation

        Invitation.invitees.through.objects.filter(user_id=user.pk).delete()
        Invitation.declined.through.objects.filter(user_id=user.pk).delete()
