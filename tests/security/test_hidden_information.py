"""The hidden-information scanner, for every registered game.

A match is played with random legal moves; at checkpoints, everything each seat and a
spectator receives is collected: every GET route about the match from the URLconf (game page,
live part, API match/log/legal-actions, replays and exports when present), the error bodies of
refused API requests, and the websocket frames each group gets from ``live.publish``.

Then, for every other seat (and for what nobody may see, seat None), the stored state is
replaced by ``plugin.resample_hidden(state, other)`` — the same public situation with that
seat's secrets redrawn — and everything is collected again. What a viewer receives must be
byte-for-byte the same (up to CSRF tokens): then nothing in it depends on the others' secrets.
Log lines (not derived from the state) are checked separately: an event addressed to other
seats never shows its text to this viewer. A seat's private notes are varied the same
way: another seat writing notes changes nothing anyone else receives (``check_notes``).
"""
from __future__ import annotations

import asyncio
import json
import random
import re
from contextlib import contextmanager

import pytest
from asgiref.sync import async_to_sync
from channels.layers import DEFAULT_CHANNEL_LAYER, InMemoryChannelLayer, channel_layers, get_channel_layer
from django.test import Client

from games import registry
from games.rng import Rng
from matches import live, presenters
from matches import notes
from matches.models import LogEntry, Match, SeatNote
from matches.services import start_match, submit_action
from tests.security.routes import match_routes

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = re.compile(r"(csrfmiddlewaretoken\" value=\"|csrf_token\W+|X-CSRFToken\W+)[A-Za-z0-9]{32,64}")
CHECKPOINTS = (0, 4, 9)


def normalize(body: bytes) -> str:
    return CSRF.sub(r"\1<csrf>", body.decode("utf-8", "replace"))


def players_for(plugin) -> int:
    return max(plugin.meta.min_players, min(3, plugin.meta.max_players))


def _version_of(text: str):
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data.get("version") if isinstance(data, dict) else None


class Viewers:
    def __init__(self, match: Match, users: list):
        self.match = match
        self.seat_user = {s.seat: s.user for s in match.seats.all()}
        self.clients = {None: Client()}
        for seat, user in self.seat_user.items():
            client = Client()
            client.force_login(user)
            self.clients[seat] = client

    def http(self, viewer) -> dict:
        client, pk = self.clients[viewer], self.match.pk
        got = {}
        for route in match_routes():
            url = route.url(pk=pk)
            r = client.get(url)
            got[url] = (r.status_code, normalize(r.content) if r.status_code != 302 else r["Location"])
            if route.name in ("match", "api-log"):  # the German texts are a code path of their own
                r = client.get(url, {"lang": "de"})
                got[url + "?de"] = (r.status_code, normalize(r.content) if r.status_code != 302 else r["Location"])
        # Refused requests: their messages must not depend on others' secrets either.
        for name, body in (("bogus", {"action": {"type": "zz-not-a-move"}, "version": self.match.version}),
                           ("stale", {"action": {"type": "zz"}, "version": self.match.version + 99})):
            r = client.post(f"/api/matches/{pk}/actions/", body, content_type="application/json")
            got[name] = (r.status_code, normalize(r.content))
        return got

    def frames(self) -> dict:
        """What each group receives from one publish of the current version."""
        layer = get_channel_layer()
        # Listen on a layer of our own: a shared Redis layer keeps a receive lock that a previous
        # test's event loop may still hold; the in-memory layer only delivers within itself.
        if not isinstance(layer, InMemoryChannelLayer):
            layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        groups = {seat: live.seat_group(self.match.pk, seat) for seat in self.seat_user}
        groups[None] = live.public_group(self.match.pk)

        async def capture():
            channels = {}
            for viewer, group in groups.items():
                channels[viewer] = await layer.new_channel()
                await layer.group_add(group, channels[viewer])
            from channels.db import database_sync_to_async

            version = await database_sync_to_async(
                lambda: Match.objects.values_list("version", flat=True).get(pk=self.match.pk))()
            await database_sync_to_async(live.publish)(self.match.pk, version)
            out = {}
            for viewer, channel in channels.items():
                texts = []
                while True:
                    try:
                        # The first frame is already in the layer; a loaded machine may take a while to hand it over.
                        message = await asyncio.wait_for(layer.receive(channel), 5.0 if not texts else 0.2)
                    except asyncio.TimeoutError:
                        break
                    if _version_of(message["text"]) in (None, version):  # not a late frame of an earlier move
                        texts.append(message["text"])
                out[viewer] = sorted(set(texts))  # a late copy of the same frame tells nothing new
                await layer.group_discard(groups[viewer], channel)
            if hasattr(layer, "close_pools"):
                await layer.close_pools()
            return out

        return async_to_sync(capture)()

    def everything(self) -> dict:
        frames = self.frames()
        return {viewer: {"http": self.http(viewer), "ws": frames[viewer]} for viewer in self.clients}


def scan_log(plugin, match: Match, viewers: Viewers, seen: dict) -> None:
    """Texts of events addressed to other seats never reach this viewer (while the match runs)."""
    names = presenters.seat_names(list(match.seats.all()))
    for entry in LogEntry.objects.filter(match=match):
        for event in entry.events or []:
            to = event.get("to")
            if to is None:
                continue
            for viewer in viewers.clients:
                if viewer in to or match.status != Match.Status.ACTIVE:
                    continue
                for lang in ("en", "de"):
                    secret = plugin.describe(event, names, lang)
                    public = {plugin.describe(e, names, lang) for e in entry.events if e.get("to") is None}
                    if secret in public:
                        continue
                    blob = "".join(body for _, body in seen[viewer]["http"].values())
                    assert secret not in blob, f"seat {viewer} sees {secret!r} meant for {to}"


