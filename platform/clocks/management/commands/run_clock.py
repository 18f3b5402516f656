from django.core.management.base import BaseCommand

from clocks import conf
from clocks.scheduler import run_forever, run_once


class Command(BaseCommand):
    help = "Run the periodic jobs (clock sweep, notification flush, digests) without Celery beat."

    def add_arguments(self, parser):
        parser.add_argument("--interval", type=float, default=conf.SWEEP_SECONDS)
        parser.add_argument("--once", action="store_true", help="run once and exit")

    def handle(self, *args, interval, once, **options):
        if once:
            self.stdout.write(str(run_once()))
            return
        self.stdout.write(f"running the periodic jobs every {interval:.0f} s (Ctrl-C stops)")
        run_forever(interval)
