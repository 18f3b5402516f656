"""The generic game plugin interface.

Modelled on boardgame.io (setup / moves / playerView, seeded server-side randomness) and
OpenSpiel (legal_actions / apply_action / current_player / returns). Pure Python: the
platform (persistence, clocks, notifications, ratings) lives elsewhere and talks to a game
only through this module's types.

Contract, checked for every registered game by tests/conformance/:
- States, actions, views and events are JSON-able dicts (json round trip is the identity).
- ``apply`` never mutates its input; an illegal action raises ``IllegalAction`` with a
  human-readable reason and changes nothing.
- All randomness comes from ``games.rng.Rng`` whose state lives inside the game state; views
  never contain it.
- ``outcome(state)`` is not None exactly when ``to_move(state)`` is empty.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

JSON = Any
State = dict
Action = dict


class IllegalAction(Exception):
    """An action that is not legal now. ``reason`` is shown to the player as is (English);
    ``reason_de`` is the German text when the engine provides one."""

    def __init__(self, reason: str, reason_de: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.reason_de = reason_de or reason


class BadOptions(ValueError):
    """Invitation options or seat choices that do not fit the game's declared schema.

    Like ``IllegalAction``: ``message`` is English, ``message_de`` the German text; the
    platform shows the one of the request's language (``text(lang)``)."""

    def __init__(self, message: str, message_de: str | None = None):
        super().__init__(message)
        self.message = message
        self.message_de = message_de or message

    def text(self, lang: str | None) -> str:
        return self.message_de if (lang or "").startswith("de") else self.message


@dataclass(frozen=True)
class Option:
    """One typed invitation option a host may set (e.g. Alchemist's ``no_schools``).

    kind: "bool", "int" or "choice". For "choice", ``choices`` holds (value, label_en, label_de).
    """

    key: str
    kind: str
    default: JSON
    label_en: str
    label_de: str
    help_en: str = ""
    help_de: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[tuple[str, str, str], ...] = ()

    def clean(self, raw: JSON) -> JSON:
        """Return the typed value for ``raw`` or raise BadOptions with a clear message."""
        if raw is None:
            return self.default
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.lower() in ("true", "1", "on", "yes"):
                return True
            if isinstance(raw, str) and raw.lower() in ("false", "0", "off", "no", ""):
                return False
            raise BadOptions(f"Option '{self.key}' must be true or false.",
                             f"Die Option „{self.label_de}“ ('{self.key}') muss true oder false sein.")
        if self.kind == "int":
            try:
                value = int(raw)
            except (TypeError, ValueError):
                raise BadOptions(f"Option '{self.key}' must be a whole number.",
                                 f"Die Option „{self.label_de}“ ('{self.key}') muss eine ganze Zahl sein.") from None
            if isinstance(raw, bool) or (isinstance(raw, float) and raw != value):
                raise BadOptions(f"Option '{self.key}' must be a whole number.",
                                 f"Die Option „{self.label_de}“ ('{self.key}') muss eine ganze Zahl sein.")
            if self.min is not None and value < self.min:
                raise BadOptions(f"Option '{self.key}' must be at least {self.min}.",
                                 f"Die Option „{self.label_de}“ ('{self.key}') muss mindestens {self.min} sein.")
            if self.max is not None and value > self.max:
                raise BadOptions(f"Option '{self.key}' must be at most {self.max}.",
                                 f"Die Option „{self.label_de}“ ('{self.key}') darf höchstens {self.max} sein.")
            return value
        if self.kind == "choice":
            allowed = [c[0] for c in self.choices]
            if raw not in allowed:
                raise BadOptions(f"Option '{self.key}' must be one of: {', '.join(allowed)}.",
                                 f"Die Option „{self.label_de}“ ('{self.key}') muss einer dieser Werte sein: "
                                 f"{', '.join(allowed)}.")
            return raw
        raise BadOptions(f"Option '{self.key}' has unknown kind {self.kind!r}.",
                         f"Die Option '{self.key}' hat die unbekannte Art {self.kind!r}.")

    def schema(self) -> dict:
        data = {
            "key": self.key, "type": self.kind, "default": self.default,
            "label": {"en": self.label_en, "de": self.label_de},
            "help": {"en": self.help_en, "de": self.help_de},
        }
        if self.kind == "int":
            data.update(min=self.min, max=self.max)
        if self.kind == "choice":
            data["choices"] = [{"value": v, "label": {"en": en, "de": de}} for v, en, de in self.choices]
        return data


