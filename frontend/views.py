"""The web pages. Thin: parse the request, call a service, render. Business rules live in
lobby.services and matches.services; what a viewer may see in matches.presenters."""
from __future__ import annotations

import json
import time
from contextvars import ContextVar

from games.textnum import small_int

from django.apps import apps
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import registry
from games.base import IllegalAction
from lobby import queries as lobby_queries
from lobby import services as lobby
from lobby.errors import LobbyError
from lobby.models import Invitation
from matches import chat, orders as match_orders, presenters, queries as match_queries, services as match_services
from matches.errors import MatchError, NoSuchMatch
from matches.models import LogEntry, Match, Seat

from . import days, live_lists, table_orders
from .boards import board_assets, board_context
from .table_extras import table_extras
from .forms import ChatForm, InvitationForm, JoinForm, LobbyFilterForm, invitation_hooks

LOBBY_PAGE_SIZE = 50


def _lang() -> str:
    return (translation.get_language() or "en")[:2]


def _plugin_or_404(slug: str):
    try:
        return registry.get(slug)
    except KeyError:
        raise Http404("No such game") from None


def game_name(slug: str, lang: str) -> str:
    meta = registry.get(slug).meta
    return meta.name_de if lang == "de" else meta.name_en


# --- lobby ----------------------------------------------------------------------------------
def lobby_page(request):
    lang = _lang()
    games = list(registry.plugins().values())
    form = LobbyFilterForm(games, lang, request.GET or None)
    filters = {}
    if form.is_valid():
        filters = {"game": form.cleaned_data.get("game") or "", "players": form.cleaned_data.get("players"),
                   "host": form.cleaned_data.get("host") or "", "options": form.option_filters()}
    invitations = list(lobby_queries.open_invitations(request.user, **filters)[:LOBBY_PAGE_SIZE])
    mine = set()
    if request.user.is_authenticated:
        mine = {i.pk for i in invitations if any(e.user_id == request.user.id for e in i.entries.all())}
    rows = [{"inv": i, "game_name": game_name(i.game, lang), "joined": i.pk in mine,
             "options": _option_labels(i, lang)} for i in invitations]
    from lobby.substitutes import open_offers  # "substitute wanted" (frontend/rematch_views.py)

    offers = [{"offer": o, "game_name": game_name(o.match.game, lang),
               "players": [s.name for s in o.match.seats.all() if s.seat != o.seat]}
              for o in open_offers(request.user)[:LOBBY_PAGE_SIZE]]
    part = {"rows": rows, "offers": offers}
    if live_lists.is_poll(request):
        return live_lists.answer_poll(request, "frontend/lobby_list.html", part)
    live_part = mark_safe(live_lists.render_part(request, "frontend/lobby_list.html", part)[0])
    return render(request, "frontend/lobby.html", {"form": form, "games": games, "live_part": live_part})


def _option_labels(invitation: Invitation, lang: str) -> list[str]:
    meta = registry.get(invitation.game).meta
    labels = []
    for opt in meta.options:
        value = invitation.options.get(opt.key, opt.default)
        if value == opt.default:
            continue
        label = opt.label_de if lang == "de" else opt.label_en
        labels.append(label if opt.kind == "bool" else f"{label}: {value}")
    return labels


