"""The tournament pages (htmx, phone-friendly). Thin: parse, call a service, render."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games import registry

from . import logic, presenters, queries, services
from .errors import TournamentError
from .forms import OfficialForm, RegisterForm, SanctionForm, TournamentForm
from .loading import load
from .models import Official, ResultCorrection, Round, Sanction, Tournament
from .roles import HEAD_JUDGE, JUDGE, ORGANIZER, PLAYER, may_correct, roles_of

LIST_SIZE = 100


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


def game_name(slug: str) -> str:
    try:
        meta = registry.get(slug).meta
    except KeyError:
        return slug
    return meta.name_de if _lang() == "de" else meta.name_en


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("organizer", "winner"), pk=pk)


def _context(request, t: Tournament, field=None) -> dict:
    field = field or load(t)
    roles = roles_of(t, request.user)
    names = {e.user_id: e.user.username for e in field.entrants}
    return {"t": t, "field": field, "roles": roles, "names": names, "game_name": game_name(t.game),
            "is_organizer": ORGANIZER in roles, "is_official": bool(roles & {ORGANIZER, HEAD_JUDGE, JUDGE}),
            "is_player": PLAYER in roles,
            "has_knockout": any(r.stage == logic.KNOCKOUT for r in field.rounds) or t.format == "knockout"}


# --- list, create -----------------------------------------------------------------------------
def tournament_list(request):
    rows = list(queries.tournament_list(status=request.GET.get("status", ""))[:LIST_SIZE])
    return render(request, "tournaments/list.html",
                  {"rows": [{"t": t, "game_name": game_name(t.game)} for t in rows],
                   "status": request.GET.get("status", ""), "statuses": Tournament.Status.choices})


@login_required
def tournament_new(request):
    form = TournamentForm(_lang(), request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            t = services.create_tournament(request.user, **data)
        except TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("The tournament is open for sign-up."))
            return redirect("tournament", t.pk)
    return render(request, "tournaments/new.html", {"form": form})


# --- detail and actions ---------------------------------------------------------------------------
def tournament_page(request, pk: int):
    t = _tournament(pk)
    ctx = _context(request, t)
    field = ctx["field"]
    me = request.user.id if request.user.is_authenticated else None
    ctx["entrants"] = [{"e": e, "show_choices": ctx["is_organizer"] or e.user_id == me} for e in field.entrants]
    ctx["me"] = next((e for e in field.entrants if e.user_id == me), None)
    ctx["officials"] = list(Official.objects.filter(tournament=t).select_related("user"))
    if ctx["is_official"]:
        ctx["sanctions"] = list(Sanction.objects.filter(tournament=t).select_related("user", "issued_by", "table"))
        ctx["sanction_form"] = SanctionForm([(e.user_id, e.user.username) for e in field.entrants])
        ctx["official_form"] = OfficialForm()
    elif me:
        ctx["sanctions"] = list(Sanction.objects.filter(tournament=t, user_id=me).select_related("issued_by"))
    ctx["can_register"] = request.user.is_authenticated and ctx["me"] is None and (
        t.status == Tournament.Status.REGISTRATION or (t.is_league and t.status == Tournament.Status.RUNNING))
    ctx["bots"] = list(registry.get(t.game).bots()) if t.game in registry.plugins() else []
    return render(request, "tournaments/detail.html", ctx)


@login_required
def register_page(request, pk: int):
    t = _tournament(pk)
    plugin = registry.get(t.game)
    form = RegisterForm(plugin, request.user.id, _lang(), request.POST or None)
    if request.method == "POST" and form.is_valid():
        choices = form.choices()
        try:
            services.register(t, request.user, choices=choices)
        except TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("You are registered."))
            return redirect("tournament", t.pk)
    return render(request, "tournaments/register.html", {"t": t, "form": form, "game_name": game_name(t.game)})


def _user_by_name(name: str):
    user = get_user_model().objects.filter(username=name).first()
    if user is None:
        raise TournamentError(_("There is no user called %(name)s.") % {"name": name})
    return user


def _user_by_id(value):
    try:
        return get_user_model().objects.get(pk=int(value))
    except (TypeError, ValueError, get_user_model().DoesNotExist):
        raise TournamentError(_("Choose a player.")) from None


DONE = {"drop": gettext_lazy("You have left the tournament."), "rejoin": gettext_lazy("Welcome back."),
        "start": gettext_lazy("The tournament has started; round 1 is paired."),
        "next-round": gettext_lazy("The round is closed and the next one paired."), "bot": gettext_lazy("A bot has joined."),
        "official": gettext_lazy("The official is appointed."), "disqualify": gettext_lazy("The player is disqualified."),
        "sanction": gettext_lazy("The sanction is recorded.")}


@login_required
@require_POST
def tournament_action(request, pk: int, verb: str):
    t = _tournament(pk)
    if verb not in DONE:
        raise Http404("No such action")
    post = request.POST
    try:
        if verb == "drop":
            services.drop(t, request.user)
        elif verb == "rejoin":
            services.rejoin(t, request.user)
        elif verb == "start":
            services.start(t, request.user)
        elif verb == "next-round":
            services.next_round(t, request.user)
        elif verb == "bot":
            services.add_bot(t, request.user, post.get("bot") or None)
        elif verb == "official":
            form = OfficialForm(post)
            if not form.is_valid():
                raise TournamentError(_("Give a user name and a role."))
            services.add_official(t, request.user, _user_by_name(form.cleaned_data["username"]),
                                  form.cleaned_data["role"])
        elif verb in ("disqualify", "sanction"):
            kind = "disqualification" if verb == "disqualify" else post.get("kind", "")
            services.sanction(t, request.user, _user_by_id(post.get("user")), kind, post.get("reason", ""),
                              points=post.get("points") or None)
        messages.success(request, DONE[verb])
    except TournamentError as exc:
        messages.error(request, exc.message)
    return redirect("tournament", pk)


# --- rounds, standings, bracket -------------------------------------------------------------------
def round_page(request, pk: int, n: int):
    t = _tournament(pk)
    ctx = _context(request, t)
    rnd = next((r for r in ctx["field"].rounds if r.number == n), None)
    if rnd is None:
        raise Http404("No such round")
    names = ctx["names"]
    tables = []
    for tb in rnd.tables.all():
        res = tb.result
        tables.append({"tb": tb, "players": [(u, names.get(u, "?")) for u in tb.users],
                       "placements": [names.get(u, "?") for u in res["placements"]] if res else [],
                       "kind": (res or {}).get("kind"), "source": (res or {}).get("source"),
                       "places": range(1, len(tb.users) + 1), "mine": request.user.id in tb.users})
    corrections = [{"c": c, "by": names.get(c.by_id) or c.by.username,
                    "old": [names.get(u, "?") for u in (c.old or {}).get("placements", [])],
                    "new": [names.get(u, "?") for u in c.new.get("placements", [])], "match": c.table.match_id}
                   for c in ResultCorrection.objects.filter(table__round=rnd).select_related("by", "table")]
    ctx.update({"corrections": corrections, "may_correct": rnd.closed and request.user.is_authenticated
                and may_correct(t, request.user)})
    ctx.update({"rnd": rnd, "tables": tables, "byes": [names.get(u, "?") for u in rnd.byes],
                "unpaired": [names.get(u, "?") for u in rnd.unpaired_losses],
                "rounds": [r.number for r in ctx["field"].rounds]})
    return render(request, "tournaments/round.html", ctx)


@login_required
@require_POST
def round_result(request, pk: int, n: int):
    """A judge's result form: place_1 .. place_k hold user ids, best first."""
    t = _tournament(pk)
    try:
        match_id = int(request.POST.get("match", ""))
        count = int(request.POST.get("places", "0"))
        placements = [int(request.POST.get(f"place_{i}", "")) for i in range(1, count + 1)]
    except ValueError:
        messages.error(request, _("Choose a player for every place."))
        return redirect("tournament-round", pk, n)
    try:
        services.set_result(t, request.user, match_id, placements, request.POST.get("modified") == "on",
                            reason=request.POST.get("reason", ""))
        messages.success(request, _("The result is recorded."))
    except TournamentError as exc:
        messages.error(request, exc.message)
    latest = Round.objects.filter(tournament=t).order_by("-number").values_list("number", flat=True).first()
    return redirect("tournament-round", pk, latest or n)