@dataclass(frozen=True)
class SeatChoice:
    """A choice each player makes when taking a seat (e.g. Der Orden's deck).

    The allowed values may depend on the user (their own decks), so the platform asks the
    plugin's ``seat_choice_values(user_id)`` hook (see GamePlugin) for them; ``default`` is used
    when a player omits the choice.
    """

    key: str
    label_en: str
    label_de: str
    default: JSON = None

    def schema(self) -> dict:
        return {"key": self.key, "label": {"en": self.label_en, "de": self.label_de},
                "default": self.default}


@dataclass(frozen=True)
class GameMeta:
    slug: str
    name_en: str
    name_de: str
    min_players: int
    max_players: int
    engine_version: str
    options: tuple[Option, ...] = ()
    seat_choices: tuple[SeatChoice, ...] = ()
    summary_en: str = ""
    summary_de: str = ""

    def clean_options(self, raw: dict | None) -> dict:
        raw = dict(raw or {})
        unknown = set(raw) - {o.key for o in self.options}
        if unknown:
            names = ", ".join(sorted(unknown))
            raise BadOptions(f"Unknown option(s) for {self.slug}: {names}.",
                             f"Unbekannte Option(en) für {self.name_de}: {names}.")
        return {o.key: o.clean(raw.get(o.key)) for o in self.options}

    def check_players(self, players: JSON) -> int:
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions("The number of players must be a whole number.",
                             "Die Anzahl der Spieler muss eine ganze Zahl sein.")
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"{self.name_en} is played by {self.min_players} to {self.max_players} players.",
                f"{self.name_de} wird von {self.min_players} bis {self.max_players} Spielern gespielt.")
        return players

    def schema(self) -> dict:
        return {
            "slug": self.slug, "name": {"en": self.name_en, "de": self.name_de},
            "min_players": self.min_players, "max_players": self.max_players,
            "engine_version": self.engine_version,
            "options": [o.schema() for o in self.options],
            "seat_choices": [c.schema() for c in self.seat_choices],
            "summary": {"en": self.summary_en, "de": self.summary_de},
        }


@dataclass(frozen=True)
class OrderKind:
    """A kind of standing order a game lets a seat leave in advance (``platform.md``, "Playing
    over days"), e.g. Der Orden's ``reactions`` policy. ``schema`` is the JSON schema of one
    order object (its ``kind`` included); the texts say in one line what it does. ``labels``
    names fields and choices for people, per language: ``{"en": {"policy": "When a window
    opens", "policy.never": "never react", ...}, "de": {...}}`` (the table's forms show them
    instead of the raw values; not part of the API's shape). The generic ``premove`` kind is the platform's and is not
    declared here."""

    kind: str
    schema: dict
    text_en: str
    text_de: str
    labels: dict = field(default_factory=dict)

    def as_json(self) -> dict:  # the contract's shape (platform.md): labels are the table's
        return {"schema": self.schema, "text": {"en": self.text_en, "de": self.text_de}}

    def label(self, key: str, lang: str) -> str | None:
        return (self.labels.get("de" if lang == "de" else "en") or {}).get(key)


@dataclass
class Step:
    """The result of applying one action.

    events: JSON-able dicts describing what happened, in order. An event with a ``to`` key
    (a list of seats) is private to those seats; without it the event is public. The plugin's
    ``describe`` turns events into log lines.
    reveals: True if the action revealed hidden information or used randomness; such an
    action can never be taken back (undo).
    """

    state: State
    events: list[dict] = field(default_factory=list)
    reveals: bool = False


