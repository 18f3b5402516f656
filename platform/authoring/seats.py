"""The stand-in users who hold a hot-seat match's seats: one per author and seat number, named
``#<n> <author>`` (a name sign-up cannot give: no person can hold or log in as one), inactive,
without a usable password and without an e-mail address (no mail, no notification reaches
anyone)."""
from __future__ import annotations

from django.contrib.auth import get_user_model


def stand_in(author, seat: int):
    User = get_user_model()
    username = f"#{seat + 1} {author.username}"[:150]
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User(username=username, is_active=False, email="")
        user.set_unusable_password()
        user.save()
    return user
