"""No import circle inside any package of pokerroom, among its direct children.

The import contracts (pyproject.toml, ``acyclic``) name the folders they keep acyclic; this
test reads the whole graph (grimp's, as ``lint-imports`` builds it: imports inside functions
and under ``TYPE_CHECKING`` count) so that a new package, or one the contracts do not name,
stays so too. A child that is a package counts with everything inside it. A circle is cut in
the code: a Protocol or a shared type in the lower module, a callable passed in, a module
split where it held two concepts.
"""

from __future__ import annotations

import grimp


def circles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The import circles among ``package``'s children: each a strongly connected set of
    two or more children, sorted."""
    children = sorted(graph.find_children(package))
    imports = {
        a: [
            b
            for b in children
            if b != a and graph.direct_import_exists(importer=a, imported=b, as_packages=True)
        ]
        for a in children
    }
    # Tarjan's strongly connected components, iteratively (no recursion limit to meet).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in children:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, next_child = work.pop()
            if next_child == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            targets = imports[node]
            if next_child < len(targets):
                work.append((node, next_child + 1))
                target = targets[next_child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found)


def test_no_package_has_an_import_circle_among_its_children() -> None:
    graph = grimp.build_graph("pokerroom")
    packages = sorted(m for m in graph.modules if graph.find_children(m))
    assert "pokerroom.server.tables" in packages  # the walk sees the folders
    found = {p: c for p in packages if (c := circles(graph, p))}
    assert not found, f"import circles among a package's children: {found}"


def test_circles_finds_each_circle_and_nothing_else() -> None:
    # The check itself must see what it looks for, or the test above proves nothing.
    graph = grimp.ImportGraph()
    for module in ["p", "p.a", "p.b", "p.c", "p.d", "p.e", "p.e.inner", "p.f"]:
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.c")
    graph.add_import(importer="p.c", imported="p.a")  # a -> b -> c -> a
    graph.add_import(importer="p.d", imported="p.a")  # d only leads into it
    graph.add_import(importer="p.e.inner", imported="p.f")
    graph.add_import(importer="p.f", imported="p.e")  # through a child package's module
    assert circles(graph, "p") == [["p.a", "p.b", "p.c"], ["p.e", "p.f"]]
    graph.remove_import(importer="p.c", imported="p.a")
    assert circles(graph, "p") == [["p.e", "p.f"]]
