from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "HTTP API"

    def ready(self):
        bound_integer_fields()
        safe_json_fields()
        safe_form_json_fields()


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
    by web.guard before any view; this covers JSON inside form and multipart fields."""
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


FORM_JSON_DEPTH = 200  # json.loads itself fails near 1,000 levels


def safe_form_json_fields() -> None:
    """The same for Django's own forms.JSONField (the admin's form for every model JSONField:
    a match's state, options, outcome): a 3,000-deep JSON text posted to /admin/matches/match/add/
    was a RecursionError (500, found by the route fuzzer's deep JSON text). Refused as the
    field's "invalid" error. FORM_JSON_DEPTH: deep enough for any state an admin may edit."""
    from django import forms
    from django.core.exceptions import ValidationError
    from django.forms.fields import InvalidJSONInput

    from games import safejson

    original = forms.JSONField.to_python
    if getattr(original, "safe", False):
        return

    def to_python(self, value):
        if not self.disabled and isinstance(value, str) and value not in self.empty_values:
            try:
                safejson.loads(value, limit=FORM_JSON_DEPTH)
            except ValueError:
                raise ValidationError(self.error_messages["invalid"], code="invalid",
                                      params={"value": value[:100]}) from None
        return original(self, value)

    def bound_data(self, data, initial):  # the form shown again with its error: the text as typed
        if not self.disabled and isinstance(data, str):
            try:
                safejson.loads(data, limit=FORM_JSON_DEPTH)
            except ValueError:
                return InvalidJSONInput(data)
        return original_bound(self, data, initial)

    original_bound = forms.JSONField.bound_data
    to_python.safe = True
    forms.JSONField.to_python = to_python
    forms.JSONField.bound_data = bound_data
