"""Pages: the notification centre, the settings page, one-click unsubscribe, the service worker."""
from datetime import datetime, time

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from clocks import conf as clock_conf, services as clocks

from . import recipients, services
from .centre import groups as centre_groups
from .forms import PreferenceForm, VacationForm
from .kinds import KINDS
from .models import Notification, Preference, TurnMail
from .push import public_key

PAGE = 100


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


@login_required
def centre(request):
    if request.method == "POST":
        services.mark_read(request.user)
        return redirect("notifications:centre")
    pref = Preference.objects.filter(user=request.user).first() or Preference(user=request.user)
    return render(request, "notifications/centre.html", {"items": centre_groups(request.user, _lang(), PAGE),
                                                         "turn_mail": TurnMail.DIGEST.label if pref.digest
                                                         else pref.get_turn_mail_display(),
                                                         "turn_push": pref.get_turn_push_display()})


@login_required
def open_notification(request, pk: int):
    """Marks one notification read and follows its link."""
    n = get_object_or_404(Notification, pk=pk, user=request.user)
    services.mark_read(request.user, [n.pk])
    url = n.data.get("url") or "/notifications/"
    return redirect(url if url.startswith("/") else "/notifications/")


@login_required
def settings_page(request):
    pref = services.preferences(request.user)
    initial = {"digest": pref.digest, "digest_hour": pref.digest_hour, "quiet_start": pref.quiet_start,
               "quiet_end": pref.quiet_end, "next_game": pref.next_game, "turn_mail": pref.turn_mail,
               "turn_push": pref.turn_push}
    for kind in KINDS:
        for channel in services.channels_for(pref, kind):
            initial[f"{channel}__{kind}"] = True
    form = PreferenceForm(request.POST or None, initial=initial) if request.POST.get("form") == "prefs" \
        else PreferenceForm(initial=initial)
    vacation_form = VacationForm(request.POST if request.POST.get("form") == "vacation" else None,
                                 initial={"start": timezone.localdate()})
    if request.method == "POST":
        which = request.POST.get("form")
        if which == "prefs" and form.is_valid():
            d = form.cleaned_data
            pref.channels, pref.digest, pref.digest_hour = form.channels(), d["digest"], d["digest_hour"]
            pref.quiet_start, pref.quiet_end = d.get("quiet_start"), d.get("quiet_end")
            # (a form without these keeps the choices)
            pref.next_game = d.get("next_game") or pref.next_game
            pref.turn_mail, pref.turn_push = d.get("turn_mail") or pref.turn_mail, d.get("turn_push") or pref.turn_push
            pref.save(update_fields=["channels", "digest", "digest_hour", "quiet_start", "quiet_end", "next_game",
                                     "turn_mail", "turn_push"])
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notifications:settings")
        if which == "vacation" and vacation_form.is_valid():
            start_day = vacation_form.cleaned_data["start"]
            start = datetime.combine(start_day, time(), recipients.user_tz(request.user))
            try:
                clocks.take_vacation(request.user, start, vacation_form.cleaned_data["days"])
            except clocks.VacationError as exc:
                vacation_form.add_error(None, exc.message)
            else:
                messages.success(request, _("Your vacation is booked; your clocks stand still meanwhile."))
                return redirect("notifications:settings")
        if which == "cancel-vacation":
            vacation_id = _vacation_id(request.POST.get("vacation", ""))
            if vacation_id is None:
                messages.error(request, _("Choose one of your vacations to cancel."))
                return redirect("notifications:settings")
            try:
                clocks.cancel_vacation(request.user, vacation_id)
                messages.success(request, _("The vacation is cancelled."))
            except clocks.VacationError as exc:
                messages.error(request, exc.message)
            return redirect("notifications:settings")
    now = timezone.now()
    vacations = list(request.user.vacations.filter(end__gt=now))
    return render(request, "notifications/settings.html", {
        "form": form, "vacation_form": vacation_form, "vacations": vacations, "now": now,
        "days_left": int(clocks.vacation_days_left(request.user.id, now)),
        "allowance": clock_conf.VACATION_DAYS_PER_YEAR, "vapid_key": public_key(),
        "subscriptions": request.user.push_subscriptions.count()})


def _vacation_id(raw: str) -> int | None:
    """The posted vacation's id, or None for anything else (a tampered or stale form): int()'s
    error text is Python's, not the user's; an id beyond a bigint would fail in the database."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


@csrf_exempt  # RFC 8058: mail clients POST without a session; the signed token is the proof
def unsubscribe(request, token: str):
    found = recipients.read_unsubscribe_token(token)
    if found is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=400)
    user_id, kind = found
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or (kind != "all" and kind not in KINDS):
        raise Http404("No such subscription")
    label = _("all e-mails") if kind == "all" else KINDS[kind][0]
    if request.method == "POST":
        services.unsubscribe(user, kind)
        return render(request, "notifications/unsubscribe.html", {"done": True, "label": label})
    return render(request, "notifications/unsubscribe.html", {"label": label, "token": token})


@never_cache
def service_worker(request):
    """Served from the site root so that the worker's scope is the whole site."""
    path = finders.find("notifications/sw.js")
    with open(path, encoding="utf-8") as f:
        response = HttpResponse(f.read(), content_type="application/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@login_required
@require_POST
def read_all(request):
    services.mark_read(request.user)
    return redirect(request.POST.get("next") or "notifications:centre")
