"""Der Orden's balance tools (bench/orden/, ``bench/run.py orden``) in a tiny configuration, so they
cannot rot: every part of the report runs, the paired games really are paired, and the report has every
figure; the comparisons build the decks they name; the stall finder, the climb trace and the trial pilots
do what they say."""
import json

import pytest

from bench.orden import harness as H


def test_paired_games_share_the_seed_and_swap_the_seats():
    run = H.Runner(1, "heuristic")
    tasks = run.pair_tasks("starter:schwert", "starter:buch", H.seeds(5, 4))
    assert [(t["seed"], t["a_seat"], t["decks"][t["a_seat"]]) for t in tasks] == [
        (5, 0, "starter:schwert"), (5, 1, "starter:schwert"), (6, 0, "starter:schwert"), (6, 1, "starter:schwert")]
    a, b = run.run(tasks[:2])
    assert a["start"] == b["start"]  # same seed: same start seat, so the start player favours neither deck


def test_search_starts_are_many_and_distinct():
    starts = H.starts(H.Rng(3), randoms=2)
    keys = {H.key(d) for _, d in starts}
    assert len(keys) == len(starts) >= 3 * 6 + 2
    assert any(label.startswith("random:") for label, _ in starts)
    assert any(len(d["pfad"]) == 11 for _, d in starts)  # VI+ and IX+ both dropped
    # the finds of earlier searches start too (players share deck lists), unless the cards forbid them:
    # the Hammer deck with a second BURG is no deck since data version 9,
    known = {label for label, _ in starts if label.startswith("known:")}
    assert "known:buch:-VI+,-Bibliothekarin Berta,-Magister Gregor,+Treueschwur,+Auftrag" in known
    assert "known:hammer:-Silberling,-Einspruch,+Klosterburg,+Bestechung" not in known
    # and the Hammer decks with a second Das Fundament since data version 12
    assert not any("+Das Fundament" in label for label in known)
    assert len(known) == len(H.KNOWN) - 3 + len(H.KNOWN_DECKS)
    assert "known:thin-grace" in known  # a find that is no starter's edit
    thin = dict(starts)["known:thin-grace"]
    assert len(thin["cards"]) == 32 and len(thin["pfad"]) == 12


def test_tiny_run_reports_every_figure(tmp_path):
    out = tmp_path / "h.json"
    H.main(["--pilot", "heuristic", "--procs", "1", "--games", "2", "--screen", "2", "--climb", "1",
            "--children", "1", "--randoms", "0", "--top", "1", "--verify", "2", "--ranks", "2", "--table", "2",
            "--engine-games", "1", "--reps", "1", "--json", str(out)])
    r = json.loads(out.read_text())
    assert r["starters"]["best"] in {f"starter:{p}" for p in H.PATHS}
    assert r["search"]["candidates"] > 12
    assert set(r["verify"][0]["vs"]) == set(H.PATHS)
    assert {k["label"] for k in r["known"]} == {label for label, _ in H.known()} and r["known"][0]["ended"] == 2
    assert set(r["ranks"]) == {f"{p}-{lab}" for p in H.PATHS for lab in ("VI+", "IX+")}
    for n in ("2", "3", "4"):
        row = r["table"][n]
        assert row["ended"] == 2 and row["decisions_per_turn"] > 1 and row["options_per_decision"] > 2
        assert abs(sum(v["share"] for v in row["paths"].values()) - 1) < 1e-9
    assert r["engine"]["ms_min"] > 0
    goals = {g["goal"] for g in r["goals"]}
    assert "no found deck > 60 % vs the best starter" in goals and "4p game ≤ 30 ms engine time" in goals
    assert r["version"]["cards_sha256"]


