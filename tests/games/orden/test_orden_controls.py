"""Der Orden's controls say what they do: buttons name the card and its rule, the
reaction prompt holds its React choices, the payment step shows what is owed and what is
chosen, "End turn" stands apart from the reaction setting, and English pages use the English
words the plugin defines."""
import html
import re

from orden_scenario import Scenario
from test_orden_board import render
from test_orden_reactions import actor, objector

from games.orden.presentation import highlights


def text(out: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out)))


def test_use_buttons_name_the_card_and_the_rule():
    sc = Scenario([actor(), objector()])
    out, legal = render(sc.state, 0, "en")
    assert any(a["type"] == "activate" for a in legal)
    assert "Rule 1" not in out and "Use: " not in out
    # The compact card shows "Use 2" (Squire has more rules than one); the button's name, read
    # from its content (no aria-label), goes on with the card and the rule for screen readers.
    use = next(b for b in re.findall(r"<button[^>]*>.*?</button>", out, re.S) if "&quot;activate&quot;" in
               out[:out.index(b)].rsplit("<form", 1)[1])
    assert "aria-label" not in use
    visible = re.search(r'<span class="ord-label">(.*?)</span>', use).group(1)
    assert visible == "Use 2"
    assert text(use).strip().startswith("Use 2 “Squire”: ")  # the visible label is part of the name
    assert "Ascend" in text(use)  # what the rule does


def test_the_reaction_prompt_holds_the_react_choices():
    sc = Scenario([actor(), objector()])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    out, legal = render(sc.state, 1, "en")
    assert any(a["type"] == "react" for a in legal)
    prompt = out[out.index('class="ord-prompt ord-pending"'):out.index('<section')]
    assert "React with “Objection”" in text(prompt)
    assert "Do not react" in text(prompt)
    assert prompt.count('name="action"') == sum(a["type"] in ("react", "decline") for a in legal)
    de, _ = render(sc.state, 1, "de")
    assert "Reagieren mit „Einspruch“" in text(de)


def test_the_payment_step_shows_what_is_owed_and_chosen():
    sc = Scenario([actor(), objector()])
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    sc.decline(1)
    assert sc.state["phase"] == "pay"
    out, _ = render(sc.state, 0, "en")
    paying = text(re.search(r'<div class="ord-prompt ord-paying">.*?</div>\s*</div>', out, re.S).group(0))
    assert "Paying for “Squire”" in paying and "Asked for: Discard" in paying and "nothing yet" in paying
    sc.do(0, sc._pick(0, "Mächtige Statur"))
    out, _ = render(sc.state, 0, "en")
    assert "Chosen so far: “Mighty Stature”" in text(out)


def test_end_turn_stands_alone_and_orders_are_set_where_the_decision_comes_up():
    import json
    sc = Scenario([actor(), objector()])
    out, _ = render(sc.state, 0, "en")
    general = re.search(r'<div class="ord-general">.*?</div>\s*</div>', out, re.S).group(0)  # the table's move box
    assert "End turn" in general and "reactions" not in general
    assert "ord-orders" not in out and "Never ask" not in out  # no decision of this kind open
    sc.do(0, {"type": "activate", "card": sc._find(0, "Knappe"), "ability": 1})
    out, _ = render(sc.state, 1, "en")  # asked in the window: the reactions order beside it
    box = re.search(r'<div class="ord-row ord-orders" data-kind="reactions".*?</div>', out, re.S).group(0)
    assert " hidden>" in box  # shown by orders.js, which PUTs it to the API
    orders = [json.loads(html.unescape(o)) for o in re.findall(r'data-order="([^"]+)"', box)]
    assert orders == [{"kind": "reactions", "policy": "never"},
                      {"kind": "reactions", "policy": "prevent_ascents", "min_rank": "VII"},
                      {"kind": "reactions", "policy": "ask"}]
    assert "Answer windows for me" in text(box) and "prevent ascents from RANK VII" in text(box)
    out0, _ = render(sc.state, 0, "en")
    assert "ord-orders" not in out0  # the actor is not asked
    sc.decline(1)
    out, _ = render(sc.state, 0, "de")  # paying: "pay automatically" beside it
    box = re.search(r'<div class="ord-row ord-orders" data-kind="payment".*?</div>', out, re.S).group(0)
    assert "automatisch bezahlen" in text(box)
    assert [json.loads(html.unescape(o)) for o in re.findall(r'data-order="([^"]+)"', box)] == [
        {"kind": "payment", "policy": "auto"}]


def test_english_pages_use_the_english_words():
    sc = Scenario([actor(), objector()])
    out, _ = render(sc.state, 0, "en")
    words = text(out)
    for german in ("Pfad", "Nachziehstapel", "Ablage", "Auslage", "schwert", "BURG", "Rang "):
        assert german not in words, german
    assert "Path" in words and "Draw pile" in words


def test_highlights_mark_the_moved_cards_and_changed_ranks():
    hl = highlights([{"type": "play", "seat": 1, "card": 17}, {"type": "ascend", "seat": 1, "card": 3, "rank": "V"},
                     {"type": "end_turn", "seat": 1}])
    assert hl["cards"] == ["1:17", "1:3"] and hl["ranks"] == [1]
