"""Deck pages: my decks, the builder (new / edit / copy), delete. Thin: rules in services."""
from __future__ import annotations

from games.textnum import is_small_int

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.orden import decks
from games.orden.presentation import card_view

from . import services
from .forms import DeckForm, pool
from .models import SavedDeck


def _lang() -> str:
    return "de" if (translation.get_language() or "en").startswith("de") else "en"


def _path_name(path):
    """"hammer" -> "Path of the Hammer" / "Pfad des Hammers" (never the key itself)."""
    from games.orden.text import WAPPEN_NAMES

    names = WAPPEN_NAMES.get(path) if path else None
    return (names[0] if _lang() == "de" else names[1]) if names else ""


@login_required
def deck_list(request):
    rows = list(SavedDeck.objects.filter(owner=request.user).only("id", "name", "pfad", "cards", "updated_at"))
    starters = [{"path": p, "name": de if _lang() == "de" else en} for p, (de, en) in decks.STARTER_NAMES.items()]
    return render(request, "orden_web/deck_list.html", {
        "decks": [_row(d) for d in rows],
        "starters": starters})


def _row(saved) -> dict:
    # a card renumbered since the deck was saved is played in its current version (decks.with_current_versions)
    deck, replaced = decks.with_current_versions(saved.deck)
    lang = _lang()
    path = decks.path_of(deck)
    return {"deck": saved, "size": len(deck["cards"]), "path": path, "path_name": _path_name(path),
            "problem": _problem(deck),
            "updated_cards": ", ".join(n.de if lang == "de" else n.en for n in replaced)}


def _problem(deck: dict) -> str:
    """Why a saved deck cannot be played (one saved before a rule existed), or ""."""
    try:
        decks.playable(deck)
    except decks.DeckError as e:
        return e.de if _lang() == "de" else e.en
    return ""


def _builder(request, form, deck_obj=None):
    lang = _lang()
    count_fields = {int(name[2:]): form[name] for name in form.fields if name.startswith("n_")}
    groups, current = [], None
    for c in pool():
        key = (c.wappen, c.type)
        if current is None or current["key"] != key:
            current = {"key": key, "wappen": card_view(c.no, None, lang)["wappen_label"], "type": c.type, "cards": []}
            groups.append(current)
        current["cards"].append({"view": card_view(c.no, None, lang), "field": count_fields[c.no], "max": c.count})
    rank_fields = [form[f"rank_{label}"] for label in form.choice_ranks]
    return render(request, "orden_web/deck_form.html", {"form": form, "groups": groups, "rank_fields": rank_fields,
                                                         "deck_obj": deck_obj, "min_cards": decks.MIN_CARDS})


def _save(request, form, existing=None):
    """Validate and save; on refusal the form shows why. Returns the saved deck or None."""
    if not form.is_valid():
        return None
    try:
        return services.save(request.user, name=form.cleaned_data["name"], deck=form.deck(), existing=existing)
    except services.DeckRefused as e:
        form.add_error(e.field, e.message)
        return None


@login_required
def deck_new(request):
    lang = _lang()
    if request.method == "POST":
        form = DeckForm(request.POST, lang=lang)
        saved = _save(request, form)
        if saved:
            messages.success(request, _("Deck saved."))
            return redirect("orden-decks")
        return _builder(request, form)
    start = request.GET.get("from", "starter:schwert")
    try:
        deck = decks.resolve(start) if start.startswith("starter:") else None
    except decks.DeckError:
        deck = None
    deck = deck or decks.starter("schwert")
    form = DeckForm(initial=DeckForm.initial_for("", deck), lang=lang)
    return _builder(request, form)


@login_required
def deck_edit(request, pk: int):
    deck_obj = services.owned(request.user, pk)
    if deck_obj is None:
        raise Http404
    lang = _lang()
    if request.method == "POST":
        form = DeckForm(request.POST, lang=lang)
        if _save(request, form, existing=deck_obj):
            messages.success(request, _("Deck saved."))
            return redirect("orden-decks")
        return _builder(request, form, deck_obj)
    return _builder(request, DeckForm(initial=DeckForm.initial_for(deck_obj.name, deck_obj.deck), lang=lang), deck_obj)


@login_required
@require_POST
def deck_copy(request):
    source = request.POST.get("source", "")
    try:
        if source.startswith("starter:"):
            copy = services.copy_starter(request.user, source[8:])
        else:
            original = services.owned(request.user, source) if is_small_int(source) else None
            if original is None:
                raise Http404
            copy = services.copy_deck(request.user, original)
    except services.DeckRefused as e:
        messages.error(request, e.message)
        return redirect("orden-decks")
    messages.success(request, _("Copied as “%(name)s”. Change it as you like.") % {"name": copy.name})
    return redirect("orden-deck-edit", pk=copy.pk)


@login_required
@require_POST
def deck_delete(request, pk: int):
    deck_obj = services.owned(request.user, pk)
    if deck_obj is None:
        raise Http404
    deck_obj.delete()
    messages.success(request, _("Deck deleted. Matches and tournaments keep the list they started with."))
    return redirect("orden-decks")