def test_the_interval_counts_seeds_not_games():
    """Both games of a seed share its deal: ten seeds won twice and ten lost twice are twenty
    samples, not forty, and their interval is wider than the one over games."""
    scores = [1.0] * 10 + [0.0] * 10
    assert round(H.seed_ci95(scores), 1) == round(196 * ((0.5 * 0.5 * 20 / 19) / 20) ** 0.5, 1)
    assert H.seed_ci95(scores) > H.ci95(20, 40)
    assert H.seed_ci95([0.5] * 20) == 196 * (0.25 / 20 / 20) ** 0.5  # a floor: never zero
    wins, ended, ci = H.Pairing(3, 4, 9.0)
    assert (wins, ended) == (3, 4) and H.Pairing(3, 4, 9.0).ci == 9.0


def test_comparisons_and_earlier_finds_build_the_decks_they_name():
    from bench.orden import compare as Q
    from games.orden import decks as D

    (label, deck, opp, seeds), = Q.jobs_for("swap:hammer:Burg Eisenfels:Demut:buch", [1, 2])
    base = D.starter("hammer")["cards"]
    assert deck["cards"].count(D.current_no("Demut")) == base.count(D.current_no("Demut")) + 1
    assert D.current_no("Burg Eisenfels") not in deck["cards"] and opp == "starter:buch" and seeds == [1, 2]
    (_, dropped, full, _), = Q.jobs_for("drop:buch:VI+", [1])
    assert len(dropped["pfad"]) == len(full["pfad"]) - 1
    assert len(Q.jobs_for("starters", [1])) == 3
    find = H.hammer_with("Ritter")
    assert D.current_no("Ritter") in find["pfad"] and D.current_no("Geselle") not in find["pfad"]
    assert D.validate(find) and len(find["cards"]) == 49
    (label, edited, opp, _), = Q.jobs_for("mod:hammer:-IX+,-Zunftmeister Konrad,+Werkzeug:buch", [1])
    assert D.current_no("Zunftmeister Konrad") not in edited["cards"] and opp == "starter:buch"
    assert edited["cards"].count(D.current_no("Werkzeug")) == base.count(D.current_no("Werkzeug")) + 1
    assert len(edited["pfad"]) == len(D.starter("hammer")["pfad"]) - 1 and D.validate(edited)
    with pytest.raises(SystemExit):
        Q.jobs_for("mod:hammer:Werkzeug:buch", [1])  # an edit without its sign
    (label, thin, opp, _), = Q.jobs_for("known:thin-grace:schwert", [1])  # a named find (KNOWN_DECKS)
    assert len(thin["cards"]) == 32 and opp == "starter:schwert" and D.validate(thin)
    with pytest.raises(SystemExit):
        Q.jobs_for("known:no-such-deck:schwert", [1])
    # a named find edited: a rank card swapped, a card out, one in, an optional rank dropped
    (label, mod, opp, _), = Q.jobs_for("knownmod:thin-grace:Lehrer=Geselle,-Gnade,+Demut,-IX+:hammer", [1])
    assert D.current_no("Geselle") in mod["pfad"] and D.current_no("Lehrer") not in mod["pfad"]
    assert len(mod["pfad"]) == len(thin["pfad"]) - 1 and D.current_no("Großmeister") not in mod["pfad"]
    assert mod["cards"].count(D.current_no("Gnade")) == 1 and D.current_no("Demut") in mod["cards"]
    assert opp == "starter:hammer" and len(mod["cards"]) == 32
    assert H.known_edited("thin-grace", "Lehrer=Geselle") == dict(H.known())["known:thin-grace-geselle"]
    with pytest.raises(SystemExit):
        Q.jobs_for("knownmod:thin-grace:Gnade:hammer", [1])  # an edit without its sign
    (label, thin, lean, _), = Q.jobs_for("known:thin-hammer:hammer/-Gehorsam,-Bestechung", [1])  # an edited opponent
    assert len(lean["cards"]) == len(base) - 2 and D.current_no("Bestechung") not in lean["cards"]
    assert len(thin["cards"]) == 35


def test_the_table_takes_the_counts_it_is_given(tmp_path):
    out = tmp_path / "t.json"
    H.main(["--pilot", "heuristic", "--procs", "1", "--only", "table", "--counts", "3", "--table", "1",
            "--json", str(out)])
    assert set(json.loads(out.read_text())["table"]) == {"3"}


