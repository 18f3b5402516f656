"""Every API error is JSON: {"error": code, "detail": message, ...}. Service errors carry
their own status; anything DRF raises is reshaped the same way."""
from rest_framework import status as http
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from lobby.errors import LobbyError
from matches.errors import MatchError


def exception_handler(exc, context):
    if isinstance(exc, MatchError):
        return Response({"error": exc.code, "detail": exc.message, **exc.public_extra()}, status=exc.status)
    if isinstance(exc, LobbyError):
        return Response({"error": "invitation_error", "detail": exc.message}, status=exc.status)
    response = drf_handler(exc, context)
    if response is None:
        return None  # a real bug: let Django log it and answer 500
    data = response.data
    if isinstance(data, dict) and "detail" in data and len(data) == 1:
        detail = str(data["detail"])
        code = getattr(data["detail"], "code", "error")
        response.data = {"error": code, "detail": detail}
    else:
        response.data = {"error": "invalid", "detail": "The request is not valid.", "fields": data}
        response.status_code = http.HTTP_400_BAD_REQUEST if response.status_code >= 500 else response.status_code
    return response
