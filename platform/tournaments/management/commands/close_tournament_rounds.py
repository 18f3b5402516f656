"""Close tournament rounds whose deadline has passed (what Celery beat does periodically).
``--now`` pretends another time (ISO 8601), e.g. to run a round's deadline in a test."""
from django.core.management.base import BaseCommand, CommandError
from django.utils.dateparse import parse_datetime

from tournaments.services import close_due_rounds


class Command(BaseCommand):
    help = "Close tournament rounds past their deadline and pair the next rounds."

    def add_arguments(self, parser):
        parser.add_argument("--now", help="ISO 8601 date-time to use as the current time")

    def handle(self, *args, now=None, **options):
        when = None
        if now:
            when = parse_datetime(now)
            if when is None or when.tzinfo is None:
                raise CommandError("--now needs an ISO 8601 date-time with a time zone, e.g. 2030-01-01T12:00:00+00:00")
        closed = close_due_rounds(when)
        self.stdout.write(f"{closed} round(s) closed")