@login_required
def invitation_new(request, game: str | None = None):
    if game is None:
        return render(request, "frontend/invitation_pick_game.html", {"games": registry.plugins().values()})
    plugin = _plugin_or_404(game)
    form = InvitationForm(plugin, request.user.id, _lang(), request.POST or None)
    if request.method == "POST" and form.is_valid():
        bots = [plugin.default_bot_name()] * (form.cleaned_data["bots"] or 0)
        try:
            with transaction.atomic():  # the apps' settings (invitation_hooks) belong to the invitation
                invitation = lobby.create_invitation(
                    request.user, game=game, players=form.cleaned_data["players"], options=form.options(),
                    move_days=form.cleaned_data["move_days"], private=form.cleaned_data["private"],
                    invitees=form.invitee_names(), choices=form.choices(), bots=bots,
                    comment=form.cleaned_data["comment"],
                    substitute_hours=24 if form.cleaned_data["substitute_hours"] is None
                    else form.cleaned_data["substitute_hours"])
                for hooks in invitation_hooks():
                    hooks.save(invitation, form.cleaned_data)
        except LobbyError as exc:
            form.add_error(None, exc.message)
        else:
            if invitation.match_id:
                return redirect("match", invitation.match_id)
            messages.success(request, _("Your invitation is open. The game starts when all seats are taken."))
            return redirect("invitation", invitation.pk)
    return render(request, "frontend/invitation_new.html", {"form": form, "plugin": plugin,
                                                            "game_name": game_name(game, _lang())})


def invitation_page(request, pk: int):
    invitation = Invitation.objects.select_related("host").filter(pk=pk).first()
    if invitation is None or not lobby.may_see(invitation, request.user):
        if not request.user.is_authenticated:
            # The invitee following the mail's link while logged out: log in first. Missing and
            # private invitations answer alike, so this tells a stranger nothing.
            return redirect_to_login(request.get_full_path())
        raise Http404("No such invitation")
    if invitation.match_id:
        return redirect("match", invitation.match_id)
    plugin = registry.get(invitation.game)
    entries = list(invitation.entries.select_related("user"))
    joined = request.user.is_authenticated and any(e.user_id == request.user.id for e in entries)
    join_form = JoinForm(plugin, request.user.id, _lang()) if request.user.is_authenticated else None
    may_decline = (request.user.is_authenticated and not joined and invitation.host_id != request.user.id
                   and invitation.invitees.filter(pk=request.user.pk).exists()
                   and not invitation.declined.filter(pk=request.user.pk).exists())
    return render(request, "frontend/invitation.html", {
        "inv": invitation, "entries": entries, "joined": joined, "join_form": join_form, "may_decline": may_decline,
        "poll": joined and invitation.status == Invitation.Status.OPEN, "free_seats": range(invitation.seats_free),
        "game_name": game_name(invitation.game, _lang()), "options": _option_labels(invitation, _lang())})


def invitation_status(request, pk: int):
    """Polled by a waiting player's invitation page: 204 while open; once the match has
    started, htmx follows the HX-Redirect header into it."""
    row = Invitation.objects.filter(pk=pk).values_list("match_id", "match__public").first()
    match_id, public = row or (None, False)
    if not match_id:
        return HttpResponse(status=204)
    if not public and not (request.user.is_authenticated
                           and Seat.objects.filter(match_id=match_id, user=request.user).exists()):
        return HttpResponse(status=204)  # a private match's id only to its players: else as if open
    response = HttpResponse(status=200)
    response["HX-Redirect"] = reverse("match", args=[match_id])
    return response


def invitation_seats(request, pk: int):
    """The seat list of a waiting player's invitation page, fetched after a websocket frame or
    every few seconds: 204 while ``taken`` is still the count; once the match has started,
    htmx follows HX-Redirect into it."""
    invitation = Invitation.objects.filter(pk=pk).only("id", "match_id", "seats_taken", "private", "host_id",
                                                       "players", "status").first()
    if invitation is None or not lobby.may_see(invitation, request.user):
        raise Http404("No such invitation")
    if invitation.match_id or invitation.status == Invitation.Status.CANCELLED:
        # Started: into the match. Withdrawn: the invitation page says so (and stops polling).
        response = HttpResponse(status=200)
        response["HX-Redirect"] = (reverse("match", args=[invitation.match_id]) if invitation.match_id
                                   else reverse("invitation", args=[pk]))
        return response
    if request.GET.get("taken") == str(invitation.seats_taken):
        return HttpResponse(status=204)
    entries = list(invitation.entries.select_related("user"))
    joined = any(e.user_id == request.user.id for e in entries) if request.user.is_authenticated else False
    return render(request, "frontend/invitation_seats.html", {
        "inv": invitation, "entries": entries, "free_seats": range(invitation.seats_free),
        "poll": joined and invitation.status == Invitation.Status.OPEN})


