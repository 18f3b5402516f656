"""Schema pieces for drf-spectacular shared by the apps' API views."""
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes

# The list endpoints return a JSON array (the contract's shapes; clients rely on them).
ARRAY_OF_OBJECTS = build_array_type(build_basic_type(OpenApiTypes.OBJECT))
