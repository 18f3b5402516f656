from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "HTTP API"

    def ready(self):
        bound_integer_fields()


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
