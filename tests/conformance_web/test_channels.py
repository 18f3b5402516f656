"""The conformance suite's proofs on the channels that go through Django: the match export,
replays, notification texts, the API's match and log, and the board's rendered move forms.

Metamorphic, through the real services and presenters: a match and its *twin* are played with
the same people and the same moves; the twin's game is the same plugin whose set-up redraws
every secret the watching seat cannot see (``resample_hidden`` for every other seat and for what
nobody sees, the RNG included). While the watcher's own view stays the same in both, everything
it receives on every channel must be the same too (ids, times and the game's key made equal).
The pure channels are proved in tests/conformance/; this module is the platform's half.
"""
from __future__ import annotations

import copy
import html.parser
import itertools
import json
import re

import pytest
from django.db import transaction

from games import registry
from games.base import IllegalAction
from games.rng import Rng
from matches import services
from tests.conformance import proofs
from tests.support.chipgame import PLUGIN as CHIPS

pytestmark = pytest.mark.django_db

STEPS = 30


class TwinEngine:
    """The engine of ``plugin`` whose set-up redraws everything ``keep`` cannot see."""

    def __init__(self, plugin, keep):
        self._plugin, self._keep = plugin, keep
        self.meta = plugin.engine.meta

    def setup(self, players, options, seed, choices):
        state = self._plugin.engine.setup(players, options, seed, choices)
        return proofs.redraw(self._plugin, state, self._keep, Rng(seed ^ 0x7157))

    def __getattr__(self, name):
        return getattr(self._plugin.engine, name)


def twin_of(plugin, keep):
    twin = copy.copy(plugin)
    twin.engine = TwinEngine(plugin, keep)
    return twin


@pytest.fixture
def games():
    """Registers the extra games of a test (its twins, broken copies) and removes them after."""
    added = []

    def register(key, plugin):
        registry.plugins()[key] = plugin
        added.append(key)
        return key

    yield register
    for key in added:
        registry.plugins().pop(key, None)


def _start(key, plugin, users, seed, options):
    entrants = [{"user": u, "bot": "", "choices": plugin.clean_choices({}, None)} for u in users]
    with transaction.atomic():
        return services.start_match(game=key, entrants=entrants, options=options, seed=seed, public=False)


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks):
    """Runs what the services do after a commit (live frames, notifications, clocks), as the
    site does; a test transaction never commits."""
    def run(call, *args):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args)
    return run


def _normal(text: str, ids: dict, keys: dict) -> str:
    for real, alias in ids.items():
        text = re.sub(rf"(?<![0-9A-Za-z]){real}(?![0-9A-Za-z])", alias, text)
    for real, alias in keys.items():
        text = text.replace(real, alias)
    text = re.sub(r"\d{4}-\d\d-\d\dT[0-9:.+\-Z]+", "<time>", text)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "csrf", text)
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "csrf", text)
    return re.sub(r'nonce="[^"]+"', "nonce", text)


def _channels(client, match, seat_user, lang):
    """Everything the watching user receives about ``match`` (the channels compared)."""
    from notifications.kinds import text
    from notifications.models import Notification

    client.force_login(seat_user)
    headers = {"HTTP_ACCEPT_LANGUAGE": lang}
    seat_user.profile.language = lang
    seat_user.profile.save(update_fields=["language"])
    out = {"export": client.get(f"/matches/{match.pk}/export.json", **headers).content.decode(),
           "api": client.get(f"/api/matches/{match.pk}/", **headers).content.decode(),
           "api_log": client.get(f"/api/matches/{match.pk}/log/", **headers).content.decode()}
    seqs = list(match.log.order_by("seq").values_list("seq", flat=True))
    for at in [0, *seqs]:
        for seat in ("", "public"):
            page = client.get(f"/matches/{match.pk}/replay/?at={at}&seat={seat}", **headers).content.decode()
            out[f"replay {at} {seat or 'own'}"] = page
    out["notifications"] = json.dumps(sorted(
        (n.kind, text(n.kind, n.data, lang)) for n in
        Notification.objects.filter(user=seat_user, match=match)), default=str)
    return out


