from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, render

from .presenters import record_for


def player_record(request, username: str):
    player = get_object_or_404(get_user_model(), username=username)
    return render(request, "clocks/record.html", {"player": player, **record_for(player)})
