"""Board context for the table page: everything the template shows, pre-computed (the
template uses only Django's built-in tags). Pure Python."""
from __future__ import annotations

import json

from games.orden import rules as R
from games.orden.text import WAPPEN_NAMES, card_text

T = {
    "de": {"you": "Du", "player": "Spieler", "rank": "Rang", "no_rank": "kein Rang", "pfad": "Pfad",
           "auslage": "Auslage", "ablage": "Ablage", "aussen": "Außenwelt", "deck": "Nachziehstapel",
           "hand": "Hand", "my_hand": "Meine Hand", "limits": "Limits", "play": "Ausspielen",
           "actions": "Aktionen", "hand_limit": "Handlimit", "to_move": "am Zug", "round": "Runde",
           "rounds_left": "Runden übrig", "end_turn": "Zug beenden", "never_on": "Nie nach Reaktionen fragen",
           "never_off": "Wieder nach Reaktionen fragen", "decline": "Nicht reagieren",
           "decline_never": "Nicht reagieren und nie mehr fragen", "react_prompt": "Reaktion möglich",
           "announced": "angekündigt", "deadline": "Frist", "hours": "Stunden", "pay": "Bezahlen mit",
           "pay_prompt": "Wähle Karten zum Bezahlen", "choose_prompt": "Wähle eine Karte",
           "discard_prompt": "Lege Karten bis zum Handlimit ab", "discard": "Ablegen", "rule": "Regel",
           "use": "Anwenden", "react": "Reagieren", "finished": "Spiel beendet", "place": "Platz",
           "points": "Punkte", "known": "bekannt", "waiting": "Warte auf", "cards": "Karten"},
    "en": {"you": "you", "player": "Player", "rank": "Rank", "no_rank": "no rank", "pfad": "Path",
           "auslage": "Display", "ablage": "Discard pile", "aussen": "Outside world", "deck": "Draw pile",
           "hand": "Hand", "my_hand": "My hand", "limits": "Limits", "play": "Plays",
           "actions": "Actions", "hand_limit": "Hand limit", "to_move": "to move", "round": "Round",
           "rounds_left": "rounds left", "end_turn": "End turn", "never_on": "Never ask me for reactions",
           "never_off": "Ask me for reactions again", "decline": "Do not react",
           "decline_never": "Do not react, never ask again", "react_prompt": "You may react",
           "announced": "announced", "deadline": "deadline", "hours": "hours", "pay": "Pay with",
           "pay_prompt": "Choose cards to pay", "choose_prompt": "Choose a card",
           "discard_prompt": "Discard down to your hand limit", "discard": "Discard", "rule": "Rule",
           "use": "Use", "react": "React", "finished": "Game over", "place": "Place",
           "points": "Points", "known": "known", "waiting": "Waiting for", "cards": "cards"},
}
WAPPEN_COLOURS = {"orden": "#6b6b6b", "schwert": "#b22222", "hammer": "#8b5a2b", "buch": "#1f4e9c",
                  "meisterschaft": "#7d3c98", "burgherren": "#2e7d32", "grossmeister": "#c9a227",
                  "seligkeit": "#e0b400"}


def _lang(lang):
    return "de" if str(lang).startswith("de") else "en"


def card_view(no, iid, lang, actions=()) -> dict:
    c = R.C[no]
    de = lang == "de"
    props = []
    for d in c.liefert:
        for p, n in d.props:
            props.append({"letter": p, "n": n, "conditional": bool(d.conditions)})
    return {
        "id": iid, "no": no, "name": c.name.de if de else c.name.en, "kind": c.kind,
        "rank": c.rank, "gate": c.rank_gate, "type": c.type, "level": c.level,
        "wappen": c.wappen, "wappen_label": WAPPEN_NAMES[c.wappen][0 if de else 1] if c.wappen else "",
        "colour": WAPPEN_COLOURS.get(c.wappen, "#888"), "props": props,
        "text": card_text(c, lang), "flavor": c.flavor.de if de else c.flavor.en,
        "actions": list(actions),
    }


def _button(action, label) -> dict:
    return {"label": label, "json": json.dumps(action, separators=(",", ":"))}


