"""Der Orden through the pages: two new players pick starter decks and play the
seed's three-turn opening (Vor den Mauern → Einladung → Das Versprechen → rank I) and on to the
end of a fixed-rounds game; in a three-player game the third player's reaction (Einspruch)
prevents an ascent (the second player, asked first, declines). Every move is a click on the
form the table page offers."""
import json
import sys
from pathlib import Path

import pytest

from games.orden import rules as R
from matches.models import Match, Seat
from tests.browser.pages import follow_into_match, sign_up

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "orden"))
from orden_scenario import Scenario, no_of  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def offered(page) -> list[dict]:
    return [json.loads(v) for v in page.locator("form input[name=action]").evaluate_all("els => els.map(e => e.value)")]


def version_of(page) -> int:
    return int(page.locator("#live").get_attribute("data-version"))


def act(pages, page, want) -> dict:
    """Click the first offered action for which ``want(action)`` holds; wait until every page
    shows the new version (pushed over the websocket)."""
    actions = offered(page)
    index = next((i for i, a in enumerate(actions) if want(a)), None)
    assert index is not None, f"not offered: {actions}"
    version = version_of(page)
    page.locator("form input[name=action]").nth(index).locator("xpath=..").locator("button").click()
    for p in pages:
        p.wait_for_selector(f"#live[data-version='{version + 1}']", timeout=20_000)
    return actions[index]


def mover(pages):
    movers = [p for p in pages if p.locator("#match-status[data-my-turn='1']").count()]
    assert len(movers) == 1, f"{len(movers)} pages offer moves"
    return movers[0]


def decline_reactions(pages, actor_page):
    """Everybody asked to react declines (the opening is about the actor)."""
    while True:
        page = mover(pages)
        if page is actor_page or not any(a["type"] == "decline" for a in offered(page)):
            return
        act(pages, page, lambda a: a == {"type": "decline"})


def state():
    return Match.objects.get().state


def join_with_deck(page, url, deck, starts):
    page.goto(url)
    page.select_option("select[name=choice_deck]", deck)
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#live" if starts else "form[action$='/leave/']")


def new_invitation(page, base, players, rounds, deck):
    page.goto(base + "/invitations/new/")
    page.click("a[data-game=orden]")
    page.select_option("select[name=players]", str(players))
    page.fill("input[name=opt_rounds]", str(rounds))
    page.select_option("select[name=choice_deck]", deck)
    page.click("main form button[type=submit]")
    page.wait_for_selector("[data-invitation]")
    return page.url


def open_match(pages, match_url):
    for p in pages:
        follow_into_match(p, match_url)
        p.wait_for_function("window.__liveSocketOpen === true")


def test_two_new_players_play_the_opening_and_on_to_the_end(live_site, browser):
    pages = [browser.new_context().new_page() for _ in range(2)]
    for page, name, lang in zip(pages, ("ritter_rudi", "gelehrte_grete"), ("de", "en")):
        sign_up(page, live_site, name, lang=lang)
    url = new_invitation(pages[0], live_site, 2, rounds=4, deck="starter:schwert")
    join_with_deck(pages[1], url, "starter:buch", starts=True)
    match = Match.objects.get()
    assert [d["deck_id"] for d in match.choices] and {d["deck_id"] for d in match.choices} == {"starter:schwert",
                                                                                               "starter:buch"}
    # The seed's position: the start player holds neither Einladung nor Das Versprechen (the shuffle
    # decides that; put them back into the draw pile if it dealt them, as the seed's example assumes).
    st = match.state
    me = st["p"][st["cur"]]
    for name in ("Einladung", "Das Versprechen"):
        for iid in [i for i in me["hand"] if st["ci"][i] == no_of(name)]:
            swap = next(d for d in me["deck"] if st["ci"][d] not in (no_of("Einladung"), no_of("Das Versprechen")))
            me["hand"][me["hand"].index(iid)], me["deck"][me["deck"].index(swap)] = swap, iid
    Match.objects.filter(pk=match.pk).update(state=st)
    open_match(pages, pages[1].url)
    start = Seat.objects.get(match=match, seat=st["cur"]).user.username
    p0 = pages[0] if start == "ritter_rudi" else pages[1]
    p1 = pages[1] if p0 is pages[0] else pages[0]
    s0 = st["cur"]

    def iid_of(name, zones=("hand", "pfad", "auslage")):
        s = state()
        return next(i for z in zones for i in s["p"][s0][z] if s["ci"][i] == no_of(name))

    # Turn 1: Vor den Mauern fetches Einladung from the draw pile, which is played.
    act(pages, p0, lambda a: a == {"type": "activate", "card": iid_of("Vor den Mauern"), "ability": 0})
    decline_reactions(pages, p0)
    assert no_of("Einladung") in [state()["ci"][i] for i in state()["p"][s0]["hand"]]  # one card named: taken
    act(pages, p0, lambda a: a == {"type": "play", "card": iid_of("Einladung")})
    act(pages, p0, lambda a: a["type"] == "end_turn")
    assert len(state()["p"][s0]["hand"]) == 7
    act(pages, p1, lambda a: a["type"] == "end_turn")
    # Turn 2: Einladung is discarded to fetch Das Versprechen, which is played.
    act(pages, p0, lambda a: a == {"type": "activate", "card": iid_of("Einladung"), "ability": 0})
    decline_reactions(pages, p0)
    assert no_of("Das Versprechen") in [state()["ci"][i] for i in state()["p"][s0]["hand"]]
    act(pages, p0, lambda a: a == {"type": "play", "card": iid_of("Das Versprechen")})
    act(pages, p0, lambda a: a["type"] == "end_turn")
    act(pages, p1, lambda a: a["type"] == "end_turn")
    # Turn 3: Das Versprechen ascends: the Adept on top, rank I.
    act(pages, p0, lambda a: a == {"type": "activate", "card": iid_of("Das Versprechen"), "ability": 0})
    decline_reactions(pages, p0)
    assert R.rank(state(), s0) == 1.0
    p1.reload()
    assert p1.locator(f"section.ord-seat[data-seat='{s0}'][data-rank='I']").count() == 1

    # On to the end (4 fixed rounds): reactions declined, prompts answered with the first card,
    # otherwise the turn is ended.
    for _ in range(200):
        if pages[0].locator("#placements").count():
            break
        page = mover(pages)
        actions = offered(page)
        kinds = {a["type"] for a in actions}
        if "decline" in kinds:
            act(pages, page, lambda a: a == {"type": "decline"})
        elif kinds & {"pay", "choose", "discard"}:
            act(pages, page, lambda a: a["type"] in ("pay", "choose", "discard"))
        else:
            act(pages, page, lambda a: a["type"] == "end_turn")
    match.refresh_from_db()
    assert match.status == "finished"
    for page in pages:
        page.reload()
        assert page.locator("#placements li").count() == 2
    places = sorted(p["place"] for p in match.outcome["placements"])
    assert places[0] == 1 and {p["seat"] for p in match.outcome["placements"]} == {0, 1}
    winner = min(match.outcome["placements"], key=lambda p: p["place"])
    assert winner["seat"] == s0  # rank I against a rank-less opponent


