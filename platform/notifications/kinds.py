"""The events users are told about, their default channels and their texts in de/en."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

EMAIL, PUSH = "email", "push"
KINDS = {  # kind: (label, default channels)
    "your_turn": (_("It is your turn"), [EMAIL, PUSH]),
    "reminder": (_("Reminder: your time is running out"), [EMAIL, PUSH]),
    "timeout": (_("Time ran out in a game"), [EMAIL, PUSH]),
    "vacation_auto": (_("A vacation day was used automatically"), [EMAIL]),
    "invited": (_("Someone invited you to a game"), [EMAIL, PUSH]),
    "invitation_joined": (_("Someone joined your invitation"), [EMAIL]),
    "invitation_declined": (_("Someone declined your invitation"), [EMAIL]),
    "invitation_cancelled": (_("An invitation to you was withdrawn"), [EMAIL]),
    "match_started": (_("A game has started"), [EMAIL, PUSH]),
    "match_finished": (_("A game has ended"), [EMAIL]),
    "substitute_wanted": (_("A friend's game needs a substitute"), [EMAIL, PUSH]),
    "tournament_paired": (_("A tournament round is paired"), [EMAIL, PUSH]),
    "tournament_deadline": (_("A tournament round is about to close"), [EMAIL, PUSH]),
    "tournament_finished": (_("A tournament has ended"), [EMAIL]),
    "premove_dropped": (_("A queued move was no longer legal"), [PUSH]),
    "orders_ended": (_("Your orders in a game you left have ended"), [PUSH]),
    "chat": (_("New chat lines in a game"), [EMAIL, PUSH]),
    "chat_mention": (_("Someone mentioned you in a game's chat"), [EMAIL, PUSH]),
    "moderation_warning": (_("A moderator's warning"), [EMAIL]),  # moderation/services.py
}

# A seat's per-match setting (matches.models.NotifyLevel) -> the kinds it lets through
# (None: all). "Only my turn" keeps what is about the player's own clock.
LEVEL_KINDS = {"all": None, "turn": frozenset({"your_turn", "reminder", "vacation_auto"}), "none": frozenset()}


def level_allows(level: str | None, kind: str) -> bool:
    allowed = LEVEL_KINDS.get(level or "all")
    return allowed is None or kind in allowed


def game_name(data: dict, lang: str) -> str:
    """The game's name in ``lang``: stored with the notification, else from the registry (the
    tournament notifications store only the slug), the slug only for a game no longer installed."""
    name = data.get("game_name_de" if lang == "de" else "game_name_en")
    if name or not data.get("game"):
        return name or ""
    from games import registry

    return registry.display_name(data["game"], lang)


def text(kind: str, data: dict, lang: str) -> str:
    """One line: the centre's entry, the push body, the mail's headline."""
    de = lang == "de"
    game = f"{game_name(data, lang)} #{data['match']}" if data.get("match") else game_name(data, lang)
    opponents = ", ".join(data.get("opponents", []))
    if kind == "your_turn":
        if de:
            return f"Du bist am Zug: {game}" + (f" gegen {opponents}" if opponents else "") + "."
        return f"Your turn in {game}" + (f" against {opponents}" if opponents else "") + "."
    if kind == "reminder":
        hours = data.get("hours_left", 0)
        unit = ("Stunde" if hours == 1 else "Stunden") if de else ("hour" if hours == 1 else "hours")
        return (f"Erinnerung: In {game} bleiben dir noch etwa {hours} {unit} für deinen Zug." if de else
                f"Reminder: about {hours} {unit} left for your move in {game}.")
    if kind == "timeout":
        bot = data.get("policy") == "bot"
        who = data.get("player", "?")
        if de:
            return f"{game}: Die Zeit von {who} ist abgelaufen – " + ("ein Bot spielt weiter." if bot else "scheidet aus.")
        return f"{game}: {who} ran out of time; " + ("a bot plays on." if bot else "they forfeit.")
    if kind == "vacation_auto":
        return (f"{game}: Deine Zeit war abgelaufen; ein Urlaubstag wurde genommen, die Uhr steht bis {data.get('until_text', '')}."
                if de else f"{game}: your time had run out, so a vacation day was used; the clock stands still until "
                f"{data.get('until_text', '')}.")
    if kind == "invited":
        host, seats = data.get("host", "?"), data.get("seats", "")
        comment = data.get("comment")
        if de:
            return (f"{host} lädt dich zu {game} ein ({seats})" + (f": „{comment}“" if comment else ".")
                    + " Annehmen oder ablehnen?")
        return (f"{host} invites you to {game} ({seats})" + (f": “{comment}”" if comment else ".")
                + " Accept or decline?")
    if kind == "invitation_declined":
        return (f"{data.get('player')} hat deine Einladung zu {game} abgelehnt." if de else
                f"{data.get('player')} declined your invitation to {game}.")
    if kind == "invitation_cancelled":
        return (f"{data.get('host')} hat die Einladung zu {game} zurückgezogen." if de else
                f"{data.get('host')} withdrew the invitation to {game}.")
    if kind == "invitation_joined":
        return (f"{data.get('player')} ist deiner Einladung zu {game} beigetreten ({data.get('seats')})." if de else
                f"{data.get('player')} joined your invitation to {game} ({data.get('seats')}).")
    if kind == "match_started":
        return (f"{game} hat begonnen" + (f" – gegen {opponents}" if opponents else "") + "." if de else
                f"{game} has started" + (f" – against {opponents}" if opponents else "") + ".")
    if kind == "match_finished":
        place = data.get("place")
        if de:
            return f"{game} ist zu Ende" + (f" – du bist {place}." if place else ".")
        return f"{game} is over" + (f" – you placed {place}." if place else ".")
    if kind == "substitute_wanted":
        seat = data.get("seat", "?")
        players = ", ".join(data.get("opponents", []))
        return (f"{game}: Platz {seat} sucht einen Ersatz (mit {players}). Übernehmen?" if de else
                f"{game}: seat {seat} needs a substitute (with {players}). Take it over?")
    if kind == "tournament_paired":
        name = data.get("tournament", "")
        rnd = data.get("round", "")
        return (f"Turnier {name}: Runde {rnd} ist ausgelost" + (f", du spielst {game}" if data.get('match') else "") + "."
                if de else f"Tournament {name}: round {rnd} is paired" + (f"; you play {game}" if data.get('match') else "")
                + ".")
    if kind == "tournament_deadline":
        name, rnd, when = data.get("tournament", ""), data.get("round", ""), data.get("deadline_text", "")
        return (f"Turnier {name}: Runde {rnd} schließt bald" + (f" ({when})" if when else "")
                + " – unbeendete Partien entscheidet dann der Tiebreak des Spiels." if de else
                f"Tournament {name}: round {rnd} closes soon" + (f" ({when})" if when else "")
                + "; unfinished games are then decided by the game's tie-break.")
    if kind == "tournament_finished":
        name, winner = data.get("tournament", ""), data.get("winner_name")
        return (f"Turnier {name} ist beendet" + (f" – Sieger: {winner}." if winner else ".") if de else
                f"Tournament {name} has ended" + (f"; the winner is {winner}." if winner else "."))
    if kind == "premove_dropped":
        n = data.get("count", 1)
        if de:
            return (f"{game}: Dein vorgemerkter Zug war nicht mehr erlaubt, als du am Zug warst, und entfällt." if n == 1
                    else f"{game}: {n} vorgemerkte Züge waren nicht mehr erlaubt, als du am Zug warst, und entfallen.")
        return (f"{game}: your queued move was no longer legal when your turn came; it was dropped." if n == 1
                else f"{game}: {n} queued moves were no longer legal when your turn came; they were dropped.")
    if kind == "orders_ended":
        return (f"{game}: Jemand hat deinen Platz übernommen; deine Anweisungen dort sind beendet." if de else
                f"{game}: someone took over your seat; your orders there have ended.")
    if kind in ("chat", "chat_mention"):
        who, line = data.get("player", "?"), data.get("line", "")
        if kind == "chat_mention":
            return (f"{who} hat dich im Chat von {game} erwähnt: „{line}“" if de else
                    f"{who} mentioned you in the chat of {game}: “{line}”")
        return (f"Neues im Chat von {game} – {who}: „{line}“" if de else
                f"New in the chat of {game} – {who}: “{line}”")
    if kind == "moderation_warning":
        reason = data.get("reason") or ""
        if de:
            return "Verwarnung durch die Moderation" + (f": {reason}" if reason else "") + \
                ". Bitte halte dich an die Nutzungsbedingungen."
        return "A moderator warns you" + (f": {reason}" if reason else "") + ". Please keep to the terms of use."
    return data.get("text") or kind
