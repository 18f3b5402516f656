from django.urls import path
from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.authtoken.views import obtain_auth_token

from . import docs_page, views
from .schema import SchemaView

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),  # built once: api/schema.py
    # The schema as a plain page of the site (api/docs_page.py: no script, passes axe).
    path("docs/", docs_page.api_docs, name="api-docs"),
    # Swagger UI from the installed package (drf-spectacular-sidecar), its set-up script a
    # separate request: no CDN, no inline script (Content-Security-Policy). For trying requests.
    path("docs/swagger/", SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/swagger_ui.html"),
         name="api-swagger"),
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("games/", views.GameList.as_view(), name="api-games"),
    path("invitations/", views.InvitationList.as_view(), name="api-invitations"),
    path("invitations/<int:pk>/", views.InvitationDetail.as_view(), name="api-invitation"),
    path("invitations/<int:pk>/join/", views.InvitationVerb.as_view(verb="join"), name="api-invitation-join"),
    path("invitations/<int:pk>/leave/", views.InvitationVerb.as_view(verb="leave"), name="api-invitation-leave"),
    path("invitations/<int:pk>/decline/", views.InvitationVerb.as_view(verb="decline"),
         name="api-invitation-decline"),
    path("invitations/<int:pk>/cancel/", views.InvitationVerb.as_view(verb="cancel"), name="api-invitation-cancel"),
    path("matches/", views.MatchList.as_view(), name="api-matches"),
    path("matches/<int:pk>/", views.MatchDetail.as_view(), name="api-match"),
    path("matches/<int:pk>/legal-actions/", views.LegalActions.as_view(), name="api-legal-actions"),
    path("matches/<int:pk>/actions/", views.Actions.as_view(), name="api-actions"),
    path("matches/<int:pk>/undo/", views.Undo.as_view(), name="api-undo"),
    path("matches/<int:pk>/resign/", views.Resign.as_view(), name="api-resign"),
    path("matches/<int:pk>/log/", views.MatchLog.as_view(), name="api-log"),
    path("matches/<int:pk>/rematch/", views.Rematch.as_view(), name="api-rematch"),
    path("substitutes/", views.SubstituteList.as_view(), name="api-substitutes"),
    path("substitutes/<int:pk>/take/", views.SubstituteTake.as_view(), name="api-substitute-take"),
    path("matches/<int:pk>/orders/", views.MatchOrders.as_view(), name="api-orders"),
    path("matches/<int:pk>/notes/", views.Notes.as_view(), name="api-notes"),
    path("matches/<int:pk>/notifications/", views.MatchNotifications.as_view(), name="api-match-notifications"),
    path("matches/<int:pk>/chat/", views.MatchChat.as_view(), name="api-chat"),
    path("matches/<int:pk>/chat/read/", views.ChatRead.as_view(), name="api-chat-read"),
]
