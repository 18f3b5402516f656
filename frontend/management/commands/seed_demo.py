"""Demo data: a few users with known passwords, open invitations, matches in progress.

Idempotent: running it again changes nothing once the demo users exist.
"""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import registry
from games.rng import Rng
from lobby import services as lobby
from matches import services as matches

PASSWORD = "spieltisch"
USERS = [("alice", "en"), ("bob", "de"), ("carol", "en"), ("dieter", "de")]


class Command(BaseCommand):
    help = "Create demo users (password 'spieltisch'), open invitations and matches in progress."

    def handle(self, *args, **options):
        User = get_user_model()
        if User.objects.filter(username="alice").exists():
            self.stdout.write("Demo data exists already.")
            return
        with transaction.atomic():
            users = {}
            for name, lang in USERS:
                user = User.objects.create_user(name, f"{name}@example.org", PASSWORD)
                user.profile.language = lang
                user.profile.display_name = name.capitalize()
                user.profile.save()
                users[name] = user
            rng = Rng(2026)
            for slug, plugin in registry.plugins().items():
                meta = plugin.meta
                # An open invitation per game and player count, hosted by different people.
                flags = [o.key for o in meta.options if o.kind == "bool"]
                for i, players in enumerate(range(meta.min_players, meta.max_players + 1)):
                    host = users[USERS[i % len(USERS)][0]]
                    # every other invitation turns the game's first yes/no option on
                    options = {flags[0]: True} if flags and i % 2 else {}
                    lobby.create_invitation(host, game=slug, players=players, move_days=3,
                                            options=options, comment="Demo")
                # A match in progress between alice and bob, a few moves in.
                inv = lobby.create_invitation(users["alice"], game=slug, players=meta.min_players)
                for name in ("bob", "carol", "dieter")[: meta.min_players - 1]:
                    inv = lobby.join(inv.pk, users[name])
                self._play_some(inv.match_id, rng, moves=6)
                # and one with every seat filled, further along
                if meta.max_players > meta.min_players:
                    inv = lobby.create_invitation(users["carol"], game=slug, players=meta.min_players + 1)
                    for name in ("alice", "bob", "dieter")[: meta.min_players]:
                        inv = lobby.join(inv.pk, users[name])
                    self._play_some(inv.match_id, rng, moves=12)
        self.stdout.write(self.style.SUCCESS(
            f"Demo users: {', '.join(n for n, _ in USERS)} (password '{PASSWORD}')."))

    def _play_some(self, match_id, rng, moves):
        from matches.models import Match

        for _ in range(moves):
            match = Match.objects.get(pk=match_id)
            if match.status != "active":
                return
            seat_no = match.to_move[0]
            seat = match.seats.select_related("user").get(seat=seat_no)
            action = matches.bot_action(matches.plugin_for(match), "random", match.state, seat_no, rng)
            matches.submit_action(match_id, seat.user, action, match.version)
