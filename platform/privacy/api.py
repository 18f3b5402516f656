"""GET /api/account/export/ and POST /api/account/delete/ (contract "Accounts")."""
from django.contrib.auth import logout
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.exceptions import PermissionDenied, Throttled
from rest_framework.response import Response
from rest_framework.views import APIView

from . import erase, export, passwords

DELETE_REQUEST = inline_serializer("AccountDelete", {"password": serializers.CharField()})


class AccountExport(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT},
                   summary="My personal data: profile, matches with their logs as I may see them, chat, notes, "
                           "notification settings")
    def get(self, request):
        response = Response(export.export(request.user, (get_language() or "en")[:2]))
        response["Content-Disposition"] = 'attachment; filename="spieltisch-data.json"'
        return response


class AccountDelete(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=DELETE_REQUEST, responses={204: None},
                   summary="Delete my account: my name, address and profile are erased, my games stay whole "
                           "under a placeholder name")
    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        password = data.get("password")
        if not isinstance(password, str) or not password:
            raise serializers.ValidationError({"password": ["Send your password to confirm."]})
        outcome = passwords.check(request.user, password)
        if outcome is passwords.TOO_MANY:
            raise Throttled(detail="Too many wrong passwords; try again in an hour.")
        if outcome is not passwords.RIGHT:
            raise PermissionDenied("The password is wrong.")
        erase.erase(request.user)
        if getattr(request, "session", None) is not None and request.user.is_authenticated:
            logout(request._request)
        return Response(status=204)
