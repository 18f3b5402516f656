"""Friend and block list changes. Blocking someone also ends any friendship between you."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from .models import Block, Friendship


class CommunityError(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message, self.status = message, status


def _other(user, username: str):
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise CommunityError(_("There is no user called '%(name)s'.") % {"name": username}, 404)
    if other.pk == user.pk:
        raise CommunityError(_("That is you."))
    return other


def add_friend(user, username: str):
    other = _other(user, username)
    if Block.objects.filter(Q(user=user, blocked=other) | Q(user=other, blocked=user)).exists():
        raise CommunityError(_("You cannot add this player as a friend while a block is in place."), 409)
    Friendship.objects.get_or_create(user=user, friend=other)
    return other


def remove_friend(user, username: str):
    other = _other(user, username)
    Friendship.objects.filter(user=user, friend=other).delete()
    return other


def block(user, username: str):
    other = _other(user, username)
    with transaction.atomic():
        Block.objects.get_or_create(user=user, blocked=other)
        Friendship.objects.filter(Q(user=user, friend=other) | Q(user=other, friend=user)).delete()
    return other


def unblock(user, username: str):
    other = _other(user, username)
    Block.objects.filter(user=user, blocked=other).delete()
    return other
