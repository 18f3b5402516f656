"""Everything a player can do on a page, the API can do. The page routes
that take a POST are read from the URLconf (a view class with ``post``, or a view function
whose source handles POST); each must be named in TWINS with its API operation(s), or in
WITHOUT_TWIN with the reason. A new form without a twin fails here."""
from __future__ import annotations

import inspect

from drf_spectacular.generators import SchemaGenerator

from tests.security.routes import all_routes

# page route name -> the API route name(s) doing the same
TWINS = {
    "match-act": ["api-actions"],
    "match-undo": ["api-undo"],
    "match-resign": ["api-resign"],
    "match-rematch": ["api-rematch"],
    "match-orders-queue": ["api-orders"],  # PUT replaces the list: queue = append
    "match-orders-cancel": ["api-orders"],  # ... cancel = remove one
    "match-orders-set": ["api-orders"],  # ... a game order kind set or removed
    "match-chat": ["api-chat"],
    "match-chat-read": ["api-chat-read"],
    "match-notes": ["api-notes"],
    "match-notify": ["api-match-notifications"],
    "substitute": ["api-substitute-take"],
    "invitation-new": ["api-invitations"],
    "invitation-new-game": ["api-invitations"],
    "invitation-action": ["api-invitation-join", "api-invitation-leave", "api-invitation-decline",
                          "api-invitation-cancel"],
    "invite-friend": ["api-invitations"],  # a private invitation naming the friend (invitees)
    "learn-start": ["api-invitations"],  # a match against bots: an invitation with bots
    "report-new": ["api-reports"],
    "centre": ["api-notifications-read"],
    "account-data": ["api-account-export", "api-account-delete"],
    "tournament-new": ["api-tournaments"],
    "tournament-register": ["api-tournament-register", "api-tournament-drop"],
    "tournament-result": ["api-tournament-results"],
    "tournament-action": ["api-tournament-start", "api-tournament-next-round", "api-tournament-disqualify",
                          "api-tournament-drop", "api-tournament-rejoin", "api-tournament-sanctions",
                          "api-tournament-officials", "api-tournament-bots"],
    "orden-deck-new": ["api-orden-decks"],
    "orden-deck-copy": ["api-orden-decks"],
    "orden-deck-edit": ["api-orden-deck"],
    "orden-deck-delete": ["api-orden-deck"],
    "learn-play-suggestion": ["api-actions"],  # the hint's move is a legal action like any other
}
# page route name -> why the API has no twin
WITHOUT_TWIN = {
    "signup": "signing up proves a person with a browser (CSRF, confirmation mail); bots get tokens of accounts",
    "login": "the API's log-in is POST /api/auth/token/ (a token, not a session)",
    "logout": "a token is revoked by deleting the account or by staff; a session is the browser's",
    "password_change": "a password is a browser credential; API clients hold tokens",
    "password_reset": "a mailed link to a browser",
    "password_reset_confirm": "a mailed link to a browser",
    "verify-email": "a mailed link to a browser",
    "resend-confirmation": "a mailed link to a browser",
    "unsubscribe": "a mailed link to a browser",
    "set-language": "the API speaks the Accept-Language of each request",
    "set_language": "the API speaks the Accept-Language of each request",
    "profile": "not yet offered: profile settings (display name, time zone) have no API",
    "settings": "not yet offered: notification channels and quiet hours have no API",
    "user-relation": "not yet offered: friends and blocks have no API",
    "friends-add": "not yet offered: friends and blocks have no API",
    None: "favicon.ico: a redirect, not a form",
    "hotseat-new": "the game author's tool (GAME_AUTHOR_TOOLS), not a player's",
    "hotseat-act": "the game author's tool (GAME_AUTHOR_TOOLS), not a player's",
    "learn-try": "a visitor's guest account and guided match in a browser; API clients have accounts",
    "learn-not-now": "hides a pointer on the lobby page for this session: nothing for an API client",
}


def _takes_post(callback) -> bool:
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view_class is not None:
        return any(hasattr(view_class, m) for m in ("post", "put", "patch", "delete"))
    try:
        source = inspect.getsource(inspect.unwrap(callback))
    except (OSError, TypeError):
        return True  # unreadable: assume it posts, so that it must be named
    return "POST" in source


def _page_posts() -> dict:
    return {r.name: r for r in all_routes() if not r.is_api and not r.is_admin and _takes_post(r.callback)}


def test_every_page_form_has_an_api_twin_or_a_reason():
    pages = _page_posts()
    assert {"match-act", "match-chat", "match-notes"} <= set(pages)  # the reading works
    unnamed = sorted(str(name) for name in pages if name not in TWINS and name not in WITHOUT_TWIN)
    assert not unnamed, f"page forms without an API twin (add one, or a reason to WITHOUT_TWIN): {unnamed}"
    stale = sorted(str(n) for n in (set(TWINS) | set(WITHOUT_TWIN)) - set(pages))
    assert not stale, f"named here but no page route takes a POST: {stale}"


def test_every_twin_is_an_api_operation_in_the_schema():
    routes = {r.name: r for r in all_routes() if r.is_api}
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = {path.lstrip("/") for path in schema["paths"]}
    for page, twins in TWINS.items():
        for twin in twins:
            assert twin in routes, f"{page}: no API route {twin}"
            pattern = routes[twin].pattern.replace("<int:pk>", "{id}").replace("<int:n>", "{n}")
            assert any(p.replace("{pk}", "{id}") == pattern for p in paths) or \
                pattern.replace("{id}", "{pk}") in paths, f"{page}: {twin} is not in the OpenAPI schema"