def prove_channels(plugin, key, users, client, games, after_commit, watcher=0, seed=7, options=None, steps=STEPS):
    """Plays ``plugin`` and its twin for ``watcher`` side by side through the services; returns the
    number of moves compared. Raises proofs.Breach naming the channel that differs."""
    options = plugin.meta.clean_options(options or {})
    twin_key = games(f"{key}~twin", twin_of(plugin, {watcher}))
    real = after_commit(_start, key, plugin, users, seed, options)
    twin = after_commit(_start, twin_key, registry.get(twin_key), users, seed, options)
    engine, rng, played = plugin.engine, Rng(seed), 0
    seat_user = real.seats.get(seat=watcher).user
    assert twin.seats.get(seat=watcher).user == seat_user  # seats by lot from the same seed
    assert proofs.dump(real.state) != proofs.dump(twin.state), "the twin redrew nothing: the proof would be empty"
    for _ in range(steps):
        real.refresh_from_db()
        twin.refresh_from_db()
        movers = engine.to_move(real.state)
        if not movers or movers != engine.to_move(twin.state):
            break
        mover = movers[rng.below(len(movers))]
        legal = engine.legal_actions(real.state, mover)
        start = rng.below(len(legal))
        action = None
        for cand in legal[start:] + legal[:start]:  # a move after which the watcher sees alike
            try:
                a = engine.apply(real.state, mover, cand)
                b = engine.apply(twin.state, mover, cand)
            except IllegalAction:
                continue  # the move depends on what the twin redrew
            if proofs.dump(engine.view(a.state, watcher)) == proofs.dump(engine.view(b.state, watcher)):
                action = cand
                break
        if action is None:
            break  # every move shows the watcher something new (a draw, a reveal): compared up to here
        user = real.seats.get(seat=mover).user
        after_commit(services.submit_action, real.pk, user, action, real.version)
        after_commit(services.submit_action, twin.pk, user, action, twin.version)
        played += 1
    real.refresh_from_db()
    twin.refresh_from_db()
    for lang in ("en", "de"):
        seen = _channels(client, real, seat_user, lang)
        other = _channels(client, twin, seat_user, lang)
        ids = {str(real.pk): "<match>", str(twin.pk): "<match>"}
        keys = {twin_key: "<game>", f'"{key}"': '"<game>"', f"/{key}/": "/<game>/", f"{key}-": "<game>-"}
        for channel in seen:
            x, y = _normal(seen[channel], ids, keys), _normal(other[channel], ids, keys)
            if x != y:
                at = next(i for i, (p, q) in enumerate(zip(x, y)) if p != q) if x[:len(y)] != y[:len(x)] else min(len(x), len(y))
                raise proofs.Breach(
                    "events-hide", f"channel {channel!r} ({lang}) for seat {watcher} differs when what it cannot see "
                    f"is redrawn, after {played} moves: …{x[max(0, at - 120):at + 120]!r}… vs "
                    f"…{y[max(0, at - 120):at + 120]!r}…", real.state, f"{key}, seed {seed}")
    return played


def _every_game():
    for slug, plugin in sorted(registry.plugins().items()):
        if "~" not in slug and slug != "chipduell-broken":
            yield pytest.param(slug, id=slug)


@pytest.mark.parametrize("slug", list(_every_game()))
def test_every_channel_keeps_the_secrets(slug, make_user, client, games, after_commit):
    plugin = registry.get(slug)
    # Three seats where the game allows: more moves stay hidden from the watcher (Goofspiel: two
    # sealed bids lie on the table before the reveal turns up a new prize).
    users = [make_user(f"p{i}") for i in range(min(3, plugin.meta.max_players))]
    played = prove_channels(plugin, slug, users, client, games, after_commit)
    assert played > 0, "no move compared: the proof saw nothing"


def test_the_chip_duel_passes_and_a_leaking_copy_fails(make_user, client, games, after_commit):
    from tests.conformance.test_suite_catches import BROKEN

    users = [make_user(f"p{i}") for i in range(3)]
    games("chipduell", CHIPS)
    assert prove_channels(CHIPS, "chipduell", users, client, games, after_commit) > 3
    broken = BROKEN["events-hide"]  # a public event naming the next hidden card
    games("chipduell-broken", broken)
    with pytest.raises(proofs.Breach, match=r"channel '(export|api_log)'"):
        prove_channels(broken, "chipduell-broken", users, client, games, after_commit)


