"""Invitations: create, join, leave, cancel; the match starts when the last seat fills."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import registry
from games.base import BadOptions
from matches import services as match_services

from . import signals
from .errors import LobbyError
from .models import Entry, Invitation

MOVE_DAYS = (1, 30)
SUBSTITUTE_HOURS = (0, 24 * 7)  # 0: a bot takes a left seat at once


def _plugin(game: str):
    try:
        return registry.get(game)
    except KeyError:
        raise LobbyError(_("There is no game called '%(game)s'.") % {"game": game}) from None


def create_invitation(host, *, game: str, players, options: dict | None = None, move_days=3,
                      private: bool = False, invitees: list[str] | None = None, choices: dict | None = None,
                      bots: list[str] | None = None, comment: str = "", substitute_hours: int = 24,
                      rematch_of=None) -> Invitation:
    """Create an invitation and seat the host (and any bots the host adds)."""
    plugin = _plugin(game)
    try:
        players = plugin.meta.check_players(players)
        options = plugin.meta.clean_options(options)
        choices = plugin.clean_choices(choices, host.id)
    except BadOptions as exc:
        # The game words its refusal in English and German; the request's language picks.
        raise LobbyError(exc.text(translation.get_language())) from None
    if isinstance(move_days, bool) or not isinstance(move_days, int) or not MOVE_DAYS[0] <= move_days <= MOVE_DAYS[1]:
        raise LobbyError(_("Days per move must be a whole number from %(min)s to %(max)s.")
                         % {"min": MOVE_DAYS[0], "max": MOVE_DAYS[1]})
    if isinstance(substitute_hours, bool) or not isinstance(substitute_hours, int) or \
            not SUBSTITUTE_HOURS[0] <= substitute_hours <= SUBSTITUTE_HOURS[1]:
        raise LobbyError(_("Hours to wait for a substitute must be a whole number from %(min)s to %(max)s.")
                         % {"min": SUBSTITUTE_HOURS[0], "max": SUBSTITUTE_HOURS[1]})
    bots = list(bots or [])
    available = set(plugin.bots()) | {"random-legal"}
    for bot in bots:
        if bot not in available:
            raise LobbyError(_("Unknown bot '%(bot)s'. Available: %(available)s.")
                             % {"bot": bot, "available": ", ".join(sorted(available))})
    if 1 + len(bots) > players:
        raise LobbyError(_("More bots than free seats."))
    invitee_users = []
    names = [n.strip() for n in (invitees or []) if n and n.strip()]
    if private and not names:
        raise LobbyError(_("A private invitation needs at least one invitee."))
    if names:  # private: only they may join; public: anyone may, and they are told (a friend's invitation)
        User = get_user_model()
        invitee_users = list(User.objects.filter(username__in=names))
        missing = set(names) - {u.username for u in invitee_users}
        if missing:
            raise LobbyError(ngettext("Unknown user: %(names)s.", "Unknown users: %(names)s.", len(missing))
                             % {"names": ", ".join(sorted(missing))})
        from community.rules import assert_may_invite  # the block list (platform/community)

        assert_may_invite(host, invitee_users)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            game=game, host=host, players=players, options=options, move_days=move_days,
            private=private, comment=comment[:200], substitute_hours=substitute_hours, rematch_of=rematch_of)
        if invitee_users:
            invitation.invitees.set(invitee_users)
        Entry.objects.create(invitation=invitation, user=host, choices=choices)
        Entry.objects.bulk_create([Entry(invitation=invitation, bot=b) for b in bots])
        invitation.seats_taken = 1 + len(bots)
        invitation.save(update_fields=["seats_taken"])
        _start_if_full(invitation)
        invitation_id = invitation.pk
        transaction.on_commit(lambda: signals.invitation_created.send(Invitation, invitation_id=invitation_id))
    return invitation


def may_see(invitation: Invitation, user) -> bool:
    """A private invitation is for its host, its invitees and who has joined."""
    if not invitation.private:
        return True
    if user is None or not user.is_authenticated:
        return False
    return invitation.host_id == user.id or invitation.invitees.filter(pk=user.pk).exists() or \
        invitation.entries.filter(user=user).exists()


def _locked(invitation_id: int, user) -> Invitation:
    """The invitation, locked. A private one the user may not see answers exactly like a
    missing one (status and message): a refusal must not confirm that it exists."""
    try:
        invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    except Invitation.DoesNotExist:
        invitation = None
    if invitation is None or not may_see(invitation, user):
        raise LobbyError(_("There is no such invitation."), 404)
    return invitation


def join(invitation_id: int, user, choices: dict | None = None) -> Invitation:
    with transaction.atomic():
        invitation = _locked(invitation_id, user)  # a private one: only its people see it
        if invitation.status != Invitation.Status.OPEN:
            raise LobbyError(_("This invitation is no longer open."), 409)
        from community.rules import assert_may_join  # the block list (platform/community)

        assert_may_join(user, invitation)
        if invitation.entries.filter(user=user).exists():
            raise LobbyError(_("You have already joined this invitation."), 409)
        if invitation.seats_free <= 0:
            raise LobbyError(_("This invitation is full."), 409)
        try:
            cleaned = _plugin(invitation.game).clean_choices(choices, user.id)
        except BadOptions as exc:
            raise LobbyError(exc.text(translation.get_language())) from None
        try:
            with transaction.atomic():
                Entry.objects.create(invitation=invitation, user=user, choices=cleaned)
        except IntegrityError:
            raise LobbyError(_("You have already joined this invitation."), 409) from None
        invitation.seats_taken += 1
        invitation.save(update_fields=["seats_taken"])
        invitation.declined.remove(user)  # a change of mind: declining first does not bar joining
        _start_if_full(invitation)
        _announce_seats(invitation)
        return invitation


def leave(invitation_id: int, user) -> Invitation:
    with transaction.atomic():
        invitation = _locked(invitation_id, user)
        if invitation.status != Invitation.Status.OPEN:
            raise LobbyError(_("This invitation is no longer open."), 409)
        if invitation.host_id == user.id:
            raise LobbyError(_("The host cannot leave; cancel the invitation instead."), 409)
        deleted, _rows = invitation.entries.filter(user=user).delete()
        if not deleted:
            raise LobbyError(_("You have not joined this invitation."), 409)
        invitation.seats_taken -= 1
        invitation.save(update_fields=["seats_taken"])
        _announce_seats(invitation, also=[user.id])
        return invitation


def decline(invitation_id: int, user) -> Invitation:
    """An invitee says no: the invitation leaves their list and the host hears of it. Only
    named invitees may decline, and only while they have not joined (then: leave)."""
    with transaction.atomic():
        invitation = _locked(invitation_id, user)
        if invitation.status != Invitation.Status.OPEN:
            raise LobbyError(_("This invitation is no longer open."), 409)
        if not invitation.invitees.filter(pk=user.pk).exists() or invitation.host_id == user.id:
            raise LobbyError(_("You were not invited to this game."), 403)
        if invitation.entries.filter(user=user).exists():
            raise LobbyError(_("You have joined this invitation; leave it instead."), 409)
        if invitation.declined.filter(pk=user.pk).exists():
            raise LobbyError(_("You have already declined this invitation."), 409)
        invitation.declined.add(user)
        user_id = user.id
        transaction.on_commit(lambda: signals.invitation_declined.send(
            Invitation, invitation_id=invitation_id, user_id=user_id))
        return invitation


def cancel(invitation_id: int, user) -> Invitation:
    with transaction.atomic():
        invitation = _locked(invitation_id, user)
        if invitation.host_id != user.id:
            raise LobbyError(_("Only the host can cancel an invitation."), 403)
        if invitation.status != Invitation.Status.OPEN:
            raise LobbyError(_("This invitation is no longer open."), 409)
        invitation.status = Invitation.Status.CANCELLED
        invitation.save(update_fields=["status"])
        transaction.on_commit(lambda: signals.invitation_cancelled.send(Invitation, invitation_id=invitation_id))
        return invitation


def _announce_seats(invitation: Invitation, also: list[int] = ()) -> None:
    """After commit, a frame to the players' open pages: the seats changed (live seat list)."""
    from .live import seats_changed

    user_ids = [*also, *invitation.entries.filter(user__isnull=False).values_list("user_id", flat=True)]
    pk, taken = invitation.pk, invitation.seats_taken
    transaction.on_commit(lambda: seats_changed(pk, user_ids, taken))


def _start_if_full(invitation: Invitation) -> None:
    if invitation.seats_free > 0:
        return
    entrants = [{"user": e.user, "bot": e.bot, "choices": e.choices}
                for e in invitation.entries.select_related("user")]
    match = match_services.start_match(
        game=invitation.game, entrants=entrants, options=invitation.options,
        move_days=invitation.move_days, public=not invitation.private)
    invitation.status = Invitation.Status.STARTED
    invitation.match = match
    invitation.save(update_fields=["status", "match"])
