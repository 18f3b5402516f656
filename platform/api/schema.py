"""The OpenAPI schema: the view that builds it once, and pieces shared by the apps' API views.

drf-spectacular builds the schema on every request and loads its extensions while it does: 12
concurrent first requests after a restart raced in that (3 × 500). The schema only
changes with the code, so the first request builds it while the others wait, and later
requests get the built one (also saving the ~0.5 s a build costs)."""
import threading

from django.utils import translation
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.views import SpectacularAPIView
from rest_framework.response import Response

# The list endpoints return a JSON array (the contract's shapes; clients rely on them).
ARRAY_OF_OBJECTS = build_array_type(build_basic_type(OpenApiTypes.OBJECT))

_lock = threading.Lock()
_built: dict[tuple, dict] = {}


class SchemaView(SpectacularAPIView):
    def _get_schema_response(self, request):
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (version, translation.get_language(), self.serve_public)
        with _lock:
            if key not in _built:
                generator = self.generator_class(urlconf=self.urlconf, api_version=version, patterns=self.patterns)
                _built[key] = generator.get_schema(request=request, public=self.serve_public)
        return Response(data=_built[key], headers={
            "Content-Disposition": f'inline; filename="{self._get_filename(request, version)}"'})
