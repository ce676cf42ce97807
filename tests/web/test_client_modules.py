"""The browser client's modules (web/js) import one way: the state, the socket hub and the
helpers at the bottom, the views above them, the page's entry (main.js) at the top. A cycle
among them is found here, with the modules in it."""

from __future__ import annotations

import re
from pathlib import Path

WEB_JS = Path(__file__).resolve().parents[2] / "src" / "pokerroom" / "web" / "js"
# A runtime import; JSDoc's `import("./x.js").T` types are erased and are not edges.
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w-]+)\.js";', re.MULTILINE | re.DOTALL)


def imports() -> dict[str, set[str]]:
    return {
        path.stem: set(IMPORT.findall(path.read_text(encoding="utf-8")))
        for path in sorted(WEB_JS.glob("*.js"))
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), and self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_import_names_a_module_of_the_client() -> None:
    graph = imports()
    missing = {
        f"{module} -> {name}"
        for module, names in graph.items()
        for name in names
        if name not in graph
    }
    assert not missing


def test_the_client_modules_import_without_a_cycle() -> None:
    assert cycles(imports()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_nothing_imports_the_pages_entry() -> None:
    graph = imports()
    assert not [module for module, names in graph.items() if "main" in names]


def test_every_client_module_is_type_checked() -> None:
    unchecked = [
        path.name
        for path in sorted(WEB_JS.glob("*.js"))
        if not path.read_text(encoding="utf-8").startswith("// @ts-check\n")
    ]
    assert not unchecked, "start each with `// @ts-check` (make lint runs tsc over them)"
