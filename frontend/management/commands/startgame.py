"""``manage.py startgame <slug>``: a new game package that passes the conformance suite and plays
on the site at once (a tiny placeholder trick game with hidden hands, a board, bots, rules pages
in de/en and tests). The files come from ``frontend/management/game_skeleton/`` (``*-tpl``, the
placeholders ``__SLUG__``, ``__NAME_EN__``, ``__NAME_DE__`` filled in). See docs/writing-a-game.md,
"Start a game"."""
from __future__ import annotations

import keyword
import re
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games import registry

SKELETON = Path(__file__).resolve().parents[1] / "game_skeleton"
SLUG = re.compile(r"^[a-z][a-z0-9_]{1,29}$")
# Modules of the games package itself: a package of that name would shadow them.
TAKEN = {"base", "registry", "rng", "safejson", "textnum", "order_loop", "tests", "test", "web", "static",
         "templates", "kit"}


def check_slug(slug: str, target: Path) -> None:
    """Raise CommandError with a clear message unless ``slug`` can name a new package in ``target``."""
    if not SLUG.match(slug or ""):
        raise CommandError(f"'{slug}' is not a usable slug: 2 to 30 characters, lower-case letters, digits and "
                           "'_', starting with a letter (it names a Python package and the game's URLs).")
    if keyword.iskeyword(slug) or slug in TAKEN:
        raise CommandError(f"'{slug}' is reserved (a Python keyword or a module of the games package); choose "
                           "another slug.")
    if slug in registry.plugins():
        raise CommandError(f"A game with the slug '{slug}' is already registered.")
    if (target / slug).exists():
        raise CommandError(f"{target / slug} already exists; nothing was written.")


def render(text: str, slug: str, name_en: str, name_de: str) -> str:
    return text.replace("__SLUG__", slug).replace("__NAME_EN__", name_en).replace("__NAME_DE__", name_de)


def write_package(slug: str, target: Path, name_en: str | None = None, name_de: str | None = None) -> list[Path]:
    """Writes ``target/<slug>/`` from the skeleton; returns the files written."""
    check_slug(slug, target)
    name_en = name_en or slug.replace("_", " ").title()
    name_de = name_de or name_en
    for name in (name_en, name_de):
        if not name.strip() or any(c in name for c in '"\\\n'):
            raise CommandError("A game's name must not be empty nor hold quotes, backslashes or line breaks.")
    home = target / slug
    written = []
    for src in sorted(SKELETON.rglob("*-tpl")):
        rel = render(str(src.relative_to(SKELETON))[:-len("-tpl")], slug, name_en, name_de)
        dest = home / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(render(src.read_text(encoding="utf-8"), slug, name_en, name_de), encoding="utf-8")
        written.append(dest)
    return written


class Command(BaseCommand):
    help = "Write a new game package games/<slug>/: a placeholder game that plays on the site at once."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the game's slug: its package name and URL part, e.g. 'gops'")
        parser.add_argument("--name-en", help="the game's English name (default: from the slug)")
        parser.add_argument("--name-de", help="the game's German name (default: the English one)")
        parser.add_argument("--dir", default=str(registry.GAMES_DIR),
                            help="the games folder to write into (default: the site's games/)")

    def handle(self, *args, slug, name_en=None, name_de=None, dir=None, **options):
        target = Path(dir)
        if not target.is_dir():
            raise CommandError(f"{target} is not a folder.")
        files = write_package(slug, target, name_en, name_de)
        home = target / slug
        self.stdout.write(self.style.SUCCESS(f"Wrote {home} ({len(files)} files)."))
        self.stdout.write(
            "Next:\n"
            f"  .venv/bin/python -m pytest -q {home}/tests      # its own tests and the conformance suite\n"
            "  make run                                    # restart: the site lists the game\n"
            f"  .venv/bin/python bench/run.py simulate {slug} --games 50   # what its bots show\n"
            "Then replace the placeholder rules (engine.py), the board and the rules pages with your game's "
            "(docs/writing-a-game.md).")
