"""Applies a signed-in user's language and time zone to each request."""
import zoneinfo

from django.utils import timezone, translation


class UserPreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            profile = getattr(user, "profile", None)
            if profile is not None:
                if not request.GET.get("lang"):
                    translation.activate(profile.language)
                    request.LANGUAGE_CODE = profile.language
                try:
                    timezone.activate(zoneinfo.ZoneInfo(profile.timezone))
                except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                    timezone.deactivate()
        lang = request.GET.get("lang")
        if lang in ("de", "en"):
            translation.activate(lang)
            request.LANGUAGE_CODE = lang
        response = self.get_response(request)
        timezone.deactivate()
        return response
