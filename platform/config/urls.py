import os

from django.contrib import admin
from django.urls import include, path

from accounts.views import set_language
from config.discovery import feature_apps, module_exists

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    # Before Django's own: the header's DE/EN switch also saves a signed-in user's profile.
    path("i18n/setlang/", set_language, name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
]
# Feature apps route themselves: <app>.api_urls under /api/, <app>.urls under /.
for app in feature_apps():
    if module_exists(f"{app}.api_urls"):
        urlpatterns.append(path("api/", include(f"{app}.api_urls")))
    if module_exists(f"{app}.urls"):
        urlpatterns.append(path("", include(f"{app}.urls")))
urlpatterns.append(path("", include("frontend.urls")))
if os.environ.get("BENCH_FLOOR") == "1":  # the benchmark's bare move (bench/floor.py); never on a site
    from bench.floor import urlpatterns as floor_urls

    urlpatterns = floor_urls + urlpatterns

# A lost database connection answers 503 (try again), anything else 500 (web/errors.py).
handler500 = "web.errors.server_error_or_unavailable"
handler404 = "web.errors.not_found"
