"""Fills the benchmark database (run with the stack's environment, see bench/stack.py).

    python bench/seed.py matches --matches 500 --players 4 --out FILE
        users with API tokens and sessions, public Alchemist matches started through
        matches.services.start_match; FILE gets each match's id, setup state and seat credentials
        so the load client can mirror every match locally and pick legal moves without asking.
    python bench/seed.py lists --invitations 10000 --my-matches 200 --out FILE
        open invitations and one user ("lister") with many matches, for the list-page latency.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import transaction  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games import registry  # noqa: E402
from matches.services import start_match  # noqa: E402

User = get_user_model()


def make_users(prefix: str, n: int) -> list[dict]:
    """Users with an unusable password (hashing thousands would take minutes), a token and a
    signed-in session each."""
    names = [f"{prefix}{i}" for i in range(n)]
    User.objects.bulk_create([User(username=name, email=f"{name}@example.org", password="!bench") for name in names])
    users = list(User.objects.filter(username__in=names).order_by("id"))
    from accounts.verification import mark_confirmed

    mark_confirmed(users)  # confirmed addresses, as the turn mails need
    tokens = Token.objects.bulk_create([Token(user=u, key=Token.generate_key()) for u in users])
    out = []
    for user, token in zip(users, tokens):
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        out.append({"id": user.pk, "username": user.username, "token": token.key, "session": session.session_key})
    return out


def seed_matches(n: int, players: int, game: str, prefix: str) -> dict:
    plugin = registry.get(game)
    users = make_users(prefix, n * players)
    by_id = {u["id"]: u for u in users}
    objs = {u.pk: u for u in User.objects.filter(pk__in=by_id)}
    matches = []
    for m in range(n):
        group = users[m * players:(m + 1) * players]
        with transaction.atomic():
            match = start_match(game=game, entrants=[{"user": objs[u["id"]], "bot": "", "choices": {}} for u in group],
                                options={}, public=True, seed=1000 + m)
        seats = {s.seat: by_id[s.user_id] for s in match.seats.all()}
        matches.append({"id": match.pk, "game": game, "version": match.version, "state": match.state,
                        "seats": [seats[i] for i in range(players)]})
    del plugin
    return {"matches": matches}


def seed_lists(invitations: int, my_matches: int, prefix: str) -> dict:
    from lobby.models import Entry, Invitation

    hosts = make_users(prefix + "h", 200)
    host_objs = list(User.objects.filter(username__in=[h["username"] for h in hosts]).order_by("id"))
    invs = Invitation.objects.bulk_create([
        Invitation(game="alchemist", host=host_objs[i % len(host_objs)], players=2 + i % 3, options={},
                   seats_taken=1, comment=f"bench {i}") for i in range(invitations)], batch_size=2000)
    Entry.objects.bulk_create([Entry(invitation=inv, user_id=inv.host_id, choices={}) for inv in invs],
                              batch_size=2000)
    lister = make_users(prefix + "lister", 1)[0]
    lister_obj = User.objects.get(pk=lister["id"])
    others = host_objs[:50]
    for m in range(my_matches):
        with transaction.atomic():
            start_match(game="alchemist", entrants=[{"user": lister_obj, "bot": "", "choices": {}},
                                                    {"user": others[m % len(others)], "bot": "", "choices": {}}],
                        options={}, public=True, seed=5000 + m)
    _analyze()
    return {"lister": lister, "invitations": invitations, "my_matches": my_matches}


def _analyze() -> None:
    """Planner statistics for the freshly bulk-loaded tables, as a live database has them
    (autovacuum gathers them about a minute later): without them PostgreSQL guessed 6 open
    invitations and read and sorted all 10,000 for a 200-row page (9 ms instead of 0.7 ms)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["matches", "lists"])
    ap.add_argument("--matches", type=int, default=500)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="alchemist")
    ap.add_argument("--invitations", type=int, default=10_000)
    ap.add_argument("--my-matches", type=int, default=200)
    ap.add_argument("--prefix", default="b")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.what == "matches":
        data = seed_matches(args.matches, args.players, args.game, args.prefix)
    else:
        data = seed_lists(args.invitations, args.my_matches, args.prefix)
    Path(args.out).write_text(json.dumps(data))


if __name__ == "__main__":
    main()