@login_required
@require_POST
def invitation_action(request, pk: int, verb: str):
    invitation = get_object_or_404(Invitation, pk=pk)
    if not lobby.may_see(invitation, request.user):
        raise Http404("No such invitation")  # a stranger's private invitation: as if missing
    try:
        if verb == "join":
            form = JoinForm(registry.get(invitation.game), request.user.id, _lang(), request.POST)
            if not form.is_valid():
                messages.error(request, _("Please check your choices."))
                return redirect("invitation", pk)
            invitation = lobby.join(pk, request.user, form.choices())
            if invitation.match_id:
                return redirect("match", invitation.match_id)
            messages.success(request, _("You have joined. The game starts when all seats are taken."))
        elif verb == "leave":
            lobby.leave(pk, request.user)
            messages.success(request, _("You have left the invitation."))
            return redirect("lobby")
        elif verb == "decline":
            lobby.decline(pk, request.user)
            messages.success(request, _("You have declined the invitation; the host has been told."))
            return redirect("my-games")
        elif verb == "cancel":
            lobby.cancel(pk, request.user)
            messages.success(request, _("The invitation has been cancelled."))
            return redirect("lobby")
        else:
            raise Http404()
    except LobbyError as exc:
        if exc.status == 404:
            raise Http404("No such invitation") from None
        messages.error(request, exc.message)
        if exc.status == 403:
            # The invitation page may be a 404 for this user (private), which shows no messages:
            # the message would then pop up, stale, on some later page. The lobby shows it now.
            return redirect("lobby")
    return redirect("invitation", pk)


# --- my games -----------------------------------------------------------------------------------
@login_required
def my_games(request):
    lang = _lang()
    rows = [{**row, "game_name": game_name(row["game"], lang)} for row in match_queries.my_games_rows(request.user)]
    waiting = list(lobby_queries.open_invitations(request.user).filter(entries__user=request.user)[:50])
    invited = [{"inv": i, "game_name": game_name(i.game, lang), "options": _option_labels(i, lang)}
               for i in lobby_queries.invited_to(request.user)[:50]]
    part = {"rows": rows, "waiting": [{"inv": i, "game_name": game_name(i.game, lang)} for i in waiting],
            "invited": invited}
    if live_lists.is_poll(request):
        return live_lists.answer_poll(request, "frontend/my_games_list.html", part)
    live_part = mark_safe(live_lists.render_part(request, "frontend/my_games_list.html", part)[0])
    return render(request, "frontend/my_games.html", {"live_part": live_part})


def _next_game_order(user) -> str:
    """The user's choice for "Next game" (notification settings): least time left by default."""
    if not apps.is_installed("notifications"):
        return "deadline"
    from notifications.models import Preference  # a feature app, maybe absent

    return Preference.objects.filter(user=user).values_list("next_game", flat=True).first() or "deadline"


@login_required
def next_game(request):
    match = match_queries.next_match_for(request.user, order=_next_game_order(request.user))
    if match is None:
        messages.info(request, _("No game is waiting for your move."))
        return redirect("my-games")
    return redirect("match", match.pk)


def game_rules(request, game: str):
    """The rules of one game, in the active language (German or English); a game without a
    rules page yet shows its summary."""
    meta = _plugin_or_404(game).meta
    lang = _lang()
    return render(request, "frontend/rules.html", {
        "slug": game, "lang": lang, "game_name": game_name(game, lang),
        "summary": meta.summary_de if lang == "de" else meta.summary_en,
        "rules_template": _plugin_or_404(game).rules_template(lang) or ""})