@runtime_checkable
class Engine(Protocol):
    """The pure rules of one game. Seats are ints 0..players-1 in table (clockwise) order."""

    meta: GameMeta

    def setup(self, players: int, options: dict, seed: int, choices: list[dict]) -> State:
        """A new game. ``options`` and ``choices`` (one dict per seat) are already cleaned."""

    def to_move(self, state: State) -> list[int]:
        """Seats that must act now: one seat, several during a reaction window, none at the end."""

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, each exactly as it would be posted."""

    def apply(self, state: State, seat: int, action: Action) -> Step:
        """Apply ``action`` for ``seat``; raise IllegalAction (with a reason) if it is not legal."""

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator). Never contains the RNG or others' secrets."""

    def outcome(self, state: State) -> dict | None:
        """None while the game runs; then ``{"placements": [{"seat", "place", "score"}]}``."""


class Plugin:
    """What a game package exposes as ``PLUGIN`` in its ``__init__``.

    Wraps the pure engine with presentation hooks the platform needs. Subclasses override
    what they need; everything here is still free of Django imports.
    """

    engine: Engine
    #: template (relative to the game's ``templates/`` folder) rendering the board for the
    #: game page; its context is documented in docs/writing-a-game.md ("The board's context").
    board_template: str = ""
    #: Deprecated (use ``stylesheets``): a template put once into the page's <head>. The site's
    #: CSP forbids an inline ``<style>``, so such a template may only link static files. Still
    #: included, with a DeprecationWarning when the games are loaded.
    board_styles: str = ""
    #: The bot that plays a seat by default (a bot entrant, "add bots", a timed-out or departed
    #: seat, the guided match's opponent). "": the first of ``"heuristic"``, ``"random"``, any
    #: declared bot, the platform's ``"random-legal"`` (``default_bot_name``).
    default_bot: str = ""
    # True: the platform passes ``board_context`` the last move's ``highlights`` as ``hl=`` (so a
    # board can mark what changed in Python rather than with a test per element in its template).
    board_context_takes_highlights: bool = False
    #: Where the package lives; set by ``games.registry`` when it loads the game (the folder of
    #: the plugin's module otherwise). Conventions (rules pages, static files) look there.
    package_dir: Path | None = None

    def __init__(self, engine: Engine):
        self.engine = engine

    def setup_recorded(self, engine_version: str, players: int, options: dict, seed: int,
                       choices: list[dict]) -> State:
        """The set-up of a match recorded under ``engine_version`` (its replay). An engine whose
        set-up changed keeps the old one behind ``setup_version(version, ...)``, so an older
        match's log still replays as it was played."""
        old = getattr(self.engine, "setup_version", None)
        if old is not None and engine_version and engine_version != self.meta.engine_version:
            return old(engine_version, players, options, seed, choices)
        return self.engine.setup(players, options, seed, choices)

    @property
    def meta(self) -> GameMeta:
        return self.engine.meta

    # -- seat choices -----------------------------------------------------------------------
    def seat_choice_values(self, key: str, user_id: int | None) -> list[tuple[str, str]]:
        """(value, label) pairs a user may pick for a seat choice; a label is a string or a
        (German, English) pair. Default: none declared."""
        return []

    def clean_choices(self, raw: dict | None, user_id: int | None) -> dict:
        raw = dict(raw or {})
        declared = {c.key: c for c in self.meta.seat_choices}
        unknown = set(raw) - set(declared)
        if unknown:
            names = ", ".join(sorted(unknown))
            raise BadOptions(f"Unknown choice(s) for {self.meta.slug}: {names}.",
                             f"Unbekannte Auswahl für {self.meta.name_de}: {names}.")
        cleaned = {}
        for key, choice in declared.items():
            value = raw.get(key, choice.default)
            allowed = [v for v, _ in self.seat_choice_values(key, user_id)]
            if allowed and value not in allowed:
                values = ", ".join(map(str, allowed))
                raise BadOptions(f"Choice '{key}' must be one of: {values}.",
                                 f"Die Auswahl „{choice.label_de}“ ('{key}') muss einer dieser Werte sein: {values}.")
            cleaned[key] = value
        return cleaned

    def timed_default(self, state: State, seat: int, options: dict) -> tuple[float, Action] | None:
        """A short deadline the rules give this seat's current decision: ``(hours, action)``
        means "if the seat has not acted within ``hours``, the platform plays ``action`` for it"
        (Der Orden: an unanswered reaction window is declined). None: no such deadline; the
        match's normal clock applies."""
        return None

    def time_limit_days(self, options: dict) -> int | None:
        """Days after its start at which a match ends by the tie-break (an invitation option of
        the game, e.g. Der Orden's time limit). None: no limit."""
        return None

    def resolve_choices(self, choices: list[dict]) -> list[dict]:
        """Turn stored seat choices into what ``setup`` needs (e.g. a deck id into its cards).
        Called once when the match starts; the result is stored in the match's setup record."""
        return choices

    # -- orders (decisions left in advance) -----------------------------------------------
    def order_kinds(self) -> tuple[OrderKind, ...]:
        """The game's own order kinds (listed in ``GET /api/games/`` as ``orders``). Default: none."""
        return ()

    def clean_order(self, order: dict) -> dict:
        """A game order as stored, checked against its kind; raise BadOptions (en/de) for an
        unknown kind or a bad field. Called by the platform for every order that is not a
        ``premove``."""
        raise BadOptions(f"{self.meta.name_en} knows no order of kind {order.get('kind')!r}.",
                         f"{self.meta.name_de} kennt keine Anweisung der Art {order.get('kind')!r}.")

    def ordered_action(self, state: State, seat: int, orders: list[dict]) -> Action | None:
        """The action that ``seat``'s standing game orders (cleaned, in the seat's order) take
        now, or None to leave the decision to the person. Asked by the platform whenever the
        seat is in ``to_move(state)`` and holds game orders, inside the transaction of the change
        that handed it the decision, so an order answers in the same step as the decision
        opens. The action must be one of ``legal_actions(state, seat)``. Pure and deterministic."""
        return None

    def premove_actions(self, state: State, seat: int) -> list[Action]:
        """The actions ``seat`` may queue as premoves while it waits: those its next decision
        would offer if it came now (the table shows them as the board's move forms, posting to
        "queue"). Default: none, the game cannot tell (e.g. Der Orden, whose next decision
        depends on what the others do; its own order kinds cover it). Queued ones are checked
        again when the turn comes. Pure."""
        return []

    def premove_due(self, state: State, seat: int) -> bool:
        """Whether ``seat``'s queued moves are tried now that it is to move. Default: always. A
        game whose seat is also asked between its turns (Der Orden's reaction windows and
        payments) keeps them for the seat's own turn instead of dropping them there. Pure."""
        return True

    def premove_text(self, state: State, seat: int, action: Action, lang: str) -> str | None:
        """A queued move named for its owner's table, with the state at hand (e.g. the card
        an instance id names); only ever shown to ``seat``. Default: ``action_text``."""
        return self.action_text(action, lang)

    def action_text(self, action: Action, lang: str) -> str | None:
        """One line naming an action not yet played (a queued move on its owner's table), in
        ``lang``; None: the platform's generic label (its type and fields)."""
        return None

    # -- the guided match's suggestion --------------------------------------------------------
    #: The bot whose choice the guided match suggests to a learner: the game's strongest.
    #: "" (default): the last of ``bots()``, which lists them from the weakest to the strongest.
    hint_bot: str = ""

    def suggestion_text(self, view: dict, seat: int, action: Action, lang: str) -> tuple[str, str] | None:
        """A suggested move (the hint bot's choice for ``seat``) in words of ``lang``: (what the
        move is, one short sentence why it is good). ``view`` is ``seat``'s own view, so the words
        name only what the seat may see. None (default): the platform names the move by
        ``action_text`` and says only that the strongest bot would choose it."""
        return None

    # -- presentation -----------------------------------------------------------------------
    def board_context(self, view: dict, seat: int | None, legal: list[Action], lang: str) -> dict:
        """Extra, pre-computed context for ``board_template`` (templates use only Django's
        built-in tags and filters, so shape the data here). Two keys the table reads itself:
        ``seat_summaries`` (one short line per seat, in seat order: the players strip) and
        ``seat_details`` (per seat, a list of short lines shown on demand); see
        docs/writing-a-game.md. A key
        the platform's own context already has (``match``, ``version``, ``act_url``, …) is
        dropped with a warning: the board cannot overwrite it."""
        return {}

    def highlights(self, events: list[dict], view: dict) -> dict:
        """What the last move changed, for the board to mark (e.g. ``{"cauldrons": [2]}``).
        ``events`` are the last action's events the viewer may see; keys and values are the
        game's own (its board template reads them as ``hl``). Default: nothing marked."""
        return {}

    def describe(self, event: dict, names: list[str], lang: str) -> str:
        """One log line for an event, in ``lang`` ("de" or "en"); ``names`` are seat names."""
        return event.get("type", "?")

    def action_from_form(self, data: dict[str, str]) -> Action:
        """Build an action from a submitted HTML form (the board partial's fields).

        Default: the form has one field ``action`` holding the action as JSON.
        """
        from games import safejson

        try:  # a stranger's text: nesting is bounded (no RecursionError), NUL refused
            action = safejson.loads(data.get("action", ""))
        except (TypeError, ValueError):
            raise IllegalAction("The move could not be read.", "Der Zug konnte nicht gelesen werden.") from None
        if not isinstance(action, dict):
            raise IllegalAction("The move could not be read.", "Der Zug konnte nicht gelesen werden.")
        return action

    def public_action(self, action: Action, seat: int, viewer: int | None) -> Action:
        """A logged action of ``seat`` as another seat ``viewer`` (None: a spectator) sees it
        while the match runs (the API log, the export). Default: all of it."""
        return action

    def tiebreak_scores(self, state: State) -> list[float] | None:
        """For an unfinished game: a score per seat by the game's own tie-break (used when a
        tournament round's deadline ends a match as a modified win). None if not supported."""
        return None

    def placements_at_time_limit(self, state: State) -> list[dict] | None:
        """The outcome's ``placements`` (``{seat, place, score, rank?}``, one per seat) when a
        time limit ends the match unfinished, by the game's own rule (Der Orden: rank reached,
        its tie-break list, then the lot from the state's RNG). Deterministic. None: the
        platform places by ``tiebreak_scores`` (equal scores share a place)."""
        return None

    def apply_penalty(self, state: State, seat: int, penalty: str) -> Step | None:
        """A judge's game penalty on a running match (Der Orden: ``"descend_rank"``, „Abstieg
        um einen Rang“). None: the game has no such penalty (it stays an instruction)."""
        return None

    #: Parts of the state no view shows that ``resample_hidden`` leaves as they are, with the
    #: reason: ``{path pattern: why}`` (e.g. ``"ci[*]"``; ``*`` stands for one index or key).
    #: The conformance suite's rule resample-covers accepts exactly these (docs/conformance.md).
    fixed_secrets: dict[str, str] = {}

    def form_fields(self, action: Action) -> dict[str, str] | None:
        """The fields the board's form posts for ``action``, if the game uses its own fields
        (the suite checks that ``action_from_form`` turns them back into ``action``). None: the
        default form (one field ``action``) or not declared (the suite then renders the board)."""
        return None

    def resample_hidden(self, state: State, seat: int | None, rng) -> State:
        """A copy of ``state`` that every seat other than ``seat`` cannot tell apart from it:
        ``seat``'s own secrets (``None``: only what nobody sees, e.g. the bag's order and the
        RNG) are redrawn consistently with everything public. The conformance suite checks that
        every other seat's view (and the spectator's) is identical for both states, which
        proves no view leaks those secrets (OpenSpiel's "resample from information state").
        ``rng`` is a games.rng.Rng."""
        raise NotImplementedError

    def bots(self) -> dict[str, Any]:
        """Named bots: ``{"random": callable(state, seat, rng) -> action, ...}``."""
        return {}

    # -- the kit: what a game brings to the site beyond the table ---------------------------
    # Every hook below is optional; its default works for a game that declares nothing
    # (docs/writing-a-game.md, "Hooks"). Pure Python, like everything in this class.

    def default_bot_name(self) -> str:
        """The name of the bot that plays a seat when nobody chose one (``default_bot``)."""
        bots = self.bots()
        if self.default_bot and self.default_bot in bots:
            return self.default_bot
        for name in ("heuristic", "random"):  # the convention before ``default_bot`` existed
            if name in bots:
                return name
        return next(iter(bots), "random-legal")

    def home(self) -> Path:
        """The game package's folder (``package_dir``, else the folder of the plugin's module)."""
        if self.package_dir is not None:
            return Path(self.package_dir)
        module = sys.modules.get(type(self).__module__)
        return Path(getattr(module, "__file__", ".")).resolve().parent

    def rules_template(self, lang: str) -> str | None:
        """The template of the rules page in ``lang`` ("de"/"en"), or None: the page shows the
        meta's summary. Default by convention: the package's own
        ``templates/frontend/rules/<slug>.<lang>.html`` when it exists."""
        name = f"frontend/rules/{self.meta.slug}.{'de' if lang == 'de' else 'en'}.html"
        return name if (self.home() / "templates" / name).is_file() else None

    def stylesheets(self) -> tuple[str, ...]:
        """Static paths of the board's style sheets, linked in the page's ``<head>`` (the CSP
        allows no inline ``<style>``). Default by convention: every ``static/<slug>/*.css``."""
        folder = self.home() / "static" / self.meta.slug
        return tuple(f"{self.meta.slug}/{p.name}" for p in sorted(folder.glob("*.css")))

    def scripts(self) -> tuple[str, ...]:
        """Static paths of the board's scripts, loaded with ``defer`` from the page's ``<head>``
        (no inline script: the CSP). Default by convention: every ``static/<slug>/*.js``."""
        folder = self.home() / "static" / self.meta.slug
        return tuple(f"{self.meta.slug}/{p.name}" for p in sorted(folder.glob("*.js")))

    def guide(self) -> dict:
        """The guided first match's texts: ``{"intro": (en, de), "hints": {action type: (en,
        de)}}``; a hint is shown for each kind of legal move the learner has. Default: the
        summary as the intro, no hints. Every game with a bot has a guided match."""
        return {"intro": (self.meta.summary_en, self.meta.summary_de), "hints": {}}

    def start_seat(self, state: State) -> int | None:
        """The seat that moves first in a freshly set-up ``state`` (statistics: the start
        player's share of wins). Default: the one seat ``to_move`` names, else None."""
        seats = self.engine.to_move(state)
        return seats[0] if len(seats) == 1 else None

    def stats_summary(self, view: dict, choices: list[dict]) -> dict | None:
        """What the statistics keep of a finished match beyond the generic figures, from its
        final spectator ``view`` and the seats' resolved ``choices``; a JSON-able dict or None.
        Must tolerate older views (a stored summary is never recomputed)."""
        return None

    def stats_groups(self, summary: dict) -> dict[str, list] | None:
        """Win shares by what a seat played with (a school, a deck, a path): ``{group title key:
        [label key per seat]}`` from one ``stats_summary``; the statistics page shows, per group,
        each label's share of wins. Keys are looked up in ``stats_labels``. Default: none."""
        return None

    def stats_labels(self, lang: str) -> dict[str, str]:
        """People's words in ``lang`` for the keys ``stats_groups`` and ``stats_figures`` use
        (group titles and labels); a key without one is shown as it is."""
        return {}

    def stats_colours(self) -> dict[str, str]:
        """A CSS colour per label key of ``stats_groups`` (e.g. a school's colour); default: the
        site's bar colour."""
        return {}

    def stats_figures(self, summaries: list[dict], lang: str) -> list[dict]:
        """The game's own sections of its statistics page, from its ``stats_summary`` dicts
        (newest first), in ``lang``. Each section: ``{"id", "title", "bars": [(label, value)],
        "unit": "" | " %", "max": number | None, "colours": [css colour] | None, "note": ""}``;
        the platform draws the bars (server-side SVG). Default: none."""
        return []

    def league_rank_points(self) -> dict[str, Any] | None:
        """League scoring by rank reached (Der Orden's "Ligawertung"): the label a placement's
        ``rank`` carries -> league points (numbers or decimal strings, e.g. ``"6.5"``; ``"0"``
        for no rank). None: leagues score by placement."""
        return None

    def showcase(self) -> dict:
        """A position worth a screenshot or a balance look: ``{"players": n, "moves": k}``
        random-bot moves after the set-up; ``showcase_ready(state)`` may hold out for a nicer
        moment (the tools play on until it says yes)."""
        return {"players": min(max(self.meta.min_players, 3), self.meta.max_players), "moves": 10}

    def showcase_ready(self, state: State) -> bool:
        return True
