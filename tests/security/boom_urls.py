"""A URLconf with a view that fails, for the error-shape tests (tests/security/test_error_shapes.py)."""
from django.urls import include, path


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("api/boom/", boom), path("boom/", boom), path("", include("config.urls"))]
