"""A person's data as JSON (GDPR Art. 20; contract "Accounts": ``GET /api/account/export/``).

Matches come with their logs as the person may see them (the same presenter as the API's log:
others' hidden moves stay hidden while the match runs). Optional apps add their part when
installed. Rare and per person: clarity over query counts.
"""
from __future__ import annotations

from django.apps import apps
from django.utils import timezone

from games import registry
from matches import orders as match_orders, presenters
from matches.models import ChatMessage, LogEntry, Seat, SeatNote


def _iso(value):
    return value.isoformat() if value else None


def export(user, lang: str = "en") -> dict:
    profile = user.profile
    data = {
        "exported_at": _iso(timezone.now()),
        "profile": {"username": user.username, "email": user.email, "email_confirmed": profile.email_verified,
                    "display_name": profile.display_name, "language": profile.language,
                    "timezone": profile.timezone, "date_joined": _iso(user.date_joined),
                    "last_login": _iso(user.last_login)},
        "matches": _matches(user, lang),
        "chat": [{"match": m.match_id, "text": m.text, "at": _iso(m.at)}
                 for m in ChatMessage.objects.filter(user=user).order_by("at", "id")],
        # A person's own, also of a match they left (another holds the seat now).
        "notes": [{"match": n.match_id, "text": n.text, "updated_at": _iso(n.updated_at)}
                  for n in SeatNote.objects.filter(user=user).order_by("match_id")],
        "orders": match_orders.of_user(user),
        "notification_settings": _notification_settings(user),
    }
    if apps.is_installed("community"):
        from community.models import Block, Friendship

        data["friends"] = list(Friendship.objects.filter(user=user).values_list("friend__username", flat=True))
        data["blocked"] = list(Block.objects.filter(user=user).values_list("blocked__username", flat=True))
    if apps.is_installed("ratings"):
        from ratings.models import Rating

        data["ratings"] = [{"game": r.game, "rating": r.shown, "games": r.games, "wins": r.wins}
                           for r in Rating.objects.filter(user=user).order_by("game")]
    if apps.is_installed("tournaments"):
        from tournaments.models import Entrant

        data["tournaments"] = [{"tournament": e.tournament_id, "name": e.tournament.name, "status": e.status,
                                "registered_at": _iso(e.registered_at)}
                               for e in Entrant.objects.filter(user=user).select_related("tournament")]
    if apps.is_installed("moderation"):
        from moderation.models import Report

        data["reports_made"] = [{"user": r.reported.username if r.reported_id else None, "match": r.match_id,
                                 "reason": r.reason, "at": _iso(r.created_at)}
                                for r in Report.objects.filter(reporter=user).select_related("reported")]
    games_data = _declared_rows(user)
    if games_data:
        data["games"] = games_data
    return data


def _declared_rows(user) -> dict:
    """The rows installed apps declare as the person's (``AppConfig.personal_data``: a game's
    saved decks, ...), as ``{app label: {model: [row, ...]}}``; dates as ISO text."""
    from django.db.models import Q

    out: dict = {}
    for cfg in apps.get_app_configs():
        for model_name, lookups in (getattr(cfg, "personal_data", None) or {}).items():
            model = cfg.get_model(model_name)
            query = Q()
            for lookup in lookups:
                query |= Q(**{lookup: user})
            rows = [{k: (_iso(v) if hasattr(v, "isoformat") else v) for k, v in row.items()}
                    for row in model.objects.filter(query).order_by("pk").values()]
            out.setdefault(cfg.label, {})[model_name] = rows
    return out


def _matches(user, lang: str) -> list[dict]:
    out = []
    seats = Seat.objects.filter(user=user).select_related("match").order_by("match_id")
    for own in seats:
        match = own.match
        plugin = registry.get(match.game)
        all_seats = list(Seat.objects.filter(match=match).select_related("user").order_by("seat"))
        names = presenters.seat_names(all_seats)
        entries = LogEntry.objects.filter(match=match).order_by("seq")
        out.append({
            "id": match.pk, "game": match.game, "status": match.status, "created_at": _iso(match.created_at),
            "seat": own.seat, "place": own.place, "score": own.score, "players": names,
            "log": presenters.api_log(match, entries, own.seat, plugin, lang, names),
        })
    return out


def _notification_settings(user) -> dict | None:
    if not apps.is_installed("notifications"):
        return None
    from notifications.models import Preference, PushSubscription

    pref = Preference.objects.filter(user=user).first() or Preference(user=user)
    return {"channels": pref.channels, "digest": pref.digest, "digest_hour": pref.digest_hour,
            "quiet_start": pref.quiet_start.isoformat() if pref.quiet_start else None,
            "quiet_end": pref.quiet_end.isoformat() if pref.quiet_end else None,
            "next_game": pref.next_game,
            "push_subscriptions": [{"user_agent": s.user_agent, "created_at": _iso(s.created_at)}
                                   for s in PushSubscription.objects.filter(user=user)]}