def test_a_third_players_reaction_prevents_an_ascent(live_site, browser):
    pages = [browser.new_context().new_page() for _ in range(3)]
    names = ("knappe_karl", "zuschauerin_zoe", "einspruch_emil")
    for page, name in zip(pages, names):
        sign_up(page, live_site, name, lang="de")
    url = new_invitation(pages[0], live_site, 3, rounds=0, deck="starter:schwert")
    join_with_deck(pages[1], url, "starter:buch", starts=False)
    join_with_deck(pages[2], url, "starter:hammer", starts=True)
    match = Match.objects.get()
    # The position: seat 0 can ascend with Knappe; seat 1 holds no reaction; seat 2 holds Bestechung and 3x V
    # (open to every seat; Einspruch is only for the next seat to move since data version 25).
    sc = Scenario([
        {"path": "schwert", "rank": "IV", "hand": ["Mächtige Statur", "Mächtige Statur", "Kraft", "Demut"],
         "deck": ["Demut"] * 10},
        {"path": "buch", "rank": "I", "hand": ["Schriftrolle"] * 3, "deck": ["Demut"] * 10},
        {"path": "hammer", "rank": "IV", "hand": ["Bestechung", "Goldbarren", "Silberling", "Treueschwur"],
         "deck": ["Demut"] * 10},
    ])
    Match.objects.filter(pk=match.pk).update(state=sc.state, to_move=[0])
    Seat.objects.filter(match=match).update(to_move=False, to_move_since=None)
    Seat.objects.filter(match=match, seat=0).update(to_move=True)
    by_user = {s.user.username: s.seat for s in match.seats.select_related("user")}
    page_of = {by_user[n]: p for n, p in zip(names, pages)}
    open_match(pages, pages[2].url)
    for p in pages:
        p.reload()

    knappe = next(i for i in sc.state["p"][0]["pfad"] if sc.state["ci"][i] == no_of("Knappe"))
    act(pages, page_of[0], lambda a: a == {"type": "activate", "card": knappe, "ability": 1})
    # Every opponent is asked in turn, whether or not it holds a reaction: seat 1,
    # holding none, is offered only to decline; then seat 2 is asked and sees the prompt.
    assert state()["pend"]["asked"] == 1 and mover(pages) is page_of[1]
    assert {a["type"] for a in offered(page_of[1])} == {"decline"}
    act(pages, page_of[1], lambda a: a == {"type": "decline"})
    assert state()["pend"]["asked"] == 2
    assert page_of[2].locator(".ord-pending").count() == 1 and mover(pages) is page_of[2]
    bribe = next(i for i in state()["p"][2]["hand"] if state()["ci"][i] == no_of("Bestechung"))
    act(pages, page_of[2], lambda a: a["type"] == "react" and a["card"] == bribe)
    while any(a["type"] == "pay" for a in offered(page_of[2])):
        act(pages, page_of[2], lambda a: a["type"] == "pay")
    s = state()
    assert R.rank(s, 0) == 4.0  # prevented: still rank IV
    assert [s["ci"][i] for i in s["p"][2]["aussen"]] == [no_of("Bestechung")]  # removed (data version 6)
    assert "Knappe|1" in s["t"]["blocked"]
    page_of[0].reload()
    assert "verhindert" in page_of[0].content()