# --- the game page -------------------------------------------------------------------------------
def _match_context(request, pk: int, as_user=None) -> dict:
    """The game page's context as ``as_user`` (default: the request's user) sees it; the hot-seat
    table (``authoring``) shows each seat through it as ``match_context``."""
    match = get_object_or_404(Match, pk=pk)
    seats = list(match.seats.select_related("user"))
    seat = presenters.seat_for(seats, as_user or request.user)
    if not presenters.can_watch(match, seat):
        raise Http404("No such match")
    plugin = registry.get(match.game)
    lang = _lang()
    viewer = seat.seat if seat else None
    view = plugin.engine.view(match.state, viewer)
    legal = []
    if seat is not None and viewer in match.to_move and match.status == Match.Status.ACTIVE and not seat.resigned:
        legal = plugin.engine.legal_actions(match.state, viewer)
    names = presenters.seat_names(seats)
    entries = list(LogEntry.objects.filter(match=match).order_by("-seq")[:200])[::-1]
    log = presenters.log_lines(plugin, match, entries, viewer, lang, names)
    last = entries[-1] if entries else None
    can_undo = bool(seat and last and last.kind == LogEntry.Kind.ACTION and not last.undone
                    and last.seat == viewer and not last.reveals and match.status == Match.Status.ACTIVE)
    # shown beside the disabled "Take back" (the same words the refusal in services.undo uses)
    undo_reason = "" if can_undo else (
        _("This move is final: it revealed hidden information, used chance, or may not be taken back by the rules.")
        if seat and last and last.kind == LogEntry.Kind.ACTION and last.seat == viewer and last.reveals
        else _("Only your own last move can be taken back, and only before anyone else acts."))
    context = {
        "match": match, "seats": seats, "seat": viewer, "my_seat": seat, "view": view, "legal": legal,
        "lang": lang, "log": log, "names": names, "version": match.version, "can_undo": can_undo,
        "undo_reason": undo_reason,
        "act_url": reverse("match-act", args=[match.pk]), "plugin": plugin,
        "board_template": plugin.board_template, "game_name": game_name(match.game, lang),
        **board_assets(plugin),
        "rules_url": reverse("game-rules", args=[match.game]),
        "placements": _placements(match, names),
        # a game-time limit (Der Orden's deadline_days) ends the match by the tie-break then
        "time_limit_at": match_services.time_limit_ends_at(match, plugin)
        if match.status == Match.Status.ACTIVE else None,
    }
    context.update(_last_move(plugin, match, entries, log, view, viewer))
    context["log_html"] = _log_html(log, context["last_move"])
    context["recap"] = _recap(log, viewer)
    board_legal, context["board_act_url"] = legal, context["act_url"]
    if seat is not None and match.status == Match.Status.ACTIVE and not seat.resigned and not seat.bot:
        # The seat's own orders; while it waits, "Queue a move" shows the board's move forms
        # for the moves the game offers in advance, posting to "queue" instead of "act".
        context.update(table_orders.context(match, seat, plugin, lang, waiting=viewer not in match.to_move,
                                            queue_requested=request.GET.get("queue") == "1"))
        if context["queue_mode"]:
            board_legal, context["board_act_url"] = context["premove_legal"], context["queue_url"]
        context["orders_open"] = getattr(request, "orders_changed", False)  # the answer shows what changed
    context["board_legal"] = board_legal
    context.update(board_context(plugin, context, view, viewer, board_legal, lang,
                                 hl=context["hl"] if plugin.board_context_takes_highlights else None))
    context["clocks"] = _clocks(match, seats, actor=last.seat if last and last.seq == match.version and last.kind in (
        LogEntry.Kind.ACTION, LogEntry.Kind.UNDO) else None)
    context["strip"] = _strip(seats, match, context)
    from .rematch_views import after_match_context  # rematch button, seats waiting for a substitute

    context.update(after_match_context(match, seats, seat))
    context.update(table_extras(match, seat, legal, lang))  # feature apps' parts (the guide's hints)
    return context


match_context = _match_context  # for feature apps: the authors' hot-seat table