# -- the board's forms -------------------------------------------------------------------------------
class Forms(html.parser.HTMLParser):
    """The move forms of a rendered page: fixed fields, and the alternatives of radio groups,
    selects and submit buttons."""

    def __init__(self, act_url):
        super().__init__()
        self.act_url, self.forms, self.form, self.select = act_url, [], None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("action") == self.act_url:
            self.form = {"fixed": {}, "choices": {}, "buttons": []}
        if self.form is None:
            return
        name = a.get("name")
        if tag == "input" and name and name not in ("csrfmiddlewaretoken", "version"):
            kind = a.get("type", "text")
            if kind in ("radio", "checkbox"):
                self.form["choices"].setdefault(name, [] if kind == "radio" else [None]).append(a.get("value", "on"))
            elif kind == "number" and a.get("min") and a.get("max"):
                self.form["choices"][name] = [str(v) for v in range(int(a["min"]), int(a["max"]) + 1)]
            elif kind != "submit":
                self.form["fixed"][name] = a.get("value", "")
        if tag == "select" and name:
            self.select = name
            self.form["choices"][name] = []
        if tag == "option" and self.select:
            self.form["choices"][self.select].append(a.get("value", ""))
        if tag == "button" and a.get("type", "submit") == "submit" and not a.get("disabled"):
            self.form["buttons"].append((name, a.get("value", "")) if name else None)

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        if tag == "form" and self.form is not None:
            self.forms.append(self.form)
            self.form = None

    def submissions(self, limit=5000):
        for form in self.forms:
            names = list(form["choices"])
            for combo in itertools.islice(itertools.product(*(form["choices"][n] for n in names)), limit):
                data = dict(form["fixed"])
                data.update({n: v for n, v in zip(names, combo) if v is not None})
                for button in form["buttons"] or [None]:
                    yield {**data, **({button[0]: button[1]} if button else {})}


@pytest.mark.parametrize("slug", list(_every_game()))
def test_every_legal_action_has_a_form_that_posts_it(slug, make_user, client):
    """Rule form-round-trip on the rendered board: on sampled positions, the mover's page offers
    a form (with its choices) for every legal action."""
    forms_post_every_action(registry.get(slug), slug, make_user, client)


def test_the_form_rule_fails_on_a_form_that_loses_a_field(make_user, client, games):
    from tests.conformance.test_suite_catches import BROKEN

    games("chipduell-broken", BROKEN["form-round-trip"])  # the card comes back as text
    with pytest.raises(proofs.Breach, match=r"\[form-round-trip\]"):
        forms_post_every_action(BROKEN["form-round-trip"], "chipduell-broken", make_user, client)


def forms_post_every_action(plugin, slug, make_user, client):
    from django.urls import reverse

    engine = plugin.engine
    users = [make_user(f"p{i}") for i in range(plugin.meta.min_players)]
    match = _start(slug, plugin, users, 11, plugin.meta.clean_options({}))
    rng, checked = Rng(11), 0
    for step in range(40):
        match.refresh_from_db()
        movers = engine.to_move(match.state)
        if not movers:
            break
        mover = movers[0]
        legal = engine.legal_actions(match.state, mover)
        if step % 4 == 0:
            client.force_login(match.seats.get(seat=mover).user)
            page = client.get(f"/matches/{match.pk}/live/").content.decode()
            forms = Forms(reverse("match-act", args=[match.pk]))
            forms.feed(page)
            posted = set()
            for data in forms.submissions():
                try:
                    action = plugin.action_from_form(data)
                except IllegalAction:
                    continue  # a form needing a choice the defaults do not make
                posted.add(proofs.dump(action))
            missing = [a for a in legal if proofs.dump(a) not in posted]
            if missing:
                raise proofs.Breach("form-round-trip", f"{len(missing)} of {len(legal)} legal actions of seat {mover} "
                                    f"have no form on its page, e.g. {missing[0]!r}", match.state, f"{slug}, step {step}")
            checked += 1
        services.submit_action(match.pk, match.seats.get(seat=mover).user, legal[rng.below(len(legal))], match.version)
    assert checked
