"""The password that confirms a deletion: at most MAX_WRONG wrong ones per account and hour, so
a stolen session cannot guess its way to erasing the account."""
from django.core.cache import cache

MAX_WRONG = 5
WINDOW = 3600
RIGHT, WRONG, TOO_MANY = "right", "wrong", "too_many"


def check(user, password: str) -> str:
    key = f"erase-wrong:{user.pk}:{user.date_joined.timestamp():.6f}"  # not inherited by a reused id
    if (cache.get(key) or 0) >= MAX_WRONG:
        return TOO_MANY
    if user.check_password(password):
        return RIGHT
    if not cache.add(key, 1, WINDOW):
        try:
            cache.incr(key)
        except ValueError:  # expired in between
            cache.add(key, 1, WINDOW)
    return WRONG
