"""The report form the pages' "Report" links open (a player, a match, a chat line)."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_http_methods

from matches.models import Seat

from . import services
from .models import Report


class ReportForm(forms.Form):
    user = forms.CharField(required=False, widget=forms.HiddenInput)
    match = forms.IntegerField(required=False, min_value=1, max_value=services.MAX_ID, widget=forms.HiddenInput)
    chat = forms.IntegerField(required=False, min_value=1, max_value=services.MAX_ID, widget=forms.HiddenInput)
    next = forms.CharField(required=False, widget=forms.HiddenInput)
    category = forms.ChoiceField(label=gettext_lazy("What happened?"), choices=Report.Category.choices)
    reason = forms.CharField(label=gettext_lazy("Tell the moderators more"), max_length=1000,
                             widget=forms.Textarea(attrs={"rows": 4}))


@login_required
@require_http_methods(["GET", "POST"])
def new_report(request):
    form = ReportForm(request.POST or None, initial=request.GET.dict())
    _players_to_choose(form, request)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.report(request.user, username=data["user"] or None, match_id=data["match"],
                            chat_id=data["chat"], category=data["category"], reason=data["reason"])
        except services.ReportError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Thank you. The moderators will look at your report."))
            target = data["next"]
            if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
                return redirect(target)
            return redirect("my-games")
    about = request.POST.get("user") or request.GET.get("user") or ""
    return render(request, "moderation/report.html", {"form": form, "about": about,
                                                      "chat_id": request.POST.get("chat") or request.GET.get("chat")})


def _players_to_choose(form, request) -> None:
    """A match report without a named player: choose one of the match's other players."""
    source = request.POST if request.method == "POST" else request.GET
    if source.get("user") or source.get("chat"):
        return
    try:
        match_id = services.parse_id(source.get("match"), "match")
        match = services.visible_match(match_id, request.user) if match_id is not None else None
    except services.ReportError:
        return
    if match is None:
        return
    names = list(Seat.objects.filter(match=match, user__isnull=False).exclude(user=request.user)
                 .order_by("seat").values_list("user__username", flat=True))
    form.fields["user"] = forms.ChoiceField(label=gettext_lazy("Player"), choices=[(n, n) for n in names])