def _last_move(plugin, match: Match, entries: list, log: list[dict], view: dict, viewer) -> dict:
    """The newest log line that is not taken back, and what it changed on the board (``hl``, the
    plugin's ``highlights`` of the events this viewer may see), so a returning player sees it."""
    for entry, line in zip(reversed(entries), reversed(log)):
        if entry.undone or entry.kind == LogEntry.Kind.UNDO:
            continue
        finished = match.status != Match.Status.ACTIVE
        events = [e for e in entry.events or [] if presenters.event_visible(e, viewer, finished)]
        hl = plugin.highlights(events, view) if entry.kind == LogEntry.Kind.ACTION else {}
        return {"last_move": line, "hl": hl or {}}
    return {"last_move": None, "hl": {}}


def _log_html(log: list[dict], last_move: dict | None) -> str:
    """The game log's lines, newest first, as match_live_inner.html printed them from its loop
    (up to 200 lines in every render after every move: built here, escaped, in one pass)."""
    last_seq = last_move["seq"] if last_move else None
    out = []
    for i, line in enumerate(reversed(log)):
        if line["texts"]:  # entries with nothing this viewer may see (a hidden deal) make no empty line
            cls = (' class="undone"' if line["undone"] else ' class="is-last"' if i == 0 and line["seq"] == last_seq
                   else "")
            texts = "<br>".join(conditional_escape(t) for t in line["texts"])
            out.append(f'\n        <li data-seq="{line["seq"]}"{cls}>{texts}</li>')
        out.append("\n      ")
    return mark_safe("".join(out))


def _recap(log: list[dict], viewer) -> list[dict]:
    """The others' lines since the viewer's last move (replays' recap), if that app is there."""
    if not apps.is_installed("replays"):
        return []
    from replays.history import recap  # a feature app, maybe absent

    return recap(log, viewer)


# A socket server renders the live part for each of a match's open pages after a change
# (live_push.render_part sets this): the clocks are the same for every viewer of a version, so
# those renders share one read of them (4 statements, ~10 ms) for a moment.
shared_reads: ContextVar[bool] = ContextVar("shared_reads", default=False)
SHARED_CLOCKS_S = 2.0
_shared_clocks: dict[tuple, tuple[float, dict | None]] = {}


def _clocks(match: Match, seats: list, actor: int | None) -> dict | None:
    """``actor``: the seat whose action made the match's version (None: none)."""
    if not apps.is_installed("clocks"):
        return None
    from clocks.presenters import match_clocks  # a feature app, maybe absent

    if not shared_reads.get():
        return match_clocks(match, seats, actor=actor)
    key, now = (match.pk, match.version, match.status), time.monotonic()
    hit = _shared_clocks.get(key)
    if hit is not None and now - hit[0] < SHARED_CLOCKS_S:
        return hit[1]
    clocks = match_clocks(match, seats, actor=actor)
    if len(_shared_clocks) >= 256:
        _shared_clocks.clear()
    _shared_clocks[key] = (now, clocks)
    return clocks


def _strip(seats: list, match: Match, context: dict) -> list[dict]:
    """The compact players strip: name, the game's short score line (``seat_summaries`` from the
    plugin's board context), whose turn, clock; details (``seat_details``) on demand."""
    summaries = context.get("seat_summaries") or []
    details = context.get("seat_details") or []
    clocks = {row["seat"]: row for row in (context["clocks"] or {}).get("rows", [])}
    profiles = apps.is_installed("community")
    active = match.status == Match.Status.ACTIVE
    rows = []
    for s in sorted(seats, key=lambda s: s.seat):
        rows.append({
            "seat": s.seat, "name": s.name, "me": s.seat == context["seat"],
            "to_move": active and s.seat in match.to_move, "resigned": s.resigned,
            "summary": summaries[s.seat] if s.seat < len(summaries) else "",
            "details": details[s.seat] if s.seat < len(details) else [],
            "clock": clocks.get(s.seat) or {},
            "profile_url": reverse("user-profile", args=[s.user.username]) if profiles and s.user_id else "",
        })
    return rows


