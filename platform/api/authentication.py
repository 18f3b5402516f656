"""DRF's token authentication with the token and its user read in one plain statement: the
ORM's ``select_related("user").get(key=...)`` cost more CPU to build than to run, on every API
request of a bot or client. Same header rules, same refusals (DRF's own messages)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from core import plainsql


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        token = plainsql.fetch_one_related(self.get_model(), "user", "key", key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
