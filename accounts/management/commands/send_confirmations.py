"""Mails a confirmation link to every active account whose address is not confirmed yet: run
once after deploying e-mail confirmation, since accounts made before it have no confirmed address and get
no notification mail until their owners open the link (push and the site go on meanwhile)."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts import verification


class Command(BaseCommand):
    help = "Mail confirmation links to active accounts with an unconfirmed e-mail address."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="only count them")

    def handle(self, *args, dry_run=False, **options):
        sent = 0
        users = get_user_model().objects.filter(is_active=True).exclude(email="").select_related("profile")
        for user in users.iterator(chunk_size=500):
            if verification.is_verified(user):
                continue
            if not dry_run:
                with transaction.atomic():
                    verification.send_confirmation(user)
            sent += 1
        self.stdout.write(f"{'would mail' if dry_run else 'mailed'} {sent} confirmation link(s)")