def _placements(match: Match, names: list[str]) -> list[dict]:
    if not match.outcome:
        return []
    return [{"place": p["place"], "name": names[p["seat"]], "score": p.get("score"),
             "resigned": p.get("resigned", False)}
            for p in sorted(match.outcome["placements"], key=lambda p: p["place"])]


def match_page(request, pk: int):
    context = _match_context(request, pk)
    if context["my_seat"] is not None and apps.is_installed("notifications"):
        # Opening a match reads its notifications; before rendering, so the bell agrees.
        from notifications.services import mark_match_read  # a feature app, maybe absent

        mark_match_read(request.user, pk)
    context["full_page"] = True  # base.html shows the messages of a full page load
    # the chat is the full page's only (the live part, re-rendered after every move, has none)
    context["chat"] = list(context["match"].chat.select_related("user").order_by("-pk")[:50])[::-1]
    context["chat_form"] = ChatForm()
    context.update(days.page_context(request, context))  # notes, notification setting, unread chat
    return render(request, "frontend/match.html", context)


def match_board(request, pk: int):
    """The live part of the game page (board, moves, log), fetched by htmx after a push or a poll.
    Answers 204 when the client already shows ``version``, so polling costs almost nothing."""
    known = request.GET.get("version")
    if small_int(known) is not None:
        # Still one query, but only for a match this user may watch: a 204 would otherwise
        # tell a stranger a private match's version.
        watchable = Q(public=True) | Q(seats__user=request.user) if request.user.is_authenticated else Q(public=True)
        current = Match.objects.filter(watchable, pk=pk).values_list("version", flat=True).first()
        if current is not None and small_int(known) == current:
            return HttpResponse(status=204)
    return render(request, "frontend/match_live.html", _match_context(request, pk))


@require_POST
def match_act(request, pk: int):
    if not request.user.is_authenticated:
        return redirect(f"{reverse('login')}?next={reverse('match', args=[pk])}")
    match = get_object_or_404(Match.objects.only("id", "game", "public"), pk=pk)
    if not match.public and not Seat.objects.filter(match=match, user=request.user).exists():
        # before the form is read: a stranger's private match answers as if missing, whatever he sent
        raise Http404("No such match")
    plugin = registry.get(match.game)
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    status = 200
    try:
        action = plugin.action_from_form(request.POST.dict())
        match_services.submit_action(pk, request.user, action, version)
    except NoSuchMatch:
        raise Http404("No such match") from None  # a stranger's private match: as if missing
    except IllegalAction as exc:
        messages.error(request, exc.reason_de if _lang() == "de" else exc.reason)
        status = 400
    except MatchError as exc:
        reason = exc.extra.get("reason_de") if _lang() == "de" else None
        messages.error(request, reason or _translate_error(exc))
        status = exc.status
    return _back_to_match(request, pk, status)


def _translate_error(exc: MatchError) -> str:
    """The services word their refusals in the active language already; only a stale version
    reads differently on the page, which shows the current position instead of a version number."""
    if exc.code == "stale_version":
        return _("The game has changed meanwhile. Here is the current position; please try again.")
    return exc.message


def _back_to_match(request, pk: int, status: int = 200):
    """htmx: the live part in place (a refusal keeps its 4xx status; table.js swaps it so the
    message shows beside the board). Without JavaScript: back to the page (post/redirect/get)."""
    if request.htmx:
        return render(request, "frontend/match_live.html", _match_context(request, pk), status=status)
    return redirect("match", pk)


@login_required
@require_POST
def match_orders_queue(request, pk: int):
    """Queue a premove: the board's move form (in queue mode) posts here instead of "act"."""
    match = _watchable_or_404(request, pk)
    try:
        action = registry.get(match.game).action_from_form(request.POST.dict())
    except IllegalAction as exc:
        messages.error(request, exc.reason_de if _lang() == "de" else exc.reason)
        return _back_to_match(request, pk, 400)
    return _change_orders(request, pk, lambda current: current + [{"kind": match_orders.PREMOVE, "action": action}],
                          _("Move queued: it is played when your turn comes, if it is still legal then."))


