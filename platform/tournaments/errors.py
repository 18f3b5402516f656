"""Refusals of the tournament services, each with its HTTP status and a code for the API."""


class TournamentError(Exception):
    status = 400
    code = "tournament_error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Invalid(TournamentError):
    status, code = 400, "invalid"


class Forbidden(TournamentError):
    status, code = 403, "forbidden"


class NotFound(TournamentError):
    status, code = 404, "not_found"


class Conflict(TournamentError):
    """The request does not fit the tournament's state (already started, round closed, ...)."""
    status, code = 409, "conflict"
