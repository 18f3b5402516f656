"""Reports and the moderators' sanctions. Every sanction is a ``Sanction`` row; a suspension
also sets ``User.is_active = False``: from then on the account's sessions, tokens and sockets
are refused (and ended at once by the save, see docs/security.md)."""
from __future__ import annotations

from datetime import timedelta

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches import presenters
from matches.models import ChatMessage, Match, Seat

from .models import Report, Sanction

REPORTS_PER_HOUR = 20  # per reporter: a queue people can trust is not a spam channel


MAX_ID = 2 ** 63 - 1  # what every database takes in a comparison


def parse_id(value, field: str) -> int | None:
    """An id from JSON or a query string: ASCII digits only ("²" is a digit to str.isdigit)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ReportError(_("'%(field)s' must be a number or null.") % {"field": field})
    text = str(value)
    if not (text.isascii() and text.isdecimal()) or int(text) > MAX_ID:
        raise ReportError(_("'%(field)s' must be a number or null.") % {"field": field})
    return int(text)


class ReportError(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def visible_match(match_id, reporter) -> Match:
    """The match if the reporter may watch it; the same refusal for a missing and a private one."""
    match = Match.objects.filter(pk=match_id).first() if isinstance(match_id, int) else None
    seats = list(Seat.objects.filter(match=match)) if match else []
    if match is None or not presenters.can_watch(match, presenters.seat_for(seats, reporter)):
        raise ReportError(_("There is no such match."))
    return match


def _count(reporter) -> None:
    key = f"reports:{reporter.pk}:{reporter.date_joined.timestamp():.6f}:{timezone.now():%Y%m%d%H}"  # a reused id starts afresh
    cache.add(key, 0, 3600)
    try:
        made = cache.incr(key)
    except ValueError:
        made = 1
    if made > REPORTS_PER_HOUR:
        raise ReportError(_("You have sent many reports in the last hour; please wait a while."), 429)


def report(reporter, *, username: str | None = None, match_id=None, chat_id=None,
           category: str = Report.Category.OTHER, reason: str = "") -> Report:
    reason = (reason or "").strip()
    if not reason:
        raise ReportError(_("Please say what happened."))
    if len(reason) > 1000:
        raise ReportError(_("A report can be at most 1,000 characters long."))
    if category not in Report.Category.values:
        raise ReportError(_("Choose one of the categories."))
    match = message = None
    if chat_id is not None:
        message = ChatMessage.objects.select_related("user").filter(pk=chat_id).first() \
            if isinstance(chat_id, int) else None
        try:
            match = visible_match(message.match_id, reporter) if message is not None else None
        except ReportError:
            match = None  # a line of a match the reporter may not watch: as if there were none
        if match is None:
            raise ReportError(_("There is no such chat line."))
        if match_id is not None and match_id != match.pk:
            raise ReportError(_("That chat line is not from this match."))
    elif match_id is not None:
        match = visible_match(match_id, reporter)
    User = get_user_model()
    reported = message.user if message else (
        User.objects.filter(username=username).first() if isinstance(username, str) and username else None)
    if reported is None:
        raise ReportError(_("Name the player you report.") if not username else _("There is no such player."))
    if message and username and username != reported.username:
        raise ReportError(_("That chat line was written by someone else."))
    if reported.pk == reporter.pk:
        raise ReportError(_("You cannot report yourself."))
    _count(reporter)
    return Report.objects.create(reporter=reporter, reported=reported, match=match, chat_message=message,
                                 chat_text=message.text if message else "", category=category, reason=reason)


def _close(report: Report | None, by) -> None:
    if report is not None and report.status == Report.Status.OPEN:
        report.status, report.handled_by, report.handled_at = Report.Status.HANDLED, by, timezone.now()
        report.save(update_fields=["status", "handled_by", "handled_at"])


def warn(user, *, by=None, reason: str = "", report: Report | None = None) -> Sanction:
    with transaction.atomic():
        sanction = Sanction.objects.create(user=user, kind=Sanction.Kind.WARN, reason=reason, report=report, by=by)
        _close(report, by)
        if apps.is_installed("notifications"):
            from notifications.services import notify

            notify(user, "moderation_warning", {"reason": reason, "url": "/terms/"}, key=f"warning:{sanction.pk}")
    return sanction


def mute(user, *, by=None, days: int | None = 7, reason: str = "", report: Report | None = None) -> Sanction:
    until = timezone.now() + timedelta(days=days) if days else None
    with transaction.atomic():
        sanction = Sanction.objects.create(user=user, kind=Sanction.Kind.MUTE, until=until, reason=reason,
                                           report=report, by=by)
        _close(report, by)
    return sanction


def suspend(user, *, by=None, reason: str = "", report: Report | None = None) -> Sanction:
    """The account is closed until a moderator opens it again (is_active in the admin)."""
    with transaction.atomic():
        sanction = Sanction.objects.create(user=user, kind=Sanction.Kind.SUSPEND, reason=reason, report=report, by=by)
        user.is_active = False
        user.save(update_fields=["is_active"])  # the save that ends sessions, tokens and sockets
        _close(report, by)
    return sanction


def dismiss(report: Report, *, by=None) -> None:
    if report.status == Report.Status.OPEN:
        report.status, report.handled_by, report.handled_at = Report.Status.DISMISSED, by, timezone.now()
        report.save(update_fields=["status", "handled_by", "handled_at"])
