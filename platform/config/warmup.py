"""Work a server process does once at start-up rather than in its first requests."""


def import_urls() -> None:
    """Import every URL module (and the views behind them) now: left to the first requests, a
    burst of them queued behind the import lock for seconds (py-spy, docs/performance.md)."""
    from django.urls import get_resolver

    get_resolver().url_patterns
