"""The layers of the package, read from its source: no import circle anywhere in ``src/arbitru`` (imports inside
functions and ``TYPE_CHECKING`` blocks included), route modules that never import each other, the app imported
only by its entry points, and a route table that lists each URL once and lets no route hide another."""

from __future__ import annotations

import ast
from pathlib import Path

from starlette.routing import Match, Route

import arbitru
from arbitru.web.app import route_table

SRC = Path(arbitru.__file__).parent
ROUTES = "arbitru.web.routes"
#: the modules that may import the app: its entry point (the tests import it too)
APP_USERS = {"arbitru.cli.web"}


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module → the package's modules it imports, wherever the import statement stands."""
    paths = {module_name(p): p for p in SRC.rglob("*.py")}
    compiled = {module_name(p) for p in SRC.rglob("*.pyi")}  # the compiled core, known by its stub
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for a in node.names:  # ``from package import module`` imports the module
                    found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in paths.keys() | compiled else base)
        graph[name] = {m for m in found if m in paths and m != name}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle (empty: none), by depth-first search."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return [*stack[stack.index(n):], n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return []


def test_the_package_has_no_import_circle():
    graph = import_graph()
    assert len(graph) > 100 and "arbitru.web.house" in graph["arbitru.web.forms"]
    assert cycle(graph) == []


def test_a_circle_is_found_when_there_is_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_route_modules_never_import_each_other_nor_the_app():
    graph = import_graph()
    routes = [m for m in graph if m.startswith(ROUTES + ".")]
    assert len(routes) >= 8
    for m in routes:
        assert not {n for n in graph[m] if n.startswith(ROUTES) or n == "arbitru.web.app"}, m


def test_the_house_imports_no_route():
    graph = import_graph()
    for m in graph:
        if m.startswith("arbitru.web.") and not m.startswith(ROUTES) and m != "arbitru.web.app":
            assert not {n for n in graph[m] if n.startswith(ROUTES)}, m


def test_only_the_entry_points_import_the_app():
    graph = import_graph()
    assert {m for m, imported in graph.items() if "arbitru.web.app" in imported} == APP_USERS


def sample(path: str) -> str:
    return path.replace("{", "x").replace("}", "")


def test_each_url_is_declared_once_and_no_route_hides_another():
    routes = [r for r in route_table() if isinstance(r, Route)]
    assert len(routes) > 60
    seen: set[tuple[str, str]] = set()
    for i, r in enumerate(routes):
        for method in sorted(r.methods or ()):
            key = (method, r.path)
            assert key not in seen, f"{method} {r.path} is declared twice"
            seen.add(key)
            scope = {"type": "http", "path": sample(r.path), "method": method}
            hiders = [e.path for e in routes[:i] if e.matches(scope)[0] == Match.FULL]
            assert not hiders, f"{method} {r.path} is hidden by {hiders}"