def test_the_quick_table_puts_the_edited_deck_on_its_path_only():
    from bench.orden import compare as Q
    from games.orden import decks as D

    (label, n, decks, games), = Q.jobs_for("table:4:hammer:-Das Fundament,+Demut", list(range(5)))
    assert (n, games, set(decks)) == (4, 5, {"hammer"}) and "Das Fundament" in label
    task = H.table_task(4, 1, 0, "heuristic", decks)  # game 1: hammer, buch, schwert, hammer
    assert task["paths"] == ["hammer", "buch", "schwert", "hammer"]
    assert task["decks"][0] is task["decks"][3] is decks["hammer"] and task["decks"][1] == "starter:buch"
    assert D.current_no("Das Fundament") not in decks["hammer"]["cards"]
    (job,) = Q.jobs_for("table:3", [1])
    assert isinstance(job, Q.Table) and (job.players, job.decks) == (3, {})
    assert all(isinstance(j, Q.Pair) for j in Q.jobs_for("starters", [1]))  # main() tells them apart by type


def test_the_quick_table_edits_several_paths_and_all():
    from bench.orden import compare as Q
    from games.orden import decks as D

    (job,) = Q.jobs_for("table:3:all:+Einspruch:hammer:-Gehorsam", [1])
    assert set(job.decks) == set(H.PATHS)
    einspruch, gehorsam = D.current_no("Einspruch"), D.current_no("Gehorsam")
    for path, deck in job.decks.items():
        starter = D.starter(path)["cards"]
        assert deck["cards"].count(einspruch) == starter.count(einspruch) + 1
        assert deck["cards"].count(gehorsam) == starter.count(gehorsam) - (path == "hammer")
    with pytest.raises(SystemExit, match="pairs"):
        Q.jobs_for("table:3:hammer", [1])


def test_the_stall_finder_reports_a_game_past_its_limit(capsys):
    from bench.orden import stalls as S

    assert S.main(["--players", "2", "--limit", "2", "--games", "1", "--pilot", "heuristic"]) == 1
    out = capsys.readouterr().out
    assert "STALLED in round 3" in out and "seat 1 (hammer): rank" in out and "round 2: seat" in out


def test_the_stall_finder_replays_a_known_finds_paired_games(capsys):
    from bench.orden import stalls as S

    assert S.main(["--known", "thin-grace:buch", "--first", "6000035", "--games", "1", "--limit", "2",
                   "--pilot", "heuristic"]) == 2
    out = capsys.readouterr().out
    assert "thin-grace at seat 0 (seed 6000035, thin-grace/buch): STALLED" in out
    assert "thin-grace at seat 1 (seed 6000035, buch/thin-grace): STALLED" in out


def test_a_game_at_the_cap_is_reported_with_what_replays_it(capsys, monkeypatch):
    monkeypatch.setattr(H, "CAP_ROUNDS", 1)
    run = H.Runner(1, "heuristic")
    (w, e, _), = run.pairings([("starter:schwert", "starter:buch", [5])])
    assert e == 0
    out = capsys.readouterr().out
    assert out.count("not ended by round 1: seed 5, deck A at seat ") == 2 and "starter:buch" in out
    H.part_table(run, 1, 40, (3,))
    assert "not ended by round 1: seed 40, seats schwert/hammer/buch" in capsys.readouterr().out


def test_the_climb_trace_names_the_rule_behind_every_rank():
    from bench.orden import climb as C

    game = C.climb_game({"decks": ["starter:buch", "starter:hammer"], "seed": 3, "seat": 0, "pilot": "heuristic"})
    ups = [u for u in game["ups"] if u["up"]]
    assert ups and ups[0]["from"] == "Vor den Mauern"  # the seat's first rank change leaves the lowest rank
    assert [u["round"] for u in ups] == sorted(u["round"] for u in ups)
    from games.orden.decks import CURRENT

    cards = {c.name.de: c for c in C.cardset().cards.values() if c.in_version(CURRENT)}
    for u in game["ups"]:  # every rule named is a rule the named card has
        name, n = u["rule"].rsplit(":", 1)
        assert 0 <= int(n) < len(cards[name].abilities), u
    lines = C.report([game])
    assert lines[0].startswith("wins ") and any(line.startswith("Vor den Mauern") for line in lines[1:])


