"""Background bookkeeping (ratings, statistics) must never hold up the writers that matter:
on PostgreSQL its transactions give up a lock wait after a short while (lock_timeout) and the
Celery task retries later, instead of holding locks while queued behind a bigger lock
(e.g. a TRUNCATE or a long migration), which can end in a deadlock that aborts the other side."""
from django.db import connection

LOCK_TIMEOUT = "500ms"


def give_way() -> None:
    """Call first thing inside ``transaction.atomic()``."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'")
