"""Errors of the match services, each with the HTTP status the API and pages answer with."""


class MatchError(Exception):
    status = 400
    code = "match_error"

    def __init__(self, message: str, **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra

    def public_extra(self) -> dict:
        """The extra fields an answer may carry (plain JSON values, e.g. the current version)."""
        return {k: v for k, v in self.extra.items() if isinstance(v, (str, int, float, bool, type(None)))}


class IllegalMove(MatchError):
    status, code = 400, "illegal_action"


class NotSeated(MatchError):
    status, code = 403, "not_seated"


class NoSuchMatch(NotSeated):
    """A missing match, or a private one asked by a stranger (the same answer: existence stays
    secret). The API answers it as NotSeated; pages answer it with their 404."""


class NotYourTurn(MatchError):
    status, code = 403, "not_your_turn"


class StaleVersion(MatchError):
    status, code = 409, "stale_version"


class MatchOver(MatchError):
    status, code = 409, "match_over"


class UndoRefused(MatchError):
    status, code = 409, "undo_refused"


class SeatTaken(MatchError):
    status, code = 409, "seat_taken"
