from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    """A person's data: export and erasure (contract "Accounts"), and the legal pages."""
    name = "privacy"
    verbose_name = "Privacy"
    default_auto_field = "django.db.models.BigAutoField"
