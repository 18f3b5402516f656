from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "HTTP API"

    def ready(self):
        bound_integer_fields()
        safe_json_fields()


BIGINT = 2 ** 63 - 1


def bound_integer_fields() -> None:
    """Every DRF IntegerField of every app refuses numbers beyond a signed 64-bit integer: ids,
    counts and rounds end up in database queries, where a larger one is a 500 (SQLite:
    OverflowError). One place, so a new serializer cannot forget it."""
    from rest_framework import serializers

    original = serializers.IntegerField.to_internal_value
    if getattr(original, "bounded", False):
        return

    def to_internal_value(self, data):
        value = original(self, data)
        if not -BIGINT <= value <= BIGINT:
            self.fail("max_value" if value > 0 else "min_value", max_value=BIGINT, min_value=-BIGINT)
        return value

    to_internal_value.bounded = True
    serializers.IntegerField.to_internal_value = to_internal_value


def safe_json_fields() -> None:
    """Every DRF JSONField that parses text (a form field, ``binary=True``) parses it with
    games.safejson: JSON nested 3,000 deep or holding a lone surrogate is the field's "invalid"
    error (400), not a RecursionError or an encoding error later (500). JSON bodies are checked
    by config.guard before any view; this covers JSON inside form and multipart fields."""
    from rest_framework import serializers

    from games import safejson

    original = serializers.JSONField.to_internal_value
    if getattr(original, "safe", False):
        return

    def to_internal_value(self, data):
        if self.binary or getattr(data, "is_json_string", False):
            try:
                safejson.loads(data.decode() if isinstance(data, bytes) else data)
            except (TypeError, ValueError):
                self.fail("invalid")
        return original(self, data)

    to_internal_value.safe = True
    serializers.JSONField.to_internal_value = to_internal_value