def _ascent_window(rank):
    """Seat 0 announces an ascent from ``rank`` (Knappe IV for 5x K, Meister VII for 1x T and 2x E with VI+ in the
    Pfad, Erzmeister IX for 1x S and 2x E with 4x E lying out); seat 1 holds an Einspruch and the T to pay for it, and
    ranks as high."""
    from orden_scenario import Scenario
    from games.orden.engine import ENGINE
    actor = {"IV": {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft"]},
             "VII": {"path": "schwert", "rank": "VII", "plus6": True, "hand": ["Treueschwur", "Vision"]},
             "IX": {"path": "schwert", "rank": "IX", "plus6": True, "plus9": True, "hand": ["Erlösung", "Gebet"],
                    "auslage": ["Mysterium der Flamme", "Vision"]}}[rank]
    rule = {"IV": ("Knappe", 1), "VII": ("Meister", 2), "IX": ("Erzmeister", 0)}[rank]
    sc = Scenario([{**actor, "deck": ["Demut"] * 10},
                   {"path": "hammer", "rank": rank, "plus6": rank != "IV", "plus9": rank == "IX",
                    "hand": ["Einspruch", "Treueschwur"], "deck": ["Demut"] * 10}])
    sc.state = ENGINE.apply(sc.state, 0, {"type": "activate", "card": sc._find(0, rule[0]), "ability": rule[1]}).state
    return sc


@pytest.mark.parametrize("rank, today, eager", [("IV", "decline", "react"), ("VII", "decline", "react"),
                                                ("IX", "react", "react")])
def test_the_pilot_keeps_its_preventer_for_the_ascents_from_ix_on(rank, today, eager):
    from bench.orden import pilots as P
    from games.orden.roster import BOTS
    from games.rng import Rng
    sc = _ascent_window(rank)
    assert sc.to_move() == [1]
    assert BOTS["lookahead"](sc.state, 1, Rng(1))["type"] == today  # a prevented rival ascends next turn
    assert P.pilot("eager")(sc.state, 1, Rng(1))["type"] == eager  # the first chance, as the bots once did
    assert BOTS["lookahead"](sc.state, 1, Rng(1))["type"] == today  # the trial policy is the trial pilot's alone
    from games.orden import bots as B
    assert B.PREVENT_FROM == 9.0


def test_the_pilot_tries_an_ascent_that_scores_as_well_as_ending_the_turn():
    """Two Großmeisters that answer every ascent of the third seat (each paying 3x ? from the hand): a prevented
    ascent costs the actor nothing and scores as well as ending the turn, so the pilot tries it. It had ended its
    turns instead, and a 3-player table game (seed 3000581, data version 18) ran to the 300-round cap."""
    from orden_scenario import Scenario
    from games.orden import lookahead as L
    from games.orden.roster import BOTS
    from games.rng import Rng
    rivals = {"rank": "IX+", "plus6": True, "plus9": True, "hand": ["Gebet", "Talent", "Vision", "Treueschwur",
                                                                   "Mysterium der Flamme", "Eifer", "Demut"]}
    sc = Scenario([{"path": "buch", "rank": "IX", "plus6": True, "plus9": True,  # Erzmeister: 2x S and 4x E lie out
                    "auslage": ["Gnade", "Gnade", "Vision", "Vision"], "hand": [], "deck": []},
                   {**rivals, "path": "hammer"}, {**rivals, "path": "schwert"}])
    assert not L._standstill(sc.state, 0)
    picks = {BOTS["lookahead"](sc.state, 0, Rng(k))["type"] for k in range(4)}
    assert picks == {"activate"}
    act = BOTS["lookahead"](sc.state, 0, Rng(1))
    assert sc.state["ci"][act["card"]] == sc.state["ci"][sc.state["p"][0]["pfad"][0]]  # the Erzmeister's own ascent
