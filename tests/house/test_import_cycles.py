"""No import circles between the project's modules.

Every ``import`` counts, a deferred one inside a function too: a function-level import that closes a
circle is the same knot, only tied later (``if TYPE_CHECKING:`` blocks are left out, they never
run). A circle found here is broken by moving the shared part down into a module both can import,
or by a signal where a lower app has to tell a higher one that something happened.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Top-level packages: the folders at the root, and the Django apps under platform/ (on sys.path).
SOURCE_ROOTS = [ROOT / "accounts", ROOT / "frontend", ROOT / "games"] + [
    p for p in sorted((ROOT / "platform").iterdir()) if (p / "__init__.py").exists()
]

pytestmark = pytest.mark.pure


def _module_name(path: Path) -> str:
    base = ROOT / "platform" if path.is_relative_to(ROOT / "platform") else ROOT
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for root in SOURCE_ROOTS:
        for path in root.rglob("*.py"):
            if "migrations" in path.parts or "templates" in path.parts:
                continue
            found[_module_name(path)] = path
    return found


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` counts ``a.b`` when that is a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            skip |= {id(n) for child in node.body for n in ast.walk(child)}
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets.add(mod)
            targets |= {f"{mod}.{alias.name}" for alias in node.names}
    edges = set()
    for target in targets:
        # the longest project module the name falls in (``games.orden.cards.X`` → ``games.orden.cards``)
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name and not name.startswith(target + "."):
            edges.add(target)
    return edges


def import_graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imported(name, path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        work = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_detector_finds_a_planted_circle():
    graph = {"a.x": {"a.y"}, "a.y": {"b.z"}, "b.z": {"a.x"}, "c": {"a.x"}}
    assert cycles(graph) == [["a.x", "a.y", "b.z"]]


def test_the_graph_sees_deferred_and_relative_imports():
    graph = import_graph()
    assert "games.base" in graph["games.registry"] or "games.base" in set().union(*graph.values())
    assert graph, "no modules found"


def test_no_import_circles():
    found = cycles(import_graph())
    assert not found, "import circles:\n" + "\n".join(" ↔ ".join(c) for c in found)


def test_matches_never_imports_notifications():
    """The arrow between the two apps points one way: notifications reacts to matches (its
    receivers subscribe to ``matches.signals`` and read matches to word a notice); matches tells
    it nothing directly, so a game plays on the same without the notifications app."""
    graph = import_graph()
    upward = sorted(f"{m} -> {t}" for m, targets in graph.items() if m.split(".")[0] == "matches"
                    for t in targets if t.split(".")[0] == "notifications")
    assert not upward, upward


def test_the_graph_counts_imports_inside_functions():
    """The arrows broken here stay broken only if a deferred import is seen: the follow-up's
    batcher imports the writer inside a function, and that arrow is in the graph."""
    graph = import_graph()
    assert "matches.services" in graph["matches.followups"]
    assert "matches.followups" not in graph["matches.services"]
