#!/usr/bin/env python
"""A simulated week of a busy player: how many turn mails and pushes, before and after the
attention rules (notifications/attention.py), and whether every turn that waited while the
player was away got exactly one notice.

    bench/run.py attention                # 20 weeks, seeds 1..20
    bench/run.py attention --weeks 100 --seed 7

The model: 12 matches of two players. When the player has moved, the opponent answers after a
random 1-24 h (uniform). The player visits the site 3-6 times a day (uniform start times
between 08:00 and 23:00, 5-30 minutes each) and plays every match that waits for them then,
one a minute, and those whose turn comes during the visit. The sweep runs every minute.

"before": a mail and a push for every turn, at once (the rule until now). "after": the rule
itself (``attention.decide`` and ``matches.presence.Presence``, the code the sweep runs) with
the default delays (mail 15 min, push 2 min), turn mails of one sweep coalesced and taking
along the other waiting turns, at most one an hour (no deadline is near in this model).

Figures: mails and pushes per day; per visit-gap (the away stretches between visits); notices
for a turn that came and was played while the player was on the site (goal 0); and the share of the turns
that stayed open longer than the delay while the player was away (counted from the later of
"the turn came" and "the player left", as the rule does) that got exactly one notice.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

MINUTE = 60.0
DAY = 86400.0
MATCHES = 12
MAIL_DELAY, PUSH_DELAY = 900.0, 120.0


def visits_of(rng: random.Random, days: int) -> list[tuple[float, float]]:
    out = []
    for day in range(days):
        for _ in range(rng.randint(3, 6)):
            start = day * DAY + rng.uniform(8 * 3600, 23 * 3600)
            out.append((start, start + rng.uniform(5, 30) * MINUTE))
    out.sort()
    merged = []
    for start, end in out:  # overlapping visits are one
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def week(seed: int, days: int = 7, once_per_absence: bool = False) -> dict:
    from matches.presence import ACTION_S, Presence
    from notifications.attention import SEND, SKIP, TURN_MAIL_GAP, decide

    rng = random.Random(seed)
    visits = visits_of(rng, days)
    end_time = days * DAY
    # Start: half the matches wait for the player, half for the opponent.
    mine = {m: (m % 2 == 0) for m in range(MATCHES)}
    answer_at = {m: rng.uniform(1, 24) * 3600 for m in range(MATCHES) if not mine[m]}
    turns = []  # {came, played, during_visit, mail, push}
    open_turn = {m: None for m in range(MATCHES)}
    for m in range(MATCHES):
        if mine[m]:
            open_turn[m] = {"came": 0.0, "played": None, "here": False, "mail": 0, "push": 0, "match": m}
            turns.append(open_turn[m])
    deferred = [[turn, channel, wait] for turn in turns for channel, wait in (("mail", MAIL_DELAY), ("push", PUSH_DELAY))]
    last_mail = None
    mails = pushes = 0
    before_mails = before_pushes = sum(1 for t in turns)
    vi = 0
    sources: dict[str, float] = {}
    t = 0.0
    while t < end_time:
        while vi < len(visits) and visits[vi][1] <= t:
            vi += 1
        here = vi < len(visits) and visits[vi][0] <= t < visits[vi][1]
        # Opponents answer: the turn comes to the player.
        for m, at in list(answer_at.items()):
            if at <= t:
                del answer_at[m]
                turn = {"came": t, "played": None, "here": here, "visit": vi, "mail": 0, "push": 0, "match": m}
                turns.append(turn)
                open_turn[m] = turn
                before_mails += 1
                before_pushes += 1
                deferred += [[turn, "mail", t + MAIL_DELAY], [turn, "push", t + PUSH_DELAY]]
        # The player on the site: the page's socket (refreshed), the last request; plays one a minute.
        if here:
            sources["0@p"] = t
            sources["act"] = t
            waiting = [m for m in range(MATCHES) if open_turn[m] is not None]
            if waiting:
                m = min(waiting, key=lambda k: open_turn[k]["came"])
                sources[f"{m + 1}@p"] = -t  # its page opened and left again: seen
                open_turn[m]["played"] = t
                open_turn[m]["taken_here"] = open_turn[m]["here"] and open_turn[m]["visit"] == vi
                open_turn[m] = None
                answer_at[m] = t + rng.uniform(1, 24) * 3600
        elif sources.get("0@p", -1) > 0:
            sources["0@p"] = -sources["0@p"]  # the page closed (the goodbye)
        # The sweep.
        presence = Presence(t, dict(sources))
        due_mail = []
        keep = []
        for item in deferred:
            turn, channel, not_before = item
            if not_before > t:
                keep.append(item)
                continue
            if turn["played"] is not None:
                continue  # played: skipped
            capped = (last_mail + TURN_MAIL_GAP.total_seconds()) if (channel == "mail" and last_mail) else None
            if once_per_absence and capped is not None and presence.left_at < last_mail:
                capped = t + 3600  # not back since the last turn mail: no other one (variant)
            verdict = decide(turn["came"], MAIL_DELAY if channel == "mail" else PUSH_DELAY, t, presence,
                             turn["match"] + 1, capped)
            if verdict == SKIP:
                continue
            if verdict != SEND:
                item[2] = verdict
                keep.append(item)
            elif channel == "push":
                turn["push"] += 1
                pushes += 1
            else:
                due_mail.append(turn)
        deferred = keep
        if due_mail:
            # One mail; the other waiting turns (open, unseen, not yet due) go along.
            along = [i for i in deferred if i[1] == "mail" and i[0]["played"] is None
                     and not presence.seen_match_since(i[0]["match"] + 1, i[0]["came"])]
            for i in along:
                deferred.remove(i)
            for turn in due_mail + [i[0] for i in along]:
                turn["mail"] += 1
            mails += 1
            last_mail = t
        t += MINUTE
    # Away stretches, and the turns that waited longer than the delay while the player was away.
    gaps = len(visits) - 1

    def left_before(at: float) -> float:
        """When the player last left the site, as of ``at`` (the visit under way included)."""
        prior = [e for s, e in visits if s <= at]
        return (prior[-1] + ACTION_S) if prior else 0.0

    stats = {"mail": [0, 0], "push": [0, 0]}  # channel -> [waited, exactly one notice]
    while_here = 0
    for turn in turns:
        if turn.get("taken_here"):  # came and was played in the same visit
            while_here += turn["mail"] + turn["push"]
            continue
        played = turn["played"] if turn["played"] is not None else end_time
        start = max(turn["came"], left_before(turn["came"]))
        back = [s for s, _ in visits if s >= start]  # away until the next visit (or the play)
        played = min(played, back[0]) if back else played
        for channel, wait in (("mail", MAIL_DELAY), ("push", PUSH_DELAY)):
            if played - start > wait + MINUTE:  # (the sweep runs once a minute)
                stats[channel][0] += 1
                stats[channel][1] += turn[channel] == 1
    return {"days": days, "visits": len(visits), "gaps": gaps, "turns": len(turns), "mails": mails,
            "pushes": pushes, "before_mails": before_mails, "before_pushes": before_pushes,
            "while_here": while_here, "stats": stats}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weeks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--once-per-absence", action="store_true",
                        help="a variant (not the site's rule): after a turn mail, none until the player was back")
    args = parser.parse_args()
    import django
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    runs = [week(args.seed + i, once_per_absence=args.once_per_absence) for i in range(args.weeks)]
    days = sum(r["days"] for r in runs)
    total = {k: sum(r[k] for r in runs) for k in ("visits", "gaps", "turns", "mails", "pushes", "before_mails",
                                                   "before_pushes", "while_here")}
    waited = {c: [sum(r["stats"][c][i] for r in runs) for i in (0, 1)] for c in ("mail", "push")}
    print(f"{args.weeks} simulated weeks (seeds {args.seed}..{args.seed + args.weeks - 1}), 12 matches, "
          f"{total['visits'] / days:.1f} visits and {total['turns'] / days:.1f} turns a day")
    print(f"  before: {total['before_mails'] / days:.1f} mails/day, {total['before_pushes'] / days:.1f} pushes/day; "
          f"{total['before_mails'] / total['gaps']:.2f} mails per visit-gap")
    print(f"  after:  {total['mails'] / days:.2f} mails/day, {total['pushes'] / days:.2f} pushes/day; "
          f"{total['mails'] / total['gaps']:.2f} mails per visit-gap")
    print(f"  notices for turns that came and were played while the player was on the site: {total['while_here']}")
    for c in ("mail", "push"):
        n, one = waited[c]
        print(f"  {c}: {n} turns waited longer than the delay while away; exactly one notice: {one} "
              f"({100.0 * one / n if n else 100.0:.1f} %)")


if __name__ == "__main__":
    main()