def board_context(view: dict, seat, legal: list, lang: str) -> dict:
    lang = _lang(lang)
    t = T[lang]
    by_card: dict = {}
    general, choose, decline = [], [], []
    for a in legal:
        typ = a["type"]
        if typ == "play":
            by_card.setdefault(a["card"], []).append(_button(a, {"de": "Ausspielen", "en": "Play"}[lang]))
        elif typ in ("activate", "react"):
            label = f"{t['use'] if typ == 'activate' else t['react']}: {t['rule']} {a['ability'] + 1}"
            by_card.setdefault(a["card"], []).append(_button(a, label))
        elif typ == "pay":
            by_card.setdefault(a["card"], []).append(_button(a, t["pay"]))
        elif typ == "discard":
            by_card.setdefault(a["card"], []).append(_button(a, t["discard"]))
        elif typ == "choose":
            c = R.C[a["card"]]
            choose.append(_button(a, c.name.de if lang == "de" else c.name.en))
        elif typ == "decline":
            decline.append(_button(a, t["decline_never"] if a.get("never_ask") else t["decline"]))
        elif typ == "end_turn":
            general.append(_button(a, t["end_turn"]))
        elif typ == "never_ask":
            general.append(_button(a, t["never_on"] if a["value"] else t["never_off"]))

    def cards(lst):
        return [card_view(c["no"], c["id"], lang, by_card.get(c["id"], ())) for c in lst]

    movers = set()
    if view["phase"] != "over":
        if view.get("resolving"):
            movers.add(view["resolving"]["seat"])
        elif view["phase"] == "react" and view.get("pending"):
            movers.add(view["pending"]["asked"])
        else:
            movers.add(view["cur"])
    seats = []
    for sv in view["seats"]:
        top = sv["pfad"][0]["no"]
        seats.append({
            "seat": sv["seat"], "label": f"{t['player']} {sv['seat'] + 1}", "is_me": sv["seat"] == seat,
            "to_move": sv["seat"] in movers, "rank": sv["rank"], "rank_label": t["no_rank"] if sv["rank"] == "0" else sv["rank"],
            "rank_name": card_view(top, None, lang)["name"], "path": sv["path"],
            "pfad": cards(sv["pfad"][:1]) + [card_view(c["no"], c["id"], lang) for c in sv["pfad"][1:]],
            "auslage": cards(sv["auslage"]), "ablage_count": len(sv["ablage"]),
            "ablage_top": cards(sv["ablage"][-1:]), "aussen": cards(sv["aussen"]),
            "deck_size": sv["deck_size"], "hand_size": sv["hand_size"], "known_hand": cards(sv["known_hand"]),
            "limits": sv["limits"], "never_ask": sv["never_ask"],
        })
    me = None
    if seat is not None and 0 <= seat < len(view["seats"]):
        me = {"seat": seat, "hand": cards(view["seats"][seat].get("hand", []))}
    pending = None
    if view.get("pending"):
        pv = view["pending"]
        c = card_view(pv["no"], pv["card"], lang)
        pending = {"seat": pv["seat"], "card": c, "rule": c["text"][-len(R.C[pv["no"]].abilities):][pv["ability"]]
                   if R.C[pv["no"]].abilities else "", "asked": pv["asked"], "hours": pv["deadline_hours"],
                   "mine_to_answer": pv["asked"] == seat and view["phase"] == "react"}
    prompt = {"pay": t["pay_prompt"], "choose": t["choose_prompt"], "discard": t["discard_prompt"]}.get(view["phase"], "")
    if prompt and seat not in movers:
        prompt = ""
    result = None
    if view.get("result"):
        result = sorted(view["result"]["placements"], key=lambda p: p["place"])
    return {"ord": {
        "t": t, "lang": lang, "round": view["round"], "rounds_left": view["rounds_left"], "phase": view["phase"],
        "seats": seats, "me": me, "pending": pending, "general": general, "choose": choose, "decline": decline,
        "prompt": prompt, "finished": view["phase"] == "over", "result": result,
        "turn": view["turn"], "my_turn": seat in movers,
    }}