def standings_page(request, pk: int):
    t = _tournament(pk)
    ctx = _context(request, t)
    stage = presenters.standings_stage(t)
    rows = ctx["field"].standings(stage)
    keys = list(rows[0].tiebreakers) if rows else (["sos", "esos"] if t.tiebreakers == "eiserner_thron"
                                                   else ["h2h", "wins", "opp_points"])
    ctx.update({"rows": [{"r": r, "name": ctx["names"].get(r.user, "?"), "tb": [r.tiebreakers[k] for k in keys]}
                         for r in rows],
                "tb_keys": keys, "tb_labels": [TB_LABELS.get(k, k) for k in keys]})
    return render(request, "tournaments/standings.html", ctx)


TB_LABELS = {"sos": gettext_lazy("Strength of schedule"), "esos": gettext_lazy("Extended SoS"), "h2h": gettext_lazy("Head-to-head"),
             "wins": gettext_lazy("Wins"), "opp_points": gettext_lazy("Opponents' points")}


def bracket_page(request, pk: int):
    t = _tournament(pk)
    ctx = _context(request, t)
    ctx["bracket"] = presenters.bracket(ctx["field"])
    for r in ctx["bracket"]:
        for s in r["slots"]:
            s["players"] = [(u, ctx["names"].get(u, "?")) for u in s["users"]]
    return render(request, "tournaments/bracket.html", ctx)


@login_required
def my_tournament_matches(request):
    rows = list(queries.my_tables(request.user)[:LIST_SIZE])
    return render(request, "tournaments/mine.html", {"rows": [
        {"tb": tb, "t": tb.round.tournament, "game_name": game_name(tb.round.tournament.game),
         "my_place": tb.result["placements"].index(request.user.id) + 1
         if tb.result and request.user.id in tb.result["placements"] else None}
        for tb in rows]})
