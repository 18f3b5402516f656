"""Pictures for the rules pages, drawn by the game's own board templates (not images that drift
from the table): a fixed sample state of a game, made by the engine from a seed and a few bot
moves, rendered as a seat would see it, without move controls. Generic: it knows no game; a
game's rules template asks for its pictures with the tags of ``templatetags/rules_pictures.py``."""
from __future__ import annotations

from functools import lru_cache

from django.template.loader import render_to_string

from games import registry
from games.rng import Rng


@lru_cache(maxsize=32)
def _state(slug: str, players: int, seed: int, moves: int, bot: str) -> dict:
    """The sample state: set up with the game's defaults, then ``moves`` moves of its bot
    (``bot`` by name, else the first it lists). Deterministic: the seed and the moves fix it."""
    plugin = registry.get(slug)
    engine = plugin.engine
    options = plugin.meta.clean_options({})
    choices = plugin.resolve_choices([plugin.clean_choices({}, None) for _ in range(players)])
    state = engine.setup(players, options, seed, choices)
    bots = plugin.bots()
    play = bots.get(bot) or next(iter(bots.values()), None)
    rng = Rng(seed)
    for _ in range(moves):
        to_move = engine.to_move(state)
        if not to_move or play is None:
            break
        seat = to_move[0]
        state = engine.apply(state, seat, play(state, seat, rng)).state
    return state


def sample(slug: str, lang: str, *, players: int = 2, seed: int = 1, moves: int = 0, seat: int | None = 0,
           bot: str = "") -> dict:
    """The context of the game's board template for the sample: the plugin's ``board_context``
    of ``seat``'s view (None: a spectator's) with no legal moves, merged as the table merges it
    (frontend/boards.py)."""
    from .boards import board_context

    plugin = registry.get(slug)
    view = plugin.engine.view(_state(slug, players, seed, moves, bot), seat)
    names = [f"{'Spieler' if lang == 'de' else 'Player'} {i + 1}" for i in range(players)]
    context = {"view": view, "seat": seat, "legal": [], "lang": lang, "names": names, "plugin": plugin,
               "board_template": plugin.board_template, "act_url": "", "version": 0, "hl": {},
               "board_styles_in_head": True, "sample": True}
    hl = {} if plugin.board_context_takes_highlights else None
    context.update(board_context(plugin, context, view, seat, [], lang, hl=hl))
    return context


def assets(slug: str) -> str:
    """The board's style sheets as links (valid in the body; the CSP allows the site's files)."""
    from django.templatetags.static import static
    from django.utils.html import format_html_join

    plugin = registry.get(slug)
    links = format_html_join("", '<link rel="stylesheet" href="{}">', ((static(css),) for css in plugin.stylesheets()))
    # the deprecated template hook, still honoured as the table honours it (frontend/boards.py)
    return links + (render_to_string(plugin.board_styles) if plugin.board_styles else "")


def board(slug: str, lang: str, **kwargs) -> str:
    """The whole board of the sample, as the table draws it, after its style sheets' links."""
    context = sample(slug, lang, **kwargs)
    return assets(slug) + render_to_string(context["board_template"], context)
