"""Friends (a personal list: adding someone needs no consent, it only helps to invite them)
and the block list (a blocked user cannot join my invitations or write in my matches' chat)."""
from django.conf import settings
from django.db import models


class Friendship(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friendships")
    friend = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="befriended_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "friend"], name="friendship_unique"),
                       models.CheckConstraint(condition=~models.Q(user=models.F("friend")), name="friendship_not_self")]
        ordering = ["friend__username"]


class Block(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "blocked"], name="block_unique"),
                       models.CheckConstraint(condition=~models.Q(user=models.F("blocked")), name="block_not_self")]
        ordering = ["blocked__username"]
