"""POST /api/reports/ (contract "Accounts"): report a player, a match or a chat line."""
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services
from .models import Report

REPORT_REQUEST = inline_serializer("ReportRequest", {
    "user": serializers.CharField(help_text="The reported player's username (may be left out with chat)"),
    "match": serializers.IntegerField(allow_null=True, required=False),
    "chat": serializers.IntegerField(allow_null=True, required=False, help_text="A chat line's id (extension)"),
    "category": serializers.ChoiceField(choices=Report.Category.values, required=False),
    "reason": serializers.CharField(max_length=1000),
})
REPORT = inline_serializer("Report", {
    "id": serializers.IntegerField(), "user": serializers.CharField(),
    "match": serializers.IntegerField(allow_null=True), "chat": serializers.IntegerField(allow_null=True),
    "category": serializers.CharField(), "reason": serializers.CharField(), "status": serializers.CharField(),
    "created_at": serializers.DateTimeField(),
})


class _Refused(APIException):
    def __init__(self, message, status):
        super().__init__(detail=message, code="report_refused" if status != 429 else "throttled")
        self.status_code = status


class Reports(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=REPORT_REQUEST, responses={201: REPORT},
                   summary="Report a player (optionally about a match or one chat line); staff handle reports "
                           "in the admin")
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        username = data.get("user")
        if username is not None and not isinstance(username, str):
            raise _Refused("'user' must be a username.", 400)
        reason, category = data.get("reason", ""), data.get("category") or Report.Category.OTHER
        if not isinstance(reason, str) or not isinstance(category, str):
            raise _Refused("'reason' and 'category' must be text.", 400)
        try:
            report = services.report(request.user, username=username,
                                     match_id=services.parse_id(data.get("match"), "match"),
                                     chat_id=services.parse_id(data.get("chat"), "chat"), category=category,
                                     reason=reason)
        except services.ReportError as exc:
            raise _Refused(exc.message, exc.status) from None
        return Response({"id": report.pk, "user": report.reported.username, "match": report.match_id,
                         "chat": report.chat_message_id, "category": report.category, "reason": report.reason,
                         "status": report.status, "created_at": report.created_at}, status=201)
