"""The move box of a seat that waits while another seat is asked: the
reaction window is only End turn's reason there (the box keeps its height: the browser test
tests/browser/test_table_prompts.py measures it), the asked seat and a spectator see the prompt,
and an own Path card that cannot be used now says why instead of losing its buttons' row."""
import re

from orden_scenario import Scenario
from test_orden_board import render
from test_orden_reactions import actor, objector


def _window(version=None):
    sc = Scenario([actor(), objector()], version=version)
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    return sc


def _move_box(out):
    return out[out.index('id="ord-move"'):out.index('<section')]


def test_the_waiting_actor_reads_the_window_in_end_turns_row():
    sc = _window()
    out, _ = render(sc.state, 0, "en")
    box = _move_box(out)
    assert "ord-pending" not in box
    off = re.search(r'<div class="ord-general ord-off">.*?</div></div>', box, re.S).group(0)
    assert "Waiting for a reaction to “Squire”." in off
    assert 'class="ord-move-title" title="To move: Bert"' in box
    de, _ = render(sc.state, 0, "de")
    assert "Warte auf eine Reaktion auf „Knappe“." in _move_box(de)


def test_the_asked_seat_and_a_spectator_see_the_prompt():
    sc = _window()
    asked, _ = render(sc.state, 1, "en")
    assert 'class="ord-prompt ord-pending"' in _move_box(asked)
    watcher, _ = render(sc.state, None, "en")
    assert 'class="ord-prompt ord-pending"' in watcher and "Waiting for Bert" in re.sub(r"\s+", " ", watcher)


def test_the_reacting_seat_paying_is_not_told_to_wait_for_itself():
    sc = _window(version=20)  # version 20's Einspruch is paid for with 2x T (version 21's is not)
    sc.do(1, {"type": "react", "card": sc._find(1, "Einspruch"), "ability": 0})
    out, _ = render(sc.state, 1, "en")
    assert "ord-paying" in out and "Waiting for" not in out


def test_an_own_path_card_that_cannot_be_used_says_why():
    sc = _window()
    out, _ = render(sc.state, 0, "en")
    seat = out[out.index('data-anchor="seat-0"'):out.index('data-anchor="seat-1"')]
    knappe = seat[seat.index("ord-zone-pfad"):seat.index("ord-zone-auslage")]
    assert re.search(r'<div class="ord-actions ord-off"><button type="button" disabled title="It is not your turn.">Use'
                     r'</button> <small class="ord-why visually-hidden">It is not your turn.</small>', knappe)
    # said once, whole, above the seat's cards (a card is too narrow for it beside its button)
    assert '<p class="ord-seat-why">Use: It is not your turn.</p>' in seat
    mine, _ = render(Scenario([actor(), objector()]).state, 0, "en")  # its turn: the Use buttons
    own = mine[mine.index('data-anchor="seat-0"'):mine.index('data-anchor="seat-1"')]
    assert "ord-off" not in own and '<p class="ord-seat-why"></p>' in own  # the line stays, empty
