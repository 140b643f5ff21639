"""Layers point one way: app/ never imports nodes/ or graphs/ (the runtime compiles the supervisor graph, the one
import of graphs/ allowed), and app/'s modules import each other without cycles.

Read from the source with `ast`, nothing imported: every `import` and `from ... import` counts, at module level or
inside a function. For cycles, imports under `if TYPE_CHECKING:` are left out (they never run), and so is the
implicit import of a package's `__init__` when one of its modules is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
ALLOWED_UPWARD = {("app.runtime", "graphs.supervisor"), ("app.runtime", "graphs.regenerate")}
"""The runtime builds and compiles the supervisor graph, and the replay graph of a turn's last steps: the one
place app/ reaches into graphs/."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(APP.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str) -> list[tuple[str, bool]]:
    """(imported module or module.name, under TYPE_CHECKING) for every import statement of a module."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for stmt in child.body:
                    visit_one(stmt, True)
                for stmt in child.orelse:
                    visit_one(stmt, checking)
            else:
                visit_one(child, checking)

    def visit_one(node: ast.AST, checking: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, checking) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*package[:len(package) - node.level + 1], *([node.module] if node.module else [])]) \
                if node.level else str(node.module)
            found.append((base, checking))
            found.extend((f"{base}.{alias.name}", checking) for alias in node.names)
        visit(node, checking)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def test_app_never_imports_nodes_or_graphs():
    """TYPE_CHECKING imports count here too: a type annotation is a dependency as well."""
    upward = sorted({(name, ".".join(target.split(".")[:2])) for name in MODULES for target, _ in imports(name)
                     if target.split(".")[0] in ("nodes", "graphs")})
    assert [pair for pair in upward if pair not in ALLOWED_UPWARD] == []


def app_graph() -> dict[str, set[str]]:
    """module → the app/ modules it imports (run-time imports only)."""
    return {name: {target for target, checking in imports(name) if not checking and target in MODULES
                   and target != name}
            for name in MODULES}


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (its modules in order, the first repeated at the end), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (cycle := walk(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return []

    for start in sorted(graph):
        if start not in state and (cycle := walk(start)):
            return cycle
    return []


def test_app_modules_import_each_other_without_cycles():
    assert find_cycle(app_graph()) == []


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import():
    """The checks above would pass vacuously if the reader missed imports: it reads lazy ones, and skips
    TYPE_CHECKING ones."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []
    runtime = dict(imports("app.runtime"))
    assert runtime["graphs.supervisor"] is False  # a function-level import
    roles = dict(imports("app.models.roles"))
    assert roles["app.evidence"] is True  # under TYPE_CHECKING
    assert "app.knowledge.base" in app_graph()["app.runtime"]  # imported inside a method


def test_one_bad_input_error():
    from app import cli, checkpoints, errors, runtime

    assert cli.BadInput is runtime.BadInput is checkpoints.BadInput is errors.BadInput
    assert issubclass(errors.BadInput, ValueError)