def games():
    for slug in sorted(registry.plugins()):
        yield slug


@pytest.mark.parametrize("slug", list(games()))
def test_nothing_served_depends_on_other_seats_secrets(slug, django_user_model):
    plugin = registry.get(slug)
    n = players_for(plugin)
    users = [django_user_model.objects.create_user(f"{slug[:8]}{i}", password="x") for i in range(n)]
    match = start_match(game=slug, entrants=[{"user": u, "bot": "", "choices": {}} for u in users],
                        options={}, public=True, seed=4242)
    viewers = Viewers(match, users)
    rng = random.Random(7)
    checked = notes_compared = 0
    for step in range(max(CHECKPOINTS) + 1):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if step in CHECKPOINTS:
            checked += check_checkpoint(plugin, match, viewers, step)
            if step == NOTES_AT:
                notes_compared = check_notes(match, viewers, step)
        seat = match.to_move[0]
        action = rng.choice(plugin.engine.legal_actions(match.state, seat))
        submit_action(match.pk, viewers.seat_user[seat], action, match.version)
    assert checked >= 3, "the scanner compared too few situations"
    assert notes_compared >= players_for(plugin) * (players_for(plugin) - 1), "the notes were not scanned"


def check_checkpoint(plugin, match: Match, viewers: Viewers, step: int) -> int:
    with standing_times(match):
        return _check_checkpoint(plugin, match, viewers, step)


def _check_checkpoint(plugin, match: Match, viewers: Viewers, step: int) -> int:
    # Viewing has side effects that are not secrets (opening the match reads its
    # notifications, so the bell on later pages differs): let them settle first.
    viewers.everything()
    baseline = viewers.everything()
    scan_log(plugin, match, viewers, baseline)
    original = match.state
    compared = 0
    for other in [*range(match.players), None]:
        redrawn = plugin.resample_hidden(original, other, Rng(1000 + step * 10 + (other or 9)))
        if redrawn == original:
            continue
        Match.objects.filter(pk=match.pk).update(state=redrawn)
        try:
            again = viewers.everything()
        finally:
            Match.objects.filter(pk=match.pk).update(state=original)
        for viewer in viewers.clients:
            if viewer == other and other is not None:
                continue  # the seat whose secrets changed may see them change
            for channel in ("http", "ws"):
                before, after = baseline[viewer][channel], again[viewer][channel]
                if before != after:
                    diff = [k for k in before if before[k] != after.get(k)] if channel == "http" else channel
                    pytest.fail(f"{plugin.meta.slug}, step {step}: what seat {viewer} receives ({diff}) "
                                f"changes when seat {other}'s hidden information is redrawn")
            compared += 1
    return compared


NOTES_AT = CHECKPOINTS[1]  # notes do not depend on the position: one checkpoint is enough


def check_notes(match: Match, viewers: Viewers, step: int) -> int:
    """Each seat in turn writes notes (long, with markup): what every other viewer receives
    stays byte-for-byte the same as with no notes at all, and never holds the text. Each seat
    gets a fresh baseline."""
    with standing_times(match):
        return _check_notes(match, viewers, step)


@contextmanager
def standing_times(match: Match):
    """The page's relative times ("1 minute ago", "71.9 h left") would change while a loaded
    machine collects: the log is moved a month back and the clocks stand meanwhile."""
    from datetime import timedelta

    from django.utils import timezone

    from clocks.models import SeatClock

    log_at = dict(LogEntry.objects.filter(match=match).values_list("pk", "at"))
    clock_at = dict(SeatClock.objects.filter(match=match).values_list("pk", "started_at"))
    LogEntry.objects.filter(match=match).update(at=timezone.now() - timedelta(days=30))
    SeatClock.objects.filter(match=match).update(started_at=None)
    try:
        yield
    finally:
        for pk, at in log_at.items():
            LogEntry.objects.filter(pk=pk).update(at=at)
        for pk, at in clock_at.items():
            SeatClock.objects.filter(pk=pk).update(started_at=at)


def _check_notes(match: Match, viewers: Viewers, step: int) -> int:
    compared = 0
    for other, user in viewers.seat_user.items():
        baseline = viewers.everything()
        secret = f"NOTE-{step}-{other}-<b>plan</b> " + "x" * (997 + 13 * other)
        notes.save(match.pk, user, secret)
        try:
            again = viewers.everything()
        finally:
            SeatNote.objects.filter(match=match).delete()
        for viewer in viewers.clients:
            if viewer == other:
                continue
            for channel in ("http", "ws"):
                before, after = baseline[viewer][channel], again[viewer][channel]
                if before != after:
                    diff = [k for k in before if before[k] != after.get(k)] if channel == "http" else channel
                    pytest.fail(f"step {step}: what seat {viewer} receives ({diff}) changes when seat {other} "
                                f"writes notes")
            blob = "".join(body for _, body in again[viewer]["http"].values()) + "".join(again[viewer]["ws"])
            assert f"NOTE-{step}-{other}" not in blob
            compared += 1
        # The writer does get them back (so the scan above looked where notes would show).
        assert f"NOTE-{step}-{other}" in "".join(body for _, body in again[other]["http"].values())
    return compared