def _watchable_or_404(request, pk: int) -> Match:
    """The match if the requester may watch it; a private match answers a stranger with the
    very 404 of a missing one (before the form is read: its refusal would tell it exists)."""
    match = Match.objects.only("id", "game", "public").filter(pk=pk).first()
    if match is None or (not match.public and not (
            request.user.is_authenticated and match.seats.filter(user=request.user).exists())):
        raise Http404("No such match")
    return match


def _change_orders(request, pk: int, edit, success: str | None = None):
    """Apply ``edit`` to the seat's orders and answer with the table (a refusal: its status)."""
    request.orders_changed = True
    try:
        match_orders.change(pk, request.user, edit)
    except NoSuchMatch:
        raise Http404("No such match") from None
    except MatchError as exc:
        messages.error(request, exc.message)
        return _back_to_match(request, pk, exc.status)
    if success:
        messages.success(request, success)
    return _back_to_match(request, pk)


@login_required
@require_POST
def match_orders_cancel(request, pk: int):
    """Cancel one queued move (``index`` into the seat's orders; an index that moved on since
    the page was drawn cancels nothing rather than the wrong move: ``action`` must match)."""
    index, shown = _int(request.POST.get("index")), request.POST.get("action", "")

    def edit(current):
        if index is not None and 0 <= index < len(current) and json.dumps(current[index].get("action"), sort_keys=True) == shown:
            return current[:index] + current[index + 1:]
        return current
    return _change_orders(request, pk, edit)


@login_required
@require_POST
def match_orders_set(request, pk: int):
    """Set (or remove) the seat's order of one game-declared kind from its generated form."""
    match = _watchable_or_404(request, pk)
    try:
        kind, order = table_orders.order_from_form(registry.get(match.game), request.POST.dict())
    except MatchError as exc:
        messages.error(request, exc.message)
        return _back_to_match(request, pk, exc.status)
    return _change_orders(request, pk, lambda current: [o for o in current if o.get("kind") != kind]
                          + ([order] if order else []), _("Your orders are saved.") if order else _("Order removed."))


@login_required
@require_POST
def match_undo(request, pk: int):
    try:
        match_services.undo(pk, request.user, _int(request.POST.get("version")))
    except NoSuchMatch:
        raise Http404("No such match") from None
    except MatchError as exc:
        messages.error(request, _translate_error(exc))
        return _back_to_match(request, pk, exc.status)
    return _back_to_match(request, pk)


@login_required
@require_POST
def match_resign(request, pk: int):
    try:
        match_services.resign(pk, request.user)
        messages.info(request, _("You have left the match."))
    except NoSuchMatch:
        raise Http404("No such match") from None
    except MatchError as exc:
        messages.error(request, _translate_error(exc))
    return redirect("match", pk)


@login_required
@require_POST
def match_chat(request, pk: int):
    form = ChatForm(request.POST)
    error = ""
    try:
        if form.is_valid():
            chat.post(pk, request.user, form.cleaned_data["text"])
        else:
            error = _("A chat message needs 1 to 500 characters.")
    except MatchError as exc:
        error = exc.message
    if request.htmx:
        # The error goes into the chat part itself: a flash message would not show in this
        # fragment and would pop up, stale, on some later page.
        match = get_object_or_404(Match, pk=pk)
        seats = list(match.seats.all())
        my_seat = presenters.seat_for(seats, request.user)
        if not presenters.can_watch(match, my_seat):
            raise Http404("No such match")  # the chat of a private match is for its players only
        return render(request, "frontend/chat.html", {
            "match": match, "chat": list(match.chat.select_related("user").order_by("-pk")[:50])[::-1],
            "chat_form": ChatForm(initial={"text": request.POST.get("text", "")[:500]} if error else None),
            "chat_error": error, "my_seat": my_seat, "seats": seats})  # 200: htmx swaps no 4xx
    if error:
        messages.error(request, error)
    return redirect("match", pk)


def _int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
