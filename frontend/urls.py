from django.templatetags.static import static
from django.urls import path
from django.views.generic import RedirectView

from . import chat_lines, days, legal_views, rematch_views, views, welcome

urlpatterns = [
    # Pages link their icons; browsers still ask /favicon.ico for anything else (API, JSON).
    path("favicon.ico", RedirectView.as_view(url=static("frontend/favicon.ico"), permanent=True)),
    path("", welcome.home, name="home"),
    path("help/", welcome.help_page, name="help"),
    path("privacy/", legal_views.legal_page, {"page": "privacy"}, name="privacy"),
    path("imprint/", legal_views.legal_page, {"page": "imprint"}, name="imprint"),
    path("terms/", legal_views.legal_page, {"page": "terms"}, name="terms"),
    path("lobby/", views.lobby_page, name="lobby"),
    path("invitations/new/", views.invitation_new, name="invitation-new"),
    path("invitations/new/<slug:game>/", views.invitation_new, name="invitation-new-game"),
    path("invitations/<int:pk>/", views.invitation_page, name="invitation"),
    path("invitations/<int:pk>/status/", views.invitation_status, name="invitation-status"),
    path("invitations/<int:pk>/seats/", views.invitation_seats, name="invitation-seats"),
    path("invitations/<int:pk>/<str:verb>/", views.invitation_action, name="invitation-action"),
    path("games/<slug:game>/rules/", views.game_rules, name="game-rules"),
    path("my-games/", views.my_games, name="my-games"),
    path("next-game/", views.next_game, name="next-game"),
    path("matches/<int:pk>/", views.match_page, name="match"),
    path("matches/<int:pk>/live/", views.match_board, name="match-live"),
    path("matches/<int:pk>/act/", views.match_act, name="match-act"),
    path("matches/<int:pk>/undo/", views.match_undo, name="match-undo"),
    path("matches/<int:pk>/orders/queue/", views.match_orders_queue, name="match-orders-queue"),
    path("matches/<int:pk>/orders/cancel/", views.match_orders_cancel, name="match-orders-cancel"),
    path("matches/<int:pk>/orders/set/", views.match_orders_set, name="match-orders-set"),
    path("matches/<int:pk>/resign/", views.match_resign, name="match-resign"),
    path("matches/<int:pk>/chat/", views.match_chat, name="match-chat"),
    path("matches/<int:pk>/rematch/", rematch_views.match_rematch, name="match-rematch"),
    path("substitutes/<int:pk>/", rematch_views.substitute_page, name="substitute"),
    path("matches/<int:pk>/chat/read/", days.match_chat_read, name="match-chat-read"),
    path("matches/<int:pk>/chat/lines/", chat_lines.match_chat_lines, name="match-chat-lines"),
    path("matches/<int:pk>/notes/", days.match_notes, name="match-notes"),
    path("matches/<int:pk>/notify/", days.match_notify, name="match-notify"),
]
