import zoneinfo

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

TIME_ZONES = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(_("language"), max_length=5, choices=settings.LANGUAGES, default="en")
    timezone = models.CharField(_("time zone"), max_length=64, default="Europe/Berlin",
                                choices=[(tz, tz) for tz in TIME_ZONES])
    # The address its owner confirmed (accounts/verification.py). Notification mail goes to
    # user.email only while it equals this one: changing the address needs a new confirmation.
    verified_email = models.EmailField(_("confirmed e-mail address"), blank=True)
    # Set: a guest account made by "Try it now" (accounts/guests.py): it may play the guided
    # match only, and is removed a day after this time unless its owner signs up.
    guest_since = models.DateTimeField(_("guest since"), null=True, blank=True, db_index=True)

    def __str__(self):
        return self.display_name or self.user.username

    @property
    def shown_name(self) -> str:
        return self.display_name or self.user.username

    @property
    def is_guest(self) -> bool:
        return self.guest_since is not None

    @property
    def email_verified(self) -> bool:
        email = self.user.email
        return bool(email) and self.verified_email.lower() == email.lower()
