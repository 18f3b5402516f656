from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from . import access, signals  # noqa: F401  (access: deactivation and logout end sockets)
